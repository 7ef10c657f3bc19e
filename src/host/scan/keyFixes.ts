// Quick fixes for a flagged key; they share the diagnostic's code (the rule id). The fixes that write (keyFixWrites.ts)
// load on the first one run, with the other on-demand commands (dist/commands.js).
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import {
  ENV_VAR,
  INDIRECT_RULES,
  envReplacement,
  ignoreComment,
  ignoreNextLine,
  isDotenvFile,
} from '../../core/scan/fixes.ts';
import { COMMITTED_KEY_CODE } from './committedKeys.ts';
import type { Configuration } from '../configuration.ts';
import { DIAGNOSTIC_SOURCE, type KeyDiagnostics } from './keyDiagnostics.ts';
import type { KeyFixWrites } from './keyFixWrites.ts';
import { Disposable } from '../../shared/dispose.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';
import { PROVIDERS, isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';

const t = vscode.l10n.t;

export const FixCommand = {
  moveToEnv: 'keyward.fix.moveToEnv',
  storeAndRemove: 'keyward.fix.storeAndRemove',
  gitignoreFile: 'keyward.fix.gitignoreFile',
} as const;

/** Asks the person to pick one of the items; undefined is no. Tests script it. */
export type Ask = (message: string, ...items: string[]) => Thenable<string | undefined>;

export class KeyFixes extends Disposable implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  private readonly diagnostics: KeyDiagnostics;
  private readonly configuration: Configuration;
  private readonly keys: KeyStore;
  private writes: Promise<KeyFixWrites> | undefined;
  ask: Ask = (message, ...items) => vscode.window.showWarningMessage(message, { modal: true }, ...items);
  /** How long a dirty document may go without a save before the move says it could not be saved (tests shorten it). */
  savePatienceMs = 60_000;
  /** What the fixes told the person, newest last (the in-host tests read why a fix refused). */
  readonly said: string[] = [];

  constructor(diagnostics: KeyDiagnostics, configuration: Configuration, keys: KeyStore) {
    super();
    this.diagnostics = diagnostics;
    this.configuration = configuration;
    this.keys = keys;
    for (const disposable of [
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, { providedCodeActionKinds: KeyFixes.kinds }),
      vscode.commands.registerCommand(FixCommand.moveToEnv, (uri: vscode.Uri, range: vscode.Range) =>
        this.moveToEnv(uri, range),
      ),
      vscode.commands.registerCommand(FixCommand.storeAndRemove, (uri: vscode.Uri, range: vscode.Range) =>
        this.storeAndRemove(uri, range),
      ),
      vscode.commands.registerCommand(FixCommand.gitignoreFile, (uri: vscode.Uri) => this.gitignoreFile(uri)),
    ])
      this._register(disposable);
  }

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    // Restricted Mode: no fix that writes a file or stores a key, only the way to rotate it.
    const trusted = vscode.workspace.isTrusted;
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    for (const diagnostic of ours) {
      if (diagnostic.code === COMMITTED_KEY_CODE) {
        // A key moved out of a tracked file: only rotating it ends the finding.
        for (const moved of this.diagnostics.committedAt(document.uri, diagnostic.range)) {
          const rotate = this.rotateAction(moved.service, moved.storedAtMove === moved.fingerprint);
          rotate.diagnostics = [diagnostic];
          rotate.isPreferred = true;
          actions.push(rotate);
        }
        continue;
      }
      const entry = this.diagnostics.at(document.uri, diagnostic.range)[0];
      // A key inside an archive or a source map's sources is not in this text: nothing here can edit it.
      if (!entry || entry.inner !== undefined) continue;
      actions.push(...this.fixesFor(document, diagnostic, entry, trusted));
    }
    return actions;
  }

  /** One finding's fixes; in a tracked file rotating comes first and is the one preferred. */
  private fixesFor(
    document: vscode.TextDocument,
    diagnostic: vscode.Diagnostic,
    entry: Entry,
    trusted: boolean,
  ): vscode.CodeAction[] {
    const make = (title: string, preferred = false) => {
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = preferred;
      return action;
    };
    const own = trusted ? [...this.writingFixes(document, entry, make), ...ignoreFix(document, entry, make)] : [];
    const service = entry.finding.service;
    let rotate: vscode.CodeAction;
    if (isServiceOwner(service)) rotate = this.rotateAction(service, entry.finding.stored === 'active');
    else {
      // Another provider's key is rotated on its own page.
      rotate = make(t('Rotate this key at {0}', ownerName(service)));
      rotate.command = {
        title: rotate.title,
        command: 'vscode.open',
        arguments: [vscode.Uri.parse(PROVIDERS[service].keysPage)],
      };
    }
    rotate.diagnostics = [diagnostic];
    if (entry.git !== 'tracked') return [...own, rotate];
    // In a tracked file the key is in history: moving or ignoring it does not end the leak, rotating does
    // (GitGuardian keeps such an incident open until the secret is revoked).
    for (const action of own) action.isPreferred = false;
    rotate.isPreferred = true;
    return [rotate, ...own];
  }

  /** Move to .env, store in Keyward, add the file to .gitignore: the fixes that write (a trusted workspace only). */
  private writingFixes(document: vscode.TextDocument, entry: Entry, make: MakeAction): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const service = entry.finding.service;
    const name = ENV_VAR[service];
    // A split or encoded key is not the text under the finding: nothing can move it as it stands.
    const movable = !INDIRECT_RULES.has(entry.finding.ruleId);
    const line = document.lineAt(entry.range.start.line).text;
    if (
      movable &&
      !isDotenvFile(document.fileName) &&
      envReplacement(document.languageId, line, entry.range.start.character, entry.range.end.character, name)
    ) {
      const action = make(t('Read {0} from the environment and move the key to .env', name), true);
      action.command = { title: action.title, command: FixCommand.moveToEnv, arguments: [document.uri, entry.range] };
      actions.push(action);
    }
    if (movable && isServiceOwner(service) && entry.finding.stored !== 'retired') {
      const action = make(
        entry.finding.stored === 'active'
          ? t('Remove the key from this file (it is stored in Keyward)')
          : t('Store the key in Keyward and remove it from this file'),
      );
      action.command = {
        title: action.title,
        command: FixCommand.storeAndRemove,
        arguments: [document.uri, entry.range],
      };
      actions.push(action);
    }
    if (entry.git === 'untracked' && document.uri.scheme === 'file') {
      const action = make(t('Add {0} to .gitignore', vscode.workspace.asRelativePath(document.uri)));
      action.command = { title: action.title, command: FixCommand.gitignoreFile, arguments: [document.uri] };
      actions.push(action);
    }
    return actions;
  }

  /** Rotating a key: Keyward's own Rotate for the stored key, else the service's key page. */
  private rotateAction(service: ServiceId, stored: boolean): vscode.CodeAction {
    const rotate = new vscode.CodeAction(
      t('Rotate this key at the {0}', SERVICE_NAMES[service]),
      vscode.CodeActionKind.QuickFix,
    );
    rotate.isPreferred = false;
    const keysPage = pagesOf(this.configuration.value, service).keys;
    rotate.command =
      stored || keysPage === null
        ? { title: rotate.title, command: SERVICES[service].commands.rotateKey }
        : { title: rotate.title, command: 'vscode.open', arguments: [vscode.Uri.parse(keysPage)] };
    return rotate;
  }

  /** Tells the person, and keeps it in `said`. */
  say(level: 'warning' | 'error', text: string): void {
    this.said.push(text);
    if (this.said.length > 50) this.said.shift();
    void (level === 'error' ? vscode.window.showErrorMessage(text) : vscode.window.showWarningMessage(text));
  }

  /** The fixes that write, loaded on the first one run. */
  private writer(): Promise<KeyFixWrites> {
    this.writes ??= import('../onDemandCommands.ts').then(
      ({ KeyFixWrites }) =>
        new KeyFixWrites({
          diagnostics: this.diagnostics,
          configuration: this.configuration,
          keys: this.keys,
          ask: (message, ...items) => this.ask(message, ...items),
          say: (level, text) => this.say(level, text),
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

type Entry = NonNullable<ReturnType<KeyDiagnostics['at']>[number]>;
type MakeAction = (title: string, preferred?: boolean) => vscode.CodeAction;

/** An allow comment on the finding's line (a trusted workspace only). */
function ignoreFix(document: vscode.TextDocument, entry: Entry, make: MakeAction): vscode.CodeAction[] {
  const lineNumber = entry.range.start.line;
  const line = document.lineAt(lineNumber).text;
  const dotenv = isDotenvFile(document.fileName);
  // No allow comment hides the key stored in Keyward (scanner.ts): offering one would write a line that does nothing.
  const comment =
    entry.finding.stored === 'active' ? undefined : dotenv ? ignoreNextLine(line) : ignoreComment(document.languageId);
  if (!comment) return [];
  const base = dotenv
    ? t('Ignore this line (keyward-ignore-next-line above it)')
    : t('Ignore this line (keyward-ignore)');
  // Ignoring hides the finding; a committed key stays in every clone of the history.
  const action = make(entry.git === 'tracked' ? t('{0}: the key stays in git history, so rotate it too', base) : base);
  action.edit = new vscode.WorkspaceEdit();
  if (dotenv) action.edit.insert(document.uri, new vscode.Position(lineNumber, 0), comment);
  else action.edit.insert(document.uri, document.lineAt(lineNumber).range.end, comment);
  return [action];
}
