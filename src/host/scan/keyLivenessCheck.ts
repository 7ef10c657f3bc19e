// "Check whether this key is live", when the person asks (keyLiveness.ts offers it): the key's own service is asked
// at no cost (core/scan/verify.ts), after a question in an untrusted folder. Loaded with the other on-demand
// commands (onDemandCommands.ts, dist/commands.js) on the first check, so that activation does not parse it.
import * as vscode from 'vscode';
import { isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';
import { fingerprintOf } from '../../core/scan/scanner.ts';
import { KeyVerifier, type Verification } from '../../core/scan/verify.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import type { Configuration } from '../configuration.ts';
import type { Dialogs } from '../dialogs.ts';
import { CommandId } from '../commandIds.ts';
import type { KeyDiagnostics } from './keyDiagnostics.ts';
import { verificationText } from './verificationText.ts';

/** What the check reads and keeps: KeyLiveness, which offers it and holds the verifier between checks. */
export interface LivenessHost {
  readonly diagnostics: KeyDiagnostics;
  readonly configuration: Configuration;
  /** Where the check asks (dialogs.ts). */
  readonly dialogs: Dialogs;
  verifier: KeyVerifier | undefined;
  verifierFor: string;
}

const t = vscode.l10n.t;

/** The host a base URL names, for a question a person reads (the whole URL when it does not parse). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Where a key of each service is sent to be checked: the base URLs the user set (application settings). */
function baseUrls(liveness: LivenessHost): Partial<Record<string, string>> {
  const { router, direct } = liveness.configuration.value;
  return { router: router.baseUrl, direct: direct.baseUrl };
}

/** The verifier for the base URLs now set: another service is another cache. */
function current(liveness: LivenessHost): KeyVerifier {
  const urls = baseUrls(liveness);
  const wanted = `${urls.router} ${urls.direct}`;
  if (!liveness.verifier || liveness.verifierFor !== wanted) {
    liveness.verifier = new KeyVerifier({ baseUrls: urls });
    liveness.verifierFor = wanted;
  }
  return liveness.verifier;
}

/** The command: a flagged key at the given place, or at the cursor. Returns the answer (tests read it). */
export async function checkKeyLive(
  liveness: LivenessHost,
  uri?: vscode.Uri,
  range?: vscode.Range,
): Promise<Verification | undefined> {
  if (!uri || !range) {
    const editor = vscode.window.activeTextEditor;
    if (editor) {
      uri = editor.document.uri;
      range = editor.selection;
    }
  }
  const entry = uri && range ? liveness.diagnostics.at(uri, range).find((e) => e.inner === undefined) : undefined;
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
  const baseUrl = baseUrls(liveness)[owner];
  if (!vscode.workspace.isTrusted && baseUrl !== undefined) {
    const send = t('Send and Check');
    const answer = await liveness.dialogs.ask(
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
    () => current(liveness).verify(owner, key, true),
  );
  liveness.diagnostics.reword();
  const said = t('{0} key {1}: {2}', service, entry.finding.masked, verificationText(verification));
  if (verification.status === 'live')
    void vscode.window.showWarningMessage(
      entry.git === 'tracked' ? `${t('Live key in git history: rotate now.')} ${said}` : said,
    );
  else void vscode.window.showInformationMessage(said);
  return verification;
}

/**
 * "Check whether this key is live" on each of Keyward's findings at the cursor whose key its own service can be asked
 * about (keyLiveness.ts offers it).
 */
export function livenessActions(
  diagnostics: KeyDiagnostics,
  document: vscode.TextDocument,
  ours: readonly vscode.Diagnostic[],
): vscode.CodeAction[] {
  return (
    ours
      // The key of a finding inside an archive is not in this text to send; `keyward scan --verify` checks those.
      // Nor is a split or encoded key; and another provider's key is never sent anywhere.
      .filter((d) =>
        diagnostics
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
