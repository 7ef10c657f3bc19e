// What a key diagnostic says: the key (whose, stored or rotated out, split or encoded), where git stands, what the
// service said of it, and how loud it is. The words of keyDiagnostics.ts, which places them.
import * as vscode from 'vscode';
import type { IgnoredFilesLevel } from '../../core/config.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import type { GitState } from '../../core/scan/gitStatus.ts';
import { isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';
import type { Finding } from '../../core/scan/scanner.ts';
import { ADMIN_RULES, isOwnRule } from '../../core/scan/rules.ts';
import type { Verification } from '../../core/scan/verify.ts';

const t = vscode.l10n.t;

/** The source every Keyward diagnostic names. */
export const DIAGNOSTIC_SOURCE = 'Keyward';

/** Where git stands, or why Keyward did not ask it. */
/** 'refused': a `.git` is there but git refuses the repository (dubious ownership, a damaged HEAD). */
export type FileState = GitState | 'unsaved' | 'restricted' | 'refused';

function gitText(state: FileState): string {
  switch (state) {
    case 'tracked':
      return t('This file is tracked by git: the key is in its history, so rotating the key is the only fix.');
    case 'untracked':
      return t('This file is not ignored by git: the key would be committed.');
    case 'ignored':
      return t('This file is ignored by git.');
    case 'outside':
      return t('This file is not in a git repository.');
    case 'restricted':
      return t(
        'Restricted Mode: Keyward does not run git here, so it cannot tell whether the file is tracked or ignored.',
      );
    case 'refused':
      return t(
        "Git refuses this file's repository (not owned by you: safe.directory; or damaged), so Keyward cannot tell whether the file is tracked: treat the key as committed.",
      );
    default:
      return t('This file is not saved yet.');
  }
}

function severity(
  state: FileState,
  ignoredLevel: IgnoredFilesLevel,
  live: boolean,
  admin = false,
): vscode.DiagnosticSeverity | undefined {
  // A repository git refuses may track the file: as loud as a tracked one. An admin key manages the whole
  // organization (its keys, projects, costs): no file is a place for it, git-ignored or not.
  if (state === 'tracked' || state === 'refused' || admin) return vscode.DiagnosticSeverity.Error;
  // A live key in an ignored file (a .env) is where keys belong; anywhere else it is an error.
  if (live && state !== 'ignored') return vscode.DiagnosticSeverity.Error;
  if (state === 'ignored') return ignoredLevel === 'off' ? undefined : vscode.DiagnosticSeverity.Information;
  return vscode.DiagnosticSeverity.Warning;
}

/** How loud a finding is where it is: a live key, the stored key and an admin key are loudest. */
export function findingSeverity(
  finding: Finding,
  state: FileState,
  ignoredLevel: IgnoredFilesLevel,
  verification: Verification | undefined,
): vscode.DiagnosticSeverity | undefined {
  // The key stored in Keyward is the one every prompt sends: it works, so it is graded as a live key is.
  const live = verification?.status === 'live' || finding.stored === 'active';
  return severity(state, ignoredLevel, live, ADMIN_RULES.has(finding.ruleId));
}

export function describeFinding(finding: Finding): string {
  const described = describeKey(finding);
  if (finding.ruleId === 'split-key') return `${described} ${t('It is assembled from string pieces.')}`;
  if (finding.ruleId === 'encoded-key') return `${described} ${t('It is encoded in base64 here.')}`;
  return described;
}

function describeKey(finding: Finding): string {
  const owner = finding.service;
  // A team rule's own finding (a team key in base64 is Keyward's encoded-key finding, said as any other owner's).
  if (owner === 'team' && !isOwnRule(finding.ruleId))
    return t("A secret your team's rule {0} finds ({1}), {2}.", finding.ruleId, finding.description, finding.masked);
  // Another provider's key: named by its owner; Keyward stores no such key.
  if (!isServiceOwner(owner))
    return finding.confidence === 'high'
      ? t('A key of {0}, {1}.', ownerName(owner), finding.masked)
      : t('Probably a key of {0}, {1}.', ownerName(owner), finding.masked);
  const service = SERVICE_NAMES[owner];
  if (finding.ruleId === 'direct-admin-key')
    return t(
      'An admin key of the {0}, {1}: it manages the organization (its keys, projects and costs) and belongs in no file. Delete it at the service and create a new one.',
      service,
      finding.masked,
    );
  if (finding.ruleId === 'router-management-key')
    return t(
      'Your {0} management key {1}, the one stored in Keyward: it creates, limits and deletes keys that spend the balance, and belongs in no file. Delete it at the service, create a new one and add it to Keyward again.',
      service,
      finding.masked,
    );
  if (finding.stored === 'active') return t('Your {0} key {1}, the one stored in Keyward.', service, finding.masked);
  if (finding.stored === 'retired')
    return t(
      'A {0} key Keyward rotated out, {1}: it works until it is deleted at the service.',
      service,
      finding.masked,
    );
  return finding.confidence === 'high'
    ? t('A {0} key, {1}.', service, finding.masked)
    : t('Probably a {0} key, {1}.', service, finding.masked);
}

export function message(
  finding: Finding,
  state: FileState,
  verification: Verification | undefined,
  where: string | undefined,
): string {
  const found = `${describeFinding(finding)} ${gitText(state)}`;
  // An inner file cannot be opened as a document: the message names it as `keyward scan` does.
  const text = where === undefined ? found : `${where}:${finding.line + 1}:${finding.column + 1}: ${found}`;
  switch (verification?.status) {
    case undefined:
      return text;
    case 'live':
      return state === 'tracked'
        ? `${t('Live key in git history: rotate now.')} ${text}`
        : `${text} ${t('The service says the key is live.')}`;
    case 'inactive':
      return `${text} ${t('The service refused the key: it is no longer live.')}`;
    case 'unknown':
      return `${text} ${t('Whether the key is live is unknown: {0}', verification.reason)}`;
  }
}

/** A key moved out of a file git tracks: still in its history until rotated. */
export function committedMessage(key: { service: keyof typeof SERVICE_NAMES; masked: string }, live: boolean): string {
  const text = t(
    "The {0} key {1} was moved out of this file, but git has it in this file's history: rotate it (it works until it is deleted at the service).",
    SERVICE_NAMES[key.service],
    key.masked,
  );
  return live ? `${t('Live key in git history: rotate now.')} ${text}` : text;
}

/** A document over the size cap, named instead of passing for clean. */
export function notScannedMessage(bytes: number, capKb: number): string {
  return t(
    'Keyward did not scan this file for keys: it is {0} KB, over keyward.scan.maxFileSizeKb ({1} KB). Run keyward scan on it, or raise the setting.',
    String(Math.ceil(bytes / 1024)),
    String(capKb),
  );
}
