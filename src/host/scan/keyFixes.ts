// Quick fixes for a flagged key; they share the diagnostic's code (the rule id). Which fixes a finding offers
// (keyFixActions.ts) loads when the cursor first rests on one of Keyward's findings, and the fixes that write
// (keyFixWrites.ts) on the first one run, both with the other on-demand commands (dist/commands.js).
import * as vscode from 'vscode';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import type { Configuration } from '../configuration.ts';
import { DIAGNOSTIC_SOURCE, type KeyDiagnostics } from './keyDiagnostics.ts';
import type { KeyFixWrites } from './keyFixWrites.ts';
import { Disposable } from '../../shared/dispose.ts';
import { FixCommand } from './fixCommands.ts';
import { type Dialogs, windowDialogs } from '../dialogs.ts';

export class KeyFixes extends Disposable implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  private readonly diagnostics: KeyDiagnostics;
  private readonly configuration: Configuration;
  private readonly keys: KeyStore;
  private writes: Promise<KeyFixWrites> | undefined;
  /** Where the fixes ask and tell (dialogs.ts). */
  private readonly dialogs: Dialogs;
  /** How long a dirty document may go without a save before the move says it could not be saved. */
  private readonly savePatienceMs: number;

  constructor(
    diagnostics: KeyDiagnostics,
    configuration: Configuration,
    keys: KeyStore,
    { dialogs = windowDialogs, savePatienceMs = 60_000 }: { dialogs?: Dialogs; savePatienceMs?: number } = {},
  ) {
    super();
    this.diagnostics = diagnostics;
    this.configuration = configuration;
    this.keys = keys;
    this.dialogs = dialogs;
    this.savePatienceMs = savePatienceMs;
    for (const disposable of [
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, { providedCodeActionKinds: KeyFixes.kinds }),
      vscode.commands.registerCommand(FixCommand.moveToEnv, (uri: vscode.Uri, range: vscode.Range) =>
        this.moveToEnv(uri, range),
      ),
      vscode.commands.registerCommand(FixCommand.storeAndRemove, (uri: vscode.Uri, range: vscode.Range) =>
        this.storeAndRemove(uri, range),
      ),
      vscode.commands.registerCommand(FixCommand.gitignoreFile, (uri: vscode.Uri) => this.gitignoreFile(uri)),
      vscode.commands.registerCommand(FixCommand.stopKey, async (uri: vscode.Uri, range: vscode.Range) =>
        (await import('../onDemandCommands.ts')).stopFoundKey(
          { keys: this.keys, configuration: this.configuration },
          uri,
          range,
          this.diagnostics,
        ),
      ),
    ])
      this._register(disposable);
  }

  /** The fixes load with the other on-demand commands when the cursor first rests on one of Keyward's findings. */
  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] | Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    return import('../onDemandCommands.ts').then(({ keyFixActions }) =>
      keyFixActions(this.diagnostics, this.configuration, document, ours, (service) =>
        Boolean(this.keys.accountMetadata(service)),
      ),
    );
  }

  /** The fixes that write, loaded on the first one run. */
  private writer(): Promise<KeyFixWrites> {
    this.writes ??= import('../onDemandCommands.ts').then(
      ({ KeyFixWrites }) =>
        new KeyFixWrites({
          diagnostics: this.diagnostics,
          configuration: this.configuration,
          keys: this.keys,
          ask: (message, ...items) => this.dialogs.ask(message, undefined, ...items),
          say: (level, text) => this.dialogs.tell(level, text),
          savePatience: () => this.savePatienceMs,
        }),
    );
    return this.writes;
  }

  /** Replaces the literal with a read of the environment variable, the key moved to .env (keyFixWrites.ts). */
  async moveToEnv(uri: vscode.Uri, range: vscode.Range): Promise<boolean> {
    return (await this.writer()).moveToEnv(uri, range);
  }

  /** Moves the key into Keyward's secret storage, then out of the file (keyFixWrites.ts). */
  async storeAndRemove(uri: vscode.Uri, range: vscode.Range): Promise<boolean> {
    return (await this.writer()).storeAndRemove(uri, range);
  }

  /** Ignores the file in the workspace folder's own .gitignore (keyFixWrites.ts). */
  async gitignoreFile(uri: vscode.Uri): Promise<boolean> {
    return (await this.writer()).gitignoreFile(uri);
  }
}
