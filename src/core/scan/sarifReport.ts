// `keyward scan --format sarif`: SARIF 2.1.0 as GitHub code scanning accepts it. Lines and UTF-16 columns are
// 1-based, end column exclusive; every finding is a result (baseline state and suppressions say which count).
import type { IgnoreProblem } from './ignoreFile.ts';
import { problemText } from './ignoreFile.ts';
import { type TeamRuleProblem, teamProblemText } from './teamRuleProblem.ts';
import {
  type FileFinding,
  type Omitted,
  type Skipped,
  type Triage,
  SKIP_REASONS,
  gitNote,
  hasTeamRuleProblems,
  inBrackets,
  isIncomplete,
  omittedMessage,
  skipMessage,
  toJsonFinding,
} from './report.ts';
import { type FindingRuleId, RULES, type RuleId, isOwnRule } from './rules.ts';

/** "An Anthropic API key", "an xAI API key", "a Groq API key": the article a rule's title takes. */
function article(title: string): string {
  return /^(?:[aeiou]|xAI)/i.test(title) ? 'An' : 'A';
}

/** A rule's description and confidence: Keyward's own from RULES, a team rule's from its findings (teamRules.ts). */
type RuleFacts = (id: FindingRuleId) => { description: string; confidence: 'high' | 'medium' };

function ruleFacts(all: readonly FileFinding[]): RuleFacts {
  const team = new Map<string, string>();
  for (const { finding } of all)
    if (!isOwnRule(finding.ruleId) && !team.has(finding.ruleId)) team.set(finding.ruleId, finding.description);
  return (id) => (isOwnRule(id) ? RULES[id] : { description: team.get(id) ?? id, confidence: 'high' });
}

function sarifRule(id: FindingRuleId, facts: RuleFacts) {
  const { description, confidence } = facts(id);
  const own = isOwnRule(id);
  return {
    id,
    name: id.replace(/(^|[-_.])(\w)/g, (_m, _d: string, c: string) => c.toUpperCase()),
    shortDescription: { text: `Exposed ${description}` },
    fullDescription: {
      text: own
        ? `${article(description)} ${description} appears in the source. Anyone who reads it can spend the account's credit.`
        : `A secret the team rule ${id} (${description}) finds appears in the source.`,
    },
    help: {
      text: 'Rotate the key at the service, delete the old one, and load the key from the environment or a secret store instead.',
    },
    defaultConfiguration: { level: confidence === 'high' ? 'error' : 'warning' },
    properties: {
      tags: ['security', 'secret', ...(own ? [] : ['team-rule'])],
      precision: confidence === 'high' ? 'very-high' : 'medium',
      'security-severity': '9.0',
    },
  };
}

function configLocation(file: string, line: number) {
  return [
    {
      physicalLocation: {
        artifactLocation: { uri: file, uriBaseId: '%SRCROOT%' },
        ...(line > 0 ? { region: { startLine: line } } : {}),
      },
    },
  ];
}

function ignoreNotification(p: IgnoreProblem) {
  return {
    level: 'error',
    descriptor: { id: 'ignore-file-line' },
    message: { text: `${problemText(p)}; this line suppresses nothing.` },
    locations: configLocation(p.file, p.line),
  };
}

/** A team-rule field Keyward does not apply: a warning when it changes what is found, a note when it only describes. */
function teamNotification(p: TeamRuleProblem) {
  return {
    level: p.severity === 'ignored' ? 'note' : p.severity === 'error' ? 'error' : 'warning',
    descriptor: { id: 'team-rule' },
    message: { text: `${teamProblemText(p)}.` },
    locations: configLocation(p.file, p.line),
  };
}

/** Whether the run was whole, what it did not read (skipped, omitted) and the ignore-file lines it refused. */
function sarifInvocation(skipped: readonly Skipped[], omitted: readonly Omitted[], triage: Triage | undefined) {
  const problems = triage?.ignoreFile?.problems ?? [];
  const team = triage?.teamRules?.problems ?? [];
  return {
    executionSuccessful: !isIncomplete(skipped) && problems.length === 0 && !hasTeamRuleProblems(triage),
    // A refused ignore-file line is the repository's configuration, not a file left unread (SARIF 3.20.22).
    ...(problems.length > 0 || team.length > 0
      ? {
          toolConfigurationNotifications: [...problems.map(ignoreNotification), ...team.map(teamNotification)],
        }
      : {}),
    toolExecutionNotifications: [
      ...skipped.map((s) => ({
        level: SKIP_REASONS[s.reason].incomplete ? 'error' : 'note',
        descriptor: { id: s.reason },
        message: { text: `Not scanned: ${skipMessage(s)}.` },
        locations: [{ physicalLocation: { artifactLocation: { uri: s.path, uriBaseId: '%SRCROOT%' } } }],
      })),
      // Counted, not listed: a reader of the SARIF alone must see that there were more, as the JSON says.
      ...omitted.map((o) => ({
        level: 'warning',
        descriptor: { id: 'omitted' },
        message: { text: `${omittedMessage(o)}.` },
        locations: [{ physicalLocation: { artifactLocation: { uri: o.path, uriBaseId: '%SRCROOT%' } } }],
        properties: { count: o.count, confidence: 'medium' },
      })),
    ],
  };
}

function sarifResult(f: FileFinding, ruleIds: readonly FindingRuleId[], facts: RuleFacts) {
  const j = toJsonFinding(f);
  const { description, confidence } = facts(j.ruleId);
  return {
    ruleId: j.ruleId,
    ruleIndex: ruleIds.indexOf(j.ruleId),
    level: confidence === 'high' || j.verification?.status === 'live' ? 'error' : 'warning',
    message: {
      text: `Exposed ${description} ${j.masked}${inBrackets([gitNote(f), f.commit ? `commit ${f.commit}` : ''].filter(Boolean).join(', '))}.`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: j.path, uriBaseId: '%SRCROOT%' },
          region: { startLine: j.line, startColumn: j.column, endLine: j.endLine, endColumn: j.endColumn },
        },
      },
    ],
    partialFingerprints: { 'keyward/v1': j.fingerprint },
    // SARIF 2.1.0 3.27.24: "new" or "unchanged" against the baseline, as GitHub code scanning reads it.
    ...(f.baselineState ? { baselineState: f.baselineState } : {}),
    // 3.35: suppressed outside the source, with the line that did it and its reason.
    ...(f.suppression
      ? {
          suppressions: [
            {
              kind: 'external',
              status: 'accepted',
              justification: f.suppression.reason,
              location: {
                physicalLocation: {
                  artifactLocation: { uri: f.suppression.file, uriBaseId: '%SRCROOT%' },
                  region: { startLine: f.suppression.line },
                },
              },
            },
          ],
        }
      : {}),
    ...(j.verification || j.stopped
      ? {
          properties: {
            ...(j.verification ? { verification: j.verification } : {}),
            ...(j.stopped ? { stopped: j.stopped } : {}),
          },
        }
      : {}),
  };
}

export function sarifReport(
  findings: FileFinding[],
  version: string,
  skipped: readonly Skipped[] = [],
  omitted: readonly Omitted[] = [],
  triage?: Triage,
): string {
  // Every finding is a result: the ones that count, then those the baseline holds, then the suppressed.
  const all = [...findings, ...(triage?.unchanged ?? []), ...(triage?.suppressed ?? [])];
  const used = [...new Set(all.map((f) => f.finding.ruleId))];
  const ruleIds = used.length > 0 ? used : (Object.keys(RULES) as RuleId[]);
  const facts = ruleFacts(all);
  const sarif = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: 'keyward',
            version,
            informationUri: 'https://github.com/keyward/keyward',
            rules: ruleIds.map((id) => sarifRule(id, facts)),
          },
        },
        invocations: [sarifInvocation(skipped, omitted, triage)],
        ...(omitted.length > 0
          ? { properties: { omitted: omitted.reduce((sum, o) => sum + o.count, 0), omittedFiles: omitted.length } }
          : {}),
        columnKind: 'utf16CodeUnits',
        results: all.map((f) => sarifResult(f, ruleIds, facts)),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
