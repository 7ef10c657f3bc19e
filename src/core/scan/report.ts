// The scan report formats of `keyward scan`: text and the JSON contract (SARIF is sarifReport.ts). Lines and UTF-16
// columns are 1-based there, end column exclusive.
import type { Finding } from './scanner.ts';
import { type FindingRuleId, RULES, isOwnRule } from './rules.ts';
import type { Verification } from './verify.ts';
import type { KeyStop } from '../keys/stopFoundKeys.ts';
import { type IgnoreProblem, type Suppression, problemText } from './ignoreFile.ts';
import { type TeamRuleProblem, teamProblemText } from './teamRuleProblem.ts';

export type GitField = 'tracked' | 'untracked' | 'ignored' | 'outside' | 'staged' | 'history' | 'unknown';

export interface FileFinding {
  path: string;
  finding: Finding;
  git: GitField;
  commit?: string;
  /** The commit's subject line, redacted (history scans only; not part of the JSON contract). */
  subject?: string;
  /** What the key's service said, with `--verify` only. */
  verification?: Verification;
  /** The .keywardignore line that covers it: reported as suppressed, never counted. */
  suppression?: Suppression;
  /** What `--fix-disable` did to the key at its account. */
  stopped?: KeyStop;
  /** With `--baseline`: whether the baseline already held this key in this file. */
  baselineState?: 'new' | 'unchanged';
}

/**
 * What a baseline and an ignore file did to a scan's findings. `findings`
 * elsewhere are the ones that count (new, not suppressed); these are shown too.
 */
export interface Triage {
  suppressed: readonly FileFinding[];
  unchanged: readonly FileFinding[];
  /** The baseline file given with `--baseline`. */
  baseline?: string;
  /** The ignore file read, and the lines of it that were refused. */
  ignoreFile?: { file: string; problems: readonly IgnoreProblem[] };
  /** The team rules read (.keyward.toml or --config), how many, and what in them is not supported. */
  teamRules?: { file: string; count: number; problems: readonly TeamRuleProblem[] };
}

/** A team-rule field that changes what is found and is not supported: the config did not run as written. */
export function hasTeamRuleProblems(triage: Triage | undefined): boolean {
  return triage?.teamRules?.problems.some((p) => p.severity !== 'ignored') ?? false;
}

/** Each team-rule problem, a line of stderr. */
export function teamRuleProblemsText(triage: Triage | undefined): string {
  return (triage?.teamRules?.problems ?? [])
    .map((p) => `keyward scan: ${printablePath(teamProblemText(p))}\n`)
    .join('');
}

/** A refused ignore-file line, like a path not scanned, makes the exit status 2 when no key counts. */
export function hasIgnoreProblems(triage: Triage | undefined): boolean {
  return (triage?.ignoreFile?.problems.length ?? 0) > 0;
}

/** Why a path was not scanned; `incomplete` ones make the scan exit 2 when no key was found. */
export type SkipReason =
  | 'unreadable'
  | 'unreadable-folder'
  | 'too-large'
  | 'special-file'
  | 'folder'
  | 'symlink'
  | 'folder-symlink'
  | 'broken-symlink'
  | 'submodule'
  | 'submodule-not-checked-out'
  | 'excluded-folder'
  | 'missing'
  | 'unmerged'
  | 'archive-limit'
  | 'archive-too-deep'
  | 'archive-unreadable'
  | 'shallow-history'
  | 'grafted-history'
  | 'not-fetched'
  | 'history-stopped'
  | 'git-refused'
  | 'archive-unsupported';

export const SKIP_REASONS = {
  unreadable: { incomplete: true, text: 'could not be read' },
  'unreadable-folder': { incomplete: true, text: 'folder could not be read' },
  'too-large': { incomplete: true, text: 'larger than --max-size' },
  'special-file': { incomplete: false, text: 'not a regular file (FIFO, socket or device); not read' },
  folder: { incomplete: false, text: 'a folder where a file was expected' },
  symlink: { incomplete: false, text: 'symlink: git commits the link, not what it points to' },
  'folder-symlink': { incomplete: false, text: 'symlink to a folder, not followed' },
  'broken-symlink': { incomplete: false, text: 'symlink to nothing' },
  submodule: { incomplete: false, text: 'submodule: a separate repository; run keyward scan --staged inside it' },
  'submodule-not-checked-out': { incomplete: false, text: 'submodule not checked out: nothing to read' },
  'excluded-folder': { incomplete: false, text: 'skipped by default; --include-dir NAME scans it' },
  missing: { incomplete: false, text: 'tracked but missing from the working tree; --history scans what was committed' },
  unmerged: { incomplete: false, text: 'unmerged (a conflict to resolve): git refuses to commit it as it is' },
  'archive-limit': {
    incomplete: true,
    text: 'not unpacked: past a limit on entries, unpacked bytes or compression ratio',
  },
  'archive-too-deep': { incomplete: true, text: 'an archive nested too deep: not unpacked' },
  'archive-unreadable': { incomplete: true, text: 'could not be unpacked' },
  'shallow-history': {
    incomplete: true,
    text: 'history is cut short (a shallow clone): older commits were not scanned; run git fetch --unshallow',
  },
  'grafted-history': {
    incomplete: true,
    text: 'history is rewritten by a graft file (.git/info/grafts): commits it hides were not scanned; remove it, or run git replace --convert-graft-file',
  },
  'not-fetched': {
    incomplete: true,
    text: 'in history but never fetched (a partial clone): not scanned; scan a full clone, or fetch it with git fetch --refetch after git config --unset remote.origin.partialclonefilter',
  },
  'history-stopped': {
    incomplete: true,
    text: 'git log stopped at an object it does not have: later commits were not scanned',
  },
  'git-refused': {
    incomplete: true,
    text: 'git refuses this repository, so what it tracks is unknown: read as a plain folder (skipped folders may hold tracked files)',
  },
  'archive-unsupported': { incomplete: true, text: 'compressed in a format Keyward cannot open: not scanned' },
} as const satisfies Record<SkipReason, { incomplete: boolean; text: string }>;

export interface Skipped {
  path: string;
  reason: SkipReason;
  /** What the system said (an error code), when there is more to say than the reason. */
  detail?: string;
}

/** A file where medium-confidence findings past the cap were counted, not listed. */
export interface Omitted {
  path: string;
  count: number;
}

export interface JsonOmitted {
  path: string;
  count: number;
  confidence: 'medium';
  message: string;
}

export function omittedMessage(o: Omitted): string {
  return `${o.count} more probable key${o.count === 1 ? '' : 's'} (medium confidence) not listed: a file of many near-misses is summarised`;
}

export function toJsonOmitted(o: Omitted): JsonOmitted {
  return { path: o.path, count: o.count, confidence: 'medium', message: omittedMessage(o) };
}

/** The lines for stdout that say where findings were counted rather than listed. */
export function omittedText(omitted: readonly Omitted[]): string {
  return omitted.map((o) => `${printablePath(o.path)}: ${omittedMessage(o)}\n`).join('');
}

export interface JsonSkipped {
  path: string;
  reason: SkipReason;
  message: string;
  incomplete: boolean;
}

export function skipMessage(skip: Skipped): string {
  return SKIP_REASONS[skip.reason].text + (skip.detail ? ` (${skip.detail})` : '');
}

export function toJsonSkipped(skip: Skipped): JsonSkipped {
  return {
    path: skip.path,
    reason: skip.reason,
    message: skipMessage(skip),
    incomplete: SKIP_REASONS[skip.reason].incomplete,
  };
}

/** Whether something that should have been read was not: exit 2 unless keys were found. */
export function isIncomplete(skipped: readonly Skipped[]): boolean {
  return skipped.some((s) => SKIP_REASONS[s.reason].incomplete);
}

/** A path for a line of text: control characters (a newline in a file name) cannot forge output lines. */
export function printablePath(path: string): string {
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

export interface JsonFinding {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  ruleId: FindingRuleId;
  service: string;
  masked: string;
  fingerprint: string;
  git: GitField;
  commit?: string;
  verification?: Verification;
  baselineState?: 'new' | 'unchanged';
  suppression?: Suppression;
  stopped?: KeyStop;
}

export function toJsonFinding({
  path,
  finding,
  git,
  commit,
  verification,
  baselineState,
  suppression,
  stopped,
}: FileFinding): JsonFinding {
  return {
    path,
    line: finding.line + 1,
    column: finding.column + 1,
    endLine: finding.endLine + 1,
    endColumn: finding.endColumn + 1,
    ruleId: finding.ruleId,
    service: finding.service,
    masked: finding.masked,
    fingerprint: finding.fingerprint,
    git,
    ...(commit ? { commit } : {}),
    ...(verification
      ? {
          verification: {
            status: verification.status,
            reason: verification.reason,
            ...(verification.checkedAt ? { checkedAt: verification.checkedAt } : {}),
          },
        }
      : {}),
    ...(baselineState ? { baselineState } : {}),
    ...(suppression ? { suppression } : {}),
    ...(stopped ? { stopped } : {}),
  };
}

/** The JSON fields a baseline or an ignore file adds; none without them. */
function jsonTriage(findings: readonly FileFinding[], triage: Triage | undefined): Record<string, unknown> {
  if (!triage) return {};
  return {
    ...(triage.ignoreFile || triage.suppressed.length > 0 ? { suppressed: triage.suppressed.map(toJsonFinding) } : {}),
    ...(triage.ignoreFile
      ? {
          ignoreFile: {
            path: triage.ignoreFile.file,
            problems: triage.ignoreFile.problems.map((p) => ({ line: p.line, message: p.message })),
          },
        }
      : {}),
    ...(triage.teamRules
      ? {
          teamRules: {
            path: triage.teamRules.file,
            rules: triage.teamRules.count,
            problems: triage.teamRules.problems.map(({ line, severity, message }) => ({ line, severity, message })),
          },
        }
      : {}),
    ...(triage.baseline !== undefined
      ? {
          baseline: { path: triage.baseline, new: findings.length, unchanged: triage.unchanged.length },
          unchanged: triage.unchanged.map(toJsonFinding),
        }
      : {}),
  };
}

export function jsonReport(
  findings: FileFinding[],
  skipped: readonly Skipped[] = [],
  omitted: readonly Omitted[] = [],
  triage?: Triage,
): string {
  return (
    JSON.stringify(
      {
        version: 1,
        findings: findings.map(toJsonFinding),
        skipped: skipped.map(toJsonSkipped),
        complete: !isIncomplete(skipped),
        ...(omitted.length > 0 ? { omitted: omitted.map(toJsonOmitted) } : {}),
        ...jsonTriage(findings, triage),
      },
      null,
      2,
    ) + '\n'
  );
}

const GIT_TEXT: Record<GitField, string> = {
  tracked: 'tracked by git: the key is in history; rotate it',
  untracked: 'not ignored: it would be committed',
  ignored: 'ignored by git',
  outside: 'not in a git repository',
  staged: 'staged for commit',
  history: 'in git history: rotate it',
  unknown: '',
};

/** A live key that git already holds can only be rotated: said first, in words that stand out. */
export function inGitHistory(f: FileFinding): boolean {
  return f.verification?.status === 'live' && (f.git === 'tracked' || f.git === 'history');
}

const LIVE_IN_HISTORY = 'live key in git history: rotate now';

export function gitNote(f: FileFinding): string {
  if (inGitHistory(f)) return `${LIVE_IN_HISTORY}; ${f.verification!.reason}`;
  const verified = f.verification ? `${f.verification.status}: ${f.verification.reason}` : '';
  return [GIT_TEXT[f.git], verified, stoppedNote(f.stopped)].filter(Boolean).join('; ');
}

/** What --fix-disable did, for the finding's line: the listed key it disabled, or why it did not. */
function stoppedNote(stop: KeyStop | undefined): string {
  if (!stop) return '';
  const key = stop.key ? `${stop.key.name} ${stop.key.shown} ` : '';
  if (stop.status === 'disabled' || stop.status === 'disabled_already') return `${key}${stop.reason}`;
  const candidates = stop.candidates?.map((c) => `${c.name} ${c.shown} id ${c.id}`).join(', ');
  return `not disabled: ${stop.reason}${candidates ? ` (${candidates})` : ''}`;
}

/** " (note)" after a finding, or nothing when there is nothing to say (git not asked, no --verify). */
export function inBrackets(note: string): string {
  return note === '' ? '' : ` (${note})`;
}

/** The lines for stderr that name every path not scanned. */
export function skippedText(skipped: readonly Skipped[]): string {
  return skipped
    .map(
      (s) =>
        `keyward scan: ${SKIP_REASONS[s.reason].incomplete ? 'NOT SCANNED' : 'skipped'}: ${printablePath(s.path)}: ${skipMessage(s)}\n`,
    )
    .join('');
}

function findingLine(f: FileFinding, note: string): string {
  const j = toJsonFinding(f);
  return `${printablePath(j.path)}:${j.line}:${j.column}: ${isOwnRule(j.ruleId) ? RULES[j.ruleId].description : f.finding.description} ${j.masked}${f.commit ? ` in commit ${f.commit.slice(0, 12)}` : ''}${inBrackets(note)}`;
}

/** "suppressed by .keywardignore:3: reason": where, so a reader can undo it. */
export function suppressionText(s: Suppression): string {
  return `suppressed by ${s.file}:${s.line}: ${s.reason}`;
}

/** The end of the summary line: what the ignore file and the baseline set aside, counted. */
function triageSummary(triage: Triage | undefined): string {
  if (!triage) return '';
  const suppressed = triage.suppressed.length;
  const parts = [
    ...(suppressed > 0 || triage.ignoreFile
      ? [`${suppressed} suppressed by ${triage.ignoreFile?.file ?? '.keywardignore'}`]
      : []),
    ...(triage.baseline !== undefined
      ? [`${triage.unchanged.length} unchanged since the baseline ${printablePath(triage.baseline)}`]
      : []),
  ];
  return parts.map((p) => `; ${p}`).join('');
}

/** The lines for stderr that name every ignore-file line refused. */
export function ignoreProblemsText(triage: Triage | undefined): string {
  return (triage?.ignoreFile?.problems ?? [])
    .map((p) => `keyward scan: ${printablePath(problemText(p))}; this line suppresses nothing\n`)
    .join('');
}

export function textReport(findings: FileFinding[], skipped: readonly Skipped[] = [], triage?: Triage): string {
  const missed = skipped.filter((s) => SKIP_REASONS[s.reason].incomplete).length;
  const unscanned =
    missed > 0 ? `; ${missed} path${missed === 1 ? '' : 's'} could not be scanned (named on stderr)` : '';
  const aside = triageSummary(triage);
  // Shown, not hidden: each suppressed finding with the line that suppressed it.
  const suppressedLines = (triage?.suppressed ?? []).map((f) => `${findingLine(f, suppressionText(f.suppression!))}\n`);
  const none = triage?.baseline !== undefined ? 'no new keys found' : 'no keys found';
  if (findings.length === 0)
    return (
      suppressedLines.join('') +
      (missed > 0
        ? `keyward scan: ${none} in what could be read${unscanned}${aside}\n`
        : `keyward scan: ${none}${aside}\n`)
    );
  const lines = findings.map((f) => findingLine(f, gitNote(f)));
  const found = `${findings.length}${triage?.baseline !== undefined ? ' new' : ''} key${findings.length === 1 ? '' : 's'} found`;
  return `${lines.join('\n')}\n${suppressedLines.join('')}keyward scan: ${found}${unscanned}${aside}\n`;
}
