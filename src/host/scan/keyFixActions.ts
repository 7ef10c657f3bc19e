// The quick fixes a flagged key offers (keyFixes.ts registers the provider): rotate it, move it to .env, store it in
// Keyward, ignore the file in git or the line. Loaded with the other on-demand commands (onDemandCommands.ts,
// dist/commands.js) when the cursor first rests on one of Keyward's findings, so that activation does not parse them
// (bench/bundle.ts).
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import {
  ENV_VAR,
  INDIRECT_RULES,
  continuesInValue,
  envReplacement,
  ignoreComment,
  ignoreNextLine,
  isDotenvFile,
} from '../../core/scan/fixes.ts';
import { COMMITTED_KEY_CODE } from './committedKeys.ts';
import type { Configuration } from '../configuration.ts';
import type { KeyDiagnostics } from './keyDiagnostics.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';
import { PROVIDERS, isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';
import { FixCommand } from './fixCommands.ts';

const t = vscode.l10n.t;

/** The fixes of Keyward's own diagnostics (`ours`) in a document. */
export function keyFixActions(
  diagnostics: KeyDiagnostics,
  configuration: Configuration,
  document: vscode.TextDocument,
  ours: readonly vscode.Diagnostic[],
  /** Whether a management or admin key of the service is stored (then a found key can be stopped from here). */
  managed: (service: ServiceId) => boolean = () => false,
): vscode.CodeAction[] {
  const actions: vscode.CodeAction[] = [];
  // Restricted Mode: no fix that writes a file or stores a key, only the way to rotate it.
  const trusted = vscode.workspace.isTrusted;
  for (const diagnostic of ours) {
    if (diagnostic.code === COMMITTED_KEY_CODE) {
      // A key moved out of a tracked file: only rotating it ends the finding.
      for (const moved of diagnostics.committedAt(document.uri, diagnostic.range)) {
        const rotate = rotateAction(configuration, moved.service, moved.storedAtMove === moved.fingerprint);
        rotate.diagnostics = [diagnostic];
        rotate.isPreferred = true;
        actions.push(rotate);
      }
      continue;
    }
    const entry = diagnostics.at(document.uri, diagnostic.range)[0];
    // A key inside an archive or a source map's sources is not in this text: nothing here can edit it.
    if (!entry || entry.inner !== undefined) continue;
    actions.push(...fixesFor(configuration, document, diagnostic, entry, trusted));
    const stop = stopAction(document, entry, managed);
    if (!stop) continue;
    stop.diagnostics = [diagnostic];
    // Stopping the key comes first and is the one preferred: a leak is stopped before it is tidied.
    for (const action of actions) action.isPreferred = false;
    actions.unshift(stop);
  }
  return actions;
}

/** One finding's fixes; in a tracked file rotating comes first and is the one preferred. */
function fixesFor(
  configuration: Configuration,
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
  const own = trusted ? [...writingFixes(document, entry, make), ...ignoreFix(document, entry, make)] : [];
  const service = entry.finding.service;
  let rotate: vscode.CodeAction;
  if (isServiceOwner(service)) rotate = rotateAction(configuration, service, entry.finding.stored === 'active');
  // A team rule's key: Keyward knows no page where it is rotated.
  else if (service === 'team') return own;
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
function writingFixes(document: vscode.TextDocument, entry: Entry, make: MakeAction): vscode.CodeAction[] {
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

/**
 * Disable now (or Delete now, where the service cannot disable): a key found in a file, not the one Keyward uses,
 * stopped at its service with the stored management or admin key. First: a leak is stopped before it is tidied.
 */
function stopAction(
  document: vscode.TextDocument,
  entry: Entry,
  managed: (service: ServiceId) => boolean,
): vscode.CodeAction | undefined {
  const service = entry.finding.service;
  if (!isServiceOwner(service) || !managed(service) || entry.finding.stored === 'active') return undefined;
  if (INDIRECT_RULES.has(entry.finding.ruleId)) return undefined;
  const title = SERVICES[service].accountKey?.canDisable
    ? t('Disable this key now at the {0}', SERVICE_NAMES[service])
    : t('Delete this key now at the {0}…', SERVICE_NAMES[service]);
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.isPreferred = true;
  action.command = { title, command: FixCommand.stopKey, arguments: [document.uri, entry.range] };
  return action;
}

/** Rotating a key: Keyward's own Rotate for the stored key, else the service's key page. */
function rotateAction(configuration: Configuration, service: ServiceId, stored: boolean): vscode.CodeAction {
  const rotate = new vscode.CodeAction(
    t('Rotate this key at the {0}', SERVICE_NAMES[service]),
    vscode.CodeActionKind.QuickFix,
  );
  rotate.isPreferred = false;
  const keysPage = pagesOf(configuration.value, service).keys;
  rotate.command =
    stored || keysPage === null
      ? { title: rotate.title, command: SERVICES[service].commands.rotateKey }
      : { title: rotate.title, command: 'vscode.open', arguments: [vscode.Uri.parse(keysPage)] };
  return rotate;
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
  // A key continued inside a value over lines: neither a comment after its first line nor a line above it is sure to
  // stay out of the value (a TOML multi-line string, a paragraph), so the ignore file is the way to set it aside.
  if (!comment || (entry.range.end.line > lineNumber && continuesInValue(line))) return [];
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
