// "Check whether this key is live": on a flagged key, and only when the person
// asks, the key's own service is asked at no cost (core/scan/verify.ts). The
// answer is kept in memory by fingerprint, never with the key, and words the
// diagnostic and the hover of every place the same key appears. The check itself (keyLivenessCheck.ts) loads
// with the other on-demand commands on the first one.
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import type { KeyVerifier, Verification } from '../../core/scan/verify.ts';
import type { Configuration } from '../configuration.ts';
import { type Dialogs, windowDialogs } from '../dialogs.ts';
import { DIAGNOSTIC_SOURCE, type KeyDiagnostics } from './keyDiagnostics.ts';

export class KeyLiveness extends Disposable implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  readonly diagnostics: KeyDiagnostics;
  readonly configuration: Configuration;
  /** Where the check asks before a key found in an untrusted folder leaves (dialogs.ts). */
  readonly dialogs: Dialogs;
  /** The verifier the last check used, and the base URLs it was made for: another service is another cache. */
  verifier: KeyVerifier | undefined;
  verifierFor = '';

  constructor(diagnostics: KeyDiagnostics, configuration: Configuration, dialogs: Dialogs = windowDialogs) {
    super();
    this.diagnostics = diagnostics;
    this.configuration = configuration;
    this.dialogs = dialogs;
    diagnostics.verificationOf = (fingerprint) => this.verifier?.known(fingerprint);
    this._register(
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, {
        providedCodeActionKinds: KeyLiveness.kinds,
      }),
    );
  }

  /** The action loads with the other on-demand commands when the cursor first rests on one of Keyward's findings. */
  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] | Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    return import('../onDemandCommands.ts').then(({ livenessActions }) =>
      livenessActions(this.diagnostics, document, ours),
    );
  }

  /** The command: a flagged key at the given place, or at the cursor (keyLivenessCheck.ts, loaded on the first). */
  async check(uri?: vscode.Uri, range?: vscode.Range): Promise<Verification | undefined> {
    return (await import('../onDemandCommands.ts')).checkKeyLive(this, uri, range);
  }
}
