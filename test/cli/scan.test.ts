// `keyward scan` and `keyward install-hook` on a temporary git repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';

const CLI = resolve('dist/cli.js');
let repo: string;
let keys: { tracked: string; untracked: string; ignored: string; staged: string };

const git = (...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args],
    { cwd: repo, stdio: 'pipe' },
  ).toString();
const write = (path: string, text: string) => {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const scan = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'scan', ...args], { cwd: repo, encoding: 'utf8' });

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'keyward-scan-'));
  keys = { tracked: routerKey(), untracked: directKey('proj'), ignored: routerKey(), staged: routerKey() };
  git('init', '-q');
  write('.gitignore', 'secret.env\n');
  write('src/app.ts', `// ünïcode first\nexport const key = "${keys.tracked}";\n`);
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  write('notes.md', `Key: ${keys.untracked}\n`);
  write('secret.env', `KEY=${keys.ignored}\n`);
  write('clean.txt', 'nothing to see\n');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('keyward scan', () => {
  it('reports what git tracks or would commit, in the JSON contract, and exits 1', () => {
    const run = scan('--format', 'json');
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { version: number; findings: Record<string, unknown>[] };
    expect(report.version).toBe(1);
    expect(report.findings).toEqual([
      {
        path: 'src/app.ts',
        line: 2,
        column: 21,
        endLine: 2,
        endColumn: 94,
        ruleId: 'router-key',
        service: 'router',
        masked: `sk-or-v1-…${keys.tracked.slice(-4)}`,
        fingerprint: fingerprint(keys.tracked),
        git: 'tracked',
      },
      {
        path: 'notes.md',
        line: 1,
        column: 6,
        endLine: 1,
        endColumn: 6 + keys.untracked.length,
        ruleId: 'direct-key',
        service: 'direct',
        masked: `sk-proj-…${keys.untracked.slice(-4)}`,
        fingerprint: fingerprint(keys.untracked),
        git: 'untracked',
      },
    ]);
    for (const key of Object.values(keys)) expect(run.stdout + run.stderr).not.toContain(key);
  });

  it('walks every file with --no-git, ignored ones included', () => {
    const run = scan('--no-git', '--format', 'json', '.');
    const paths = (JSON.parse(run.stdout) as { findings: { path: string; git: string }[] }).findings
      .map((f) => `${f.path}:${f.git}`)
      .sort();
    expect(paths).toEqual(['notes.md:unknown', 'secret.env:unknown', 'src/app.ts:unknown']);
  });

  it('exits 0 on a clean path and prints a text report', () => {
    const clean = scan('clean.txt');
    expect(clean.status).toBe(0);
    expect(clean.stdout).toBe('keyward scan: no keys found\n');
    const text = scan('src');
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(
      /^src\/app\.ts:2:21: routing service key sk-or-v1-…[0-9a-f]{4} \(tracked by git: the key is in history; rotate it\)$/m,
    );
  });

  it('writes SARIF 2.1.0 with 1-based UTF-16 regions and fingerprints', () => {
    const sarif = JSON.parse(scan('--format', 'sarif').stdout) as any;
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe('keyward');
    expect(run.columnKind).toBe('utf16CodeUnits');
    expect(run.results[0]).toMatchObject({
      ruleId: 'router-key',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/app.ts' },
            region: { startLine: 2, startColumn: 21, endColumn: 94 },
          },
        },
      ],
    });
    expect(run.results[0].partialFingerprints['keyward/v1']).toBe(fingerprint(keys.tracked));
    for (const result of run.results) expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
  });

  it('reads a detect-secrets pragma in YAML only after "#", in files, staged blobs and history alike', () => {
    const key = routerKey();
    const line = `token: ${key} // pragma: allowlist secret\n`;
    write('ci/deploy.yaml', line);
    write('ci/deploy.js', line.replace(':', ' ='));
    write('ci/other.yml', `token: ${routerKey()} # pragma: allowlist secret\n`);
    const paths = (run: { stdout: string }) =>
      (JSON.parse(run.stdout) as { findings: { path: string }[] }).findings.map((f) => f.path).sort();
    expect(paths(scan('--format', 'json', 'ci'))).toEqual(['ci/deploy.yaml']);
    git('add', 'ci');
    expect(paths(scan('--staged', '--format', 'json'))).toEqual(['ci/deploy.yaml']);
    git('commit', '-q', '-m', 'ci');
    expect(paths(scan('--history', '--format', 'json')).filter((p) => p.startsWith('ci/'))).toEqual(['ci/deploy.yaml']);
  });

  it('scans only what is staged with --staged, and every commit with --history', () => {
    expect(scan('--staged').status).toBe(0);
    write('staged.py', `KEY = "${keys.staged}"\n`);
    git('add', 'staged.py');
    const staged = JSON.parse(scan('--staged', '--format', 'json').stdout) as {
      findings: { path: string; git: string }[];
    };
    expect(staged.findings.map((f) => [f.path, f.git])).toEqual([['staged.py', 'staged']]);
    git('commit', '-q', '-m', 'two');
    write('src/app.ts', 'export const key = process.env.OPENROUTER_API_KEY;\n');
    git('commit', '-q', '-am', 'three');
    const history = JSON.parse(scan('--history', '--format', 'json').stdout) as {
      findings: { path: string; line: number; commit: string; git: string; fingerprint: string }[];
    };
    expect(history.findings.map((f) => [f.path, f.line, f.git, f.fingerprint]).sort()).toEqual(
      [
        ['src/app.ts', 2, 'history', fingerprint(keys.tracked)],
        ['staged.py', 1, 'history', fingerprint(keys.staged)],
      ].sort(),
    );
    expect(history.findings[0]!.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('exits 2 on bad usage', () => {
    expect(scan('--format', 'xml').status).toBe(2);
    expect(scan('no/such/path').status).toBe(2);
  });
});

describe('keyward install-hook', () => {
  it('installs a pre-commit hook that refuses a commit adding a key', () => {
    const install = spawnSync(process.execPath, [CLI, 'install-hook'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, PATH: hookPath(keywardBinDir()) },
    });
    expect(install.status).toBe(0);
    write('leak.js', `const k = "${routerKey()}";\n`);
    git('add', 'leak.js');
    const commit = spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-m', 'leak'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, PATH: hookPath(keywardBinDir()) },
    });
    expect(commit.status).not.toBe(0);
    expect(commit.stdout + commit.stderr).toMatch(/leak\.js:1:12: routing service key/);
    writeFileSync(join(repo, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo, encoding: 'utf8' }).status).toBe(2);
  });
});

describe("Keyward's own repository", () => {
  it('scans clean', () => {
    const run = spawnSync(process.execPath, [CLI, 'scan', '--format', 'json'], { cwd: resolve('.'), encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toEqual({ version: 1, findings: [], skipped: [], complete: true });
    expect(run.status).toBe(0);
  });
});
