// The scan report formats of `keyward scan`: text, the JSON contract, and
// SARIF 2.1.0 as GitHub code scanning accepts it. Lines and UTF-16 columns are
// 1-based there, end column exclusive.
import type { Finding } from './scanner.ts';
import { RULES, type RuleId } from './rules.ts';

export type GitField = 'tracked' | 'untracked' | 'ignored' | 'outside' | 'staged' | 'history' | 'unknown';

export interface FileFinding {
  path: string;
  finding: Finding;
  git: GitField;
  commit?: string;
}

export interface JsonFinding {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  ruleId: RuleId;
  service: string;
  masked: string;
  fingerprint: string;
  git: GitField;
  commit?: string;
}

export function toJsonFinding({ path, finding, git, commit }: FileFinding): JsonFinding {
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
  };
}

export function jsonReport(findings: FileFinding[]): string {
  return JSON.stringify({ version: 1, findings: findings.map(toJsonFinding) }, null, 2) + '\n';
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

export function textReport(findings: FileFinding[]): string {
  if (findings.length === 0) return 'keyward scan: no keys found\n';
  const lines = findings.map((f) => {
    const j = toJsonFinding(f);
    return `${j.path}:${j.line}:${j.column}: ${RULES[j.ruleId].description} ${j.masked}${f.commit ? ` in commit ${f.commit.slice(0, 12)}` : ''} (${GIT_TEXT[f.git]})`;
  });
  return `${lines.join('\n')}\nkeyward scan: ${findings.length} key${findings.length === 1 ? '' : 's'} found\n`;
}

export function sarifReport(findings: FileFinding[], version: string): string {
  const used = [...new Set(findings.map((f) => f.finding.ruleId))];
  const ruleIds = used.length > 0 ? used : (Object.keys(RULES) as RuleId[]);
  const sarif = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [{
      tool: {
        driver: {
          name: 'keyward',
          version,
          informationUri: 'https://github.com/keyward/keyward',
          rules: ruleIds.map((id) => ({
            id,
            name: id.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase()),
            shortDescription: { text: `Exposed ${RULES[id].description}` },
            fullDescription: { text: `A ${RULES[id].description} appears in the source. Anyone who reads it can spend the account's credit.` },
            help: { text: 'Rotate the key at the service, delete the old one, and load the key from the environment or a secret store instead.' },
            defaultConfiguration: { level: RULES[id].confidence === 'high' ? 'error' : 'warning' },
            properties: { tags: ['security', 'secret'], precision: RULES[id].confidence === 'high' ? 'very-high' : 'medium', 'security-severity': '9.0' },
          })),
        },
      },
      columnKind: 'utf16CodeUnits',
      results: findings.map((f) => {
        const j = toJsonFinding(f);
        return {
          ruleId: j.ruleId,
          ruleIndex: ruleIds.indexOf(j.ruleId),
          level: RULES[j.ruleId].confidence === 'high' ? 'error' : 'warning',
          message: { text: `Exposed ${RULES[j.ruleId].description} ${j.masked} (${GIT_TEXT[f.git]}${f.commit ? `, commit ${f.commit}` : ''}).` },
          locations: [{ physicalLocation: { artifactLocation: { uri: j.path, uriBaseId: '%SRCROOT%' }, region: { startLine: j.line, startColumn: j.column, endLine: j.endLine, endColumn: j.endColumn } } }],
          partialFingerprints: { 'keyward/v1': j.fingerprint },
        };
      }),
    }],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
