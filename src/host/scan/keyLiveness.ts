// "Check whether this key is live": on a flagged key, and only when the person
// asks, the key's own service is asked at no cost (core/scan/verify.ts). The
// answer is kept in memory by fingerprint, never with the key, and words the
// diagnostic and the hover of every place the same key appears.
import { isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import { fingerprintOf } from '../../core/scan/scanner.ts';
import { KeyVerifier, type Verification } from '../../core/scan/verify.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { CommandId } from '../commandIds.ts';
import type { Configuration } from '../configuration.ts';
import { DIAGNOSTIC_SOURCE, type KeyDiagnostics } from './keyDiagnostics.ts';

const t = vscode.l10n.t;

export function verificationText(verification: Verification): string {
  switch (verification.status) {
    case 'live':
      return t('live: the service accepts it ({0})', verification.reason);
    case 'inactive':
      return t('inactive: {0}', verification.reason);
    case 'unknown':
      return t('unknown: {0}', verification.reason);
  }
}

/** Asks the person to pick one of the items; undefined is no. Tests script it. */
export type Ask = (message: string, ...items: string[]) => Thenable<string | undefined>;

/** The host a base URL names, for a question a person reads (the whole URL when it does not parse). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

export class KeyLiveness extends Disposable implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  ask: Ask = (message, ...items) => vscode.window.showWarningMessage(message, { modal: true }, ...items);
  private readonly diagnostics: KeyDiagnostics;
  private readonly configuration: Configuration;
  private verifier: KeyVerifier | undefined;
  private verifierFor = '';

  constructor(diagnostics: KeyDiagnostics, configuration: Configuration) {
    super();
    this.diagnostics = diagnostics;
    this.configuration = configuration;
    diagnostics.verificationOf = (fingerprint) => this.verifier?.known(fingerprint);
    this._register(
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, {
        providedCodeActionKinds: KeyLiveness.kinds,
      }),
    );
  }

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    return (
      context.diagnostics
        .filter((d) => d.source === DIAGNOSTIC_SOURCE)
        // The key of a finding inside an archive is not in this text to send; `keyward scan --verify` checks those.
        // Nor is a split or encoded key; and another provider's key is never sent anywhere.
        .filter((d) =>
          this.diagnostics
            .at(document.uri, d.range)
            .some(
              (e) =>
                e.inner === undefined &&
                isServiceOwner(e.finding.service) &&
                e.finding.ruleId !== 'split-key' &&
                e.finding.ruleId !== 'encoded-key',
            ),
        )
        .map((diagnostic) => {
          const action = new vscode.CodeAction(t('Check whether this key is live'), vscode.CodeActionKind.QuickFix);
          action.diagnostics = [diagnostic];
          action.command = {
            command: CommandId.checkKeyLive,
            title: action.title,
            arguments: [document.uri, diagnostic.range],
          };
          return action;
        })
    );
  }

  /** Where a key of each service is sent to be checked: the base URLs the user set (application settings). */
  private baseUrls(): Partial<Record<string, string>> {
    const { router, direct } = this.configuration.value;
    return { router: router.baseUrl, direct: direct.baseUrl };
  }

  /** The verifier for the base URLs now set: another service is another cache. */
  private current(): KeyVerifier {
    const baseUrls = this.baseUrls();
    const wanted = `${baseUrls.router} ${baseUrls.direct}`;
    if (!this.verifier || this.verifierFor !== wanted) {
      this.verifier = new KeyVerifier({ baseUrls });
      this.verifierFor = wanted;
    }
    return this.verifier;
  }

  /** The command: a flagged key at the given place, or at the cursor. Returns the answer (tests read it). */
  async check(uri?: vscode.Uri, range?: vscode.Range): Promise<Verification | undefined> {
    if (!uri || !range) {
      const editor = vscode.window.activeTextEditor;
      if (editor) {
        uri = editor.document.uri;
        range = editor.selection;
      }
    }
    const entry = uri && range ? this.diagnostics.at(uri, range).find((e) => e.inner === undefined) : undefined;
    if (!uri || !entry) {
      void vscode.window.showInformationMessage(t('No key flagged by Keyward here: put the cursor on a marked key.'));
      return undefined;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const key = document.getText(entry.range);
    if (fingerprintOf(key) !== entry.finding.fingerprint) {
      void vscode.window.showInformationMessage(t('The key changed since it was flagged; try again in a moment.'));
      return undefined;
    }
    const owner = entry.finding.service;
    // Only a service Keyward prompts is asked: another provider's key is never sent anywhere.
    if (!isServiceOwner(owner)) {
      void vscode.window.showInformationMessage(
        t('Keyward does not check keys of {0}: it sends a key only to its own services.', ownerName(owner)),
      );
      return undefined;
    }
    const service = SERVICE_NAMES[owner];
    // In an untrusted folder the key comes from a file someone else wrote: it leaves only after a question that
    // names where it goes.
    const baseUrl = this.baseUrls()[owner];
    if (!vscode.workspace.isTrusted && baseUrl !== undefined) {
      const send = t('Send and Check');
      const answer = await this.ask(
        t(
          'Restricted Mode: to check whether the key {0} is live, Keyward sends it, as found in a file of a folder you have not trusted, to {1} (the {2}). Send it?',
          entry.finding.masked,
          hostOf(baseUrl),
          service,
        ),
        send,
      );
      if (answer !== send) return undefined;
    }
    const verification = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: t('Asking the {0} whether the key is live', service) },
      () => this.current().verify(owner, key, true),
    );
    this.diagnostics.reword();
    const said = t('{0} key {1}: {2}', service, entry.finding.masked, verificationText(verification));
    if (verification.status === 'live')
      void vscode.window.showWarningMessage(
        entry.git === 'tracked' ? `${t('Live key in git history: rotate now.')} ${said}` : said,
      );
    else void vscode.window.showInformationMessage(said);
    return verification;
  }
}
