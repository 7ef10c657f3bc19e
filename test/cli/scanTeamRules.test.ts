// Team rules through the CLI as a team meets them: .keyward.toml at the repository root (or a gitleaks.toml given
// with --config) finds the team's own key shapes in a scan, the installed pre-commit hook and --history; the findings
// go to text, JSON and SARIF (rule metadata from the rule's id and description), baselines and .keywardignore like
// Keyward's own; a bad rule stops the scan naming its file and line; an unsupported field is named and keeps a clean
// scan from exit 0. Tokens are generated here, never committed.
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { CLI, type Repo, cliCacheHome, makeRepo, scanCli, tempDir } from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';
import { sarifValidator } from './sarifSchema.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const gatewayToken = () => `acme_gw_${[...randomBytes(32)].map((b) => ALNUM[b % ALNUM.length]).join('')}`;

const RULES = `# ACME's own tokens
[[rules]]
id = "acme-gateway"
description = "ACME gateway token"
regex = '''acme_gw_[A-Za-z0-9]{32}'''
keywords = ["acme_gw_"]
`;

interface Report {
  findings: { path: string; line: number; ruleId: string; service: string; fingerprint: string; masked: string }[];
  suppressed?: { path: string; suppression: { line: number } }[];
  unchanged?: { path: string }[];
  teamRules?: { path: string; rules: number; problems: { line: number; severity: string; message: string }[] };
}
const report = (stdout: string) => JSON.parse(stdout) as Report;

function withToken(rules = RULES): { repo: Repo; token: string } {
  const repo = makeRepo();
  const token = gatewayToken();
  if (rules) repo.write('.keyward.toml', rules);
  repo.write('src/gateway.ts', `export const gateway = "${token}";\n`);
  return { repo, token };
}

describe('.keyward.toml in keyward scan', () => {
  it('finds the team token: exit 1, the rule id and service "team" in JSON, the description in text', () => {
    const { repo, token } = withToken();
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    const r = report(run.stdout);
    expect(r.findings).toMatchObject([
      { path: 'src/gateway.ts', line: 1, ruleId: 'acme-gateway', service: 'team', fingerprint: fingerprint(token) },
    ]);
    expect(run.stdout).not.toContain(token);
    expect(r.teamRules).toEqual({ path: '.keyward.toml', rules: 1, problems: [] });
    const text = scanCli(join(repo.dir, 'src'), []);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(
      /^gateway\.ts:1:25: ACME gateway token acm…\w{4} \(not ignored: it would be committed\)$/m,
    );
    // The same tree with no rules file is clean: the rule is what finds it.
    repo.write('.keyward.toml', '');
    expect(scanCli(repo.dir, []).status).toBe(0);
  });

  it('SARIF: the rule is described from its id and description, and the log is valid SARIF 2.1.0', () => {
    const { repo } = withToken();
    const run = scanCli(repo.dir, ['--format', 'sarif']);
    expect(run.status).toBe(1);
    const log = JSON.parse(run.stdout) as {
      runs: {
        tool: { driver: { rules: { id: string; name: string; shortDescription: { text: string } }[] } };
        results: { ruleId: string; ruleIndex: number; level: string }[];
      }[];
    };
    const validate = sarifValidator();
    expect([validate(log), validate.errors ?? []]).toEqual([true, []]);
    expect(log.runs[0]!.tool.driver.rules).toMatchObject([
      { id: 'acme-gateway', name: 'AcmeGateway', shortDescription: { text: 'Exposed ACME gateway token' } },
    ]);
    expect(log.runs[0]!.results).toMatchObject([{ ruleId: 'acme-gateway', ruleIndex: 0, level: 'error' }]);
  });

  it('a baseline holds a team finding as unchanged, and .keywardignore suppresses one by fingerprint', () => {
    const { repo, token } = withToken();
    expect(scanCli(repo.dir, ['--write-baseline', 'keys.baseline.json']).status).toBe(0);
    const held = scanCli(repo.dir, ['--baseline', 'keys.baseline.json', '--format', 'json']);
    expect(held.status).toBe(0);
    expect(report(held.stdout).unchanged!.map((f) => f.path)).toEqual(['src/gateway.ts']);
    repo.write('.keywardignore', `${fingerprint(token)}  the staging gateway, revoked\n`);
    const ignored = scanCli(repo.dir, ['--format', 'json']);
    expect(ignored.status).toBe(0);
    expect(report(ignored.stdout).suppressed!.map((f) => [f.path, f.suppression.line])).toEqual([
      ['src/gateway.ts', 1],
    ]);
  });

  it('the installed pre-commit hook and --history run the rules too', () => {
    const { repo } = withToken();
    repo.git('add', '.keyward.toml');
    repo.git('commit', '-q', '-m', 'rules');
    const env = { PATH: hookPath(keywardBinDir()), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() };
    expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo.dir, encoding: 'utf8', env }).status).toBe(0);
    repo.git('add', 'src/gateway.ts');
    const commit = spawnSync(
      'git',
      ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'],
      {
        cwd: repo.dir,
        encoding: 'utf8',
        env,
      },
    );
    expect(commit.status).toBe(1);
    expect(commit.stdout + commit.stderr).toMatch(/src\/gateway\.ts:1:\d+: ACME gateway token/);
    repo.git('commit', '-q', '--no-verify', '-m', 'gateway');
    const history = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(history.status).toBe(1);
    expect(report(history.stdout).findings.map((f) => f.ruleId)).toEqual(['acme-gateway']);
  });
});

describe('a bad rule or an unsupported field', () => {
  it('a bad rule stops the scan: each is named with file and line, exit 2, nothing scanned', () => {
    const { repo } = withToken(
      `${RULES}\n[[rules]]\nid = "slow"\nregex = '''(a+)+b'''\n\n[[rules]]\ndescription = "no id"\nregex = '''x'''\n`,
    );
    for (const format of ['text', 'json']) {
      const run = scanCli(repo.dir, ['--format', format]);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        [
          'keyward scan: .keyward.toml:10: rule "slow": regex refused at character 1: a repeat inside a repeat (as in (a+)+) can backtrack exponentially; write the inner part with a fixed count or drop the outer repeat',
          'keyward scan: .keyward.toml:12: rule 3: has no id',
          'keyward scan: team rules in .keyward.toml refused; nothing was scanned',
          '',
        ].join('\n'),
      );
    }
  });

  it('a .keyward.toml that is a link (to an endless pseudo-file) is not followed: named, exit 2, nothing scanned', () => {
    const { repo } = withToken('');
    symlinkSync('/dev/zero', join(repo.dir, '.keyward.toml'));
    const run = scanCli(repo.dir, []);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('keyward scan: .keyward.toml: team rules not read: a symbolic link; not followed\n');
  });

  it('an unsupported field is named with its line; a clean scan then exits 2, a descriptive one keeps 0', () => {
    const { repo } = withToken(`title = "ACME"\n${RULES}path = '''\\.env$'''\ntags = ["internal"]\n`);
    repo.write('src/gateway.ts', 'export const gateway = process.env.GATEWAY;\n');
    const run = scanCli(repo.dir, []);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'keyward scan: .keyward.toml:1: "title" is not supported (it describes the config and changes no finding)\n' +
        'keyward scan: .keyward.toml:8: rule "acme-gateway": "path" is not supported; the rule runs without it\n' +
        'keyward scan: .keyward.toml:9: rule "acme-gateway": "tags" is not supported (it changes no finding)\n',
    );
    const sarif = JSON.parse(scanCli(repo.dir, ['--format', 'sarif']).stdout) as {
      runs: { invocations: { executionSuccessful: boolean; toolConfigurationNotifications: { level: string }[] }[] }[];
    };
    expect(sarif.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
    expect(sarif.runs[0]!.invocations[0]!.toolConfigurationNotifications.map((n) => n.level)).toEqual([
      'note',
      'warning',
      'note',
    ]);
    repo.write('.keyward.toml', `title = "ACME"\n${RULES}tags = ["internal"]\n`);
    expect(scanCli(repo.dir, []).status).toBe(0);
  });
});

describe('--config FILE', () => {
  it('reads a gitleaks.toml from anywhere instead of .keyward.toml; a missing one is exit 2', () => {
    const { repo } = withToken('');
    const elsewhere = join(tempDir('keyward-config-'), 'gitleaks.toml');
    writeFileSync(elsewhere, RULES.replace('acme-gateway', 'acme-gw-from-config'));
    const run = scanCli(repo.dir, ['--config', elsewhere, '--format', 'json']);
    expect(run.status).toBe(1);
    expect(report(run.stdout).findings.map((f) => f.ruleId)).toEqual(['acme-gw-from-config']);
    expect(report(run.stdout).teamRules?.path).toBe(elsewhere);
    const missing = scanCli(repo.dir, ['--config', 'nowhere.toml']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('keyward scan: nowhere.toml: team rules not read: no such file\n');
  });
});
