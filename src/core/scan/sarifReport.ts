// `keyward scan --format sarif`: SARIF 2.1.0 as GitHub code scanning accepts it. Lines and UTF-16 columns are
// 1-based, end column exclusive; every finding is a result (baseline state and suppressions say which count).
import type { IgnoreProblem } from './ignoreFile.ts';
import { problemText } from './ignoreFile.ts';
import {
  type FileFinding,
  type Omitted,
  type Skipped,
  type Triage,
  SKIP_REASONS,
  gitNote,
  inBrackets,
  isIncomplete,
  omittedMessage,
  skipMessage,
  toJsonFinding,
} from './report.ts';
import { RULES, type RuleId } from './rules.ts';

/** "An Anthropic API key", "an xAI API key", "a Groq API key": the article a rule's title takes. */
function article(title: string): string {
  return /^(?:[aeiou]|xAI)/i.test(title) ? 'An' : 'A';
}

function sarifRule(id: RuleId) {
  return {
    id,
    name: id.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase()),
    shortDescription: { text: `Exposed ${RULES[id].description}` },
    fullDescription: {
      text: `${article(RULES[id].description)} ${RULES[id].description} appears in the source. Anyone who reads it can spend the account's credit.`,
    },
    help: {
      text: 'Rotate the key at the service, delete the old one, and load the key from the environment or a secret store instead.',
    },
    defaultConfiguration: { level: RULES[id].confidence === 'high' ? 'error' : 'warning' },
    properties: {
      tags: ['security', 'secret'],
      precision: RULES[id].confidence === 'high' ? 'very-high' : 'medium',
      'security-severity': '9.0',
    },
  };
}

/** Whether the run was whole, what it did not read (skipped, omitted) and the ignore-file lines it refused. */
function sarifInvocation(skipped: readonly Skipped[], omitted: readonly Omitted[], problems: readonly IgnoreProblem[]) {
  return {
    executionSuccessful: !isIncomplete(skipped) && problems.length === 0,
    // A refused ignore-file line is the repository's configuration, not a file left unread (SARIF 3.20.22).
    ...(problems.length > 0
      ? {
          toolConfigurationNotifications: problems.map((p) => ({
            level: 'error',
            descriptor: { id: 'ignore-file-line' },
            message: { text: `${problemText(p)}; this line suppresses nothing.` },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: p.file, uriBaseId: '%SRCROOT%' },
                  ...(p.line > 0 ? { region: { startLine: p.line } } : {}),
                },
              },
            ],
          })),
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

function sarifResult(f: FileFinding, ruleIds: readonly RuleId[]) {
  const j = toJsonFinding(f);
  return {
    ruleId: j.ruleId,
    ruleIndex: ruleIds.indexOf(j.ruleId),
    level: RULES[j.ruleId].confidence === 'high' || j.verification?.status === 'live' ? 'error' : 'warning',
    message: {
      text: `Exposed ${RULES[j.ruleId].description} ${j.masked}${inBrackets([gitNote(f), f.commit ? `commit ${f.commit}` : ''].filter(Boolean).join(', '))}.`,
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
            rules: ruleIds.map(sarifRule),
          },
        },
        invocations: [sarifInvocation(skipped, omitted, triage?.ignoreFile?.problems ?? [])],
        ...(omitted.length > 0
          ? { properties: { omitted: omitted.reduce((sum, o) => sum + o.count, 0), omittedFiles: omitted.length } }
          : {}),
        columnKind: 'utf16CodeUnits',
        results: all.map((f) => sarifResult(f, ruleIds)),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
