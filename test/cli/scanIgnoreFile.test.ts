// .keywardignore through the CLI, as a team meets it: a file scan, the installed pre-commit hook
// (--staged) and --history all read it; a suppressed key is listed as suppressed with the line
// and reason that did it (text, JSON, SARIF `suppressions`, kind "external", SARIF 2.1.0 §3.35),
// never silently dropped; a bad line is named and turns a clean scan into exit 2.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { CLI, type Repo, cliCacheHome, makeRepo, scanCli } from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';
import { sarifValidator } from './sarifSchema.ts';

interface Report {
  findings: { path: string; fingerprint: string }[];
  suppressed?: {
    path: string;
    line: number;
    fingerprint: string;
    suppression: { file: string; line: number; kind: string; reason: string };
  }[];
  ignoreFile?: { path: string; problems: { line: number; message: string }[] };
}

const report = (stdout: string) => JSON.parse(stdout) as Report;

function withKeys(): { repo: Repo; fixture: string; docs: string; real: string } {
  const repo = makeRepo();
  const keys = { fixture: routerKey(), docs: directKey('proj'), real: routerKey() };
  repo.write('test/fixtures/keys.ts', `export const k = "${keys.fixture}";\n`);
  repo.write('docs/setup.md', `Use a key like ${keys.docs}\n`);
  repo.write('src/app.ts', `export const k = "${keys.real}";\n`);
  return { repo, ...keys };
}

describe('.keywardignore in keyward scan', () => {
  it('a fingerprint line and a path glob suppress, each shown with file:line and reason; the rest counts', () => {
    const { repo, docs, real } = withKeys();
    repo.write(
      '.keywardignore',
      `# what we keep on purpose\ntest/fixtures/  # generated, never live\n${fingerprint(docs)}  revoked example in the docs\n`,
    );
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    const r = report(run.stdout);
    expect(r.findings.map((f) => [f.path, f.fingerprint])).toEqual([['src/app.ts', fingerprint(real)]]);
    expect(r.suppressed!.map((f) => [f.path, f.suppression])).toEqual([
      [
        'docs/setup.md',
        { file: '.keywardignore', line: 3, kind: 'fingerprint', reason: 'revoked example in the docs' },
      ],
      ['test/fixtures/keys.ts', { file: '.keywardignore', line: 2, kind: 'path', reason: 'generated, never live' }],
    ]);
    expect(r.ignoreFile).toEqual({ path: '.keywardignore', problems: [] });
    const text = scanCli(repo.dir, []);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(
      /^docs\/setup\.md:1:16: direct service key .* \(suppressed by \.keywardignore:3: revoked example in the docs\)$/m,
    );
    expect(text.stdout).toMatch(/^test\/fixtures\/keys\.ts:1:19: .*\(suppressed by \.keywardignore:2: generated/m);
    expect(text.stdout).toMatch(/keyward scan: 1 key found; 2 suppressed by \.keywardignore\n$/);
  });

  // Issue 35 §4: the ignore file as people write it, the reason in a comment above (as .gitleaksignore files are).
  it('the comment block above an entry is its reason in text, JSON and SARIF; an entry with none is refused', () => {
    const { repo, docs } = withKeys();
    repo.write(
      '.keywardignore',
      `# revoked example key in the docs\n${fingerprint(docs)}\n\n# generated,\n# never live\ntest/fixtures/\n\nsrc/\n`,
    );
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    const r = report(run.stdout);
    expect(r.findings.map((f) => f.path)).toEqual(['src/app.ts']);
    expect(r.suppressed!.map((f) => [f.path, f.suppression])).toEqual([
      [
        'docs/setup.md',
        { file: '.keywardignore', line: 2, kind: 'fingerprint', reason: 'revoked example key in the docs' },
      ],
      ['test/fixtures/keys.ts', { file: '.keywardignore', line: 6, kind: 'path', reason: 'generated, never live' }],
    ]);
    expect(r.ignoreFile!.problems).toEqual([{ line: 8, message: expect.stringMatching(/^neither a fingerprint/) }]);
    const text = scanCli(repo.dir, []);
    expect(text.stdout).toMatch(
      /^docs\/setup\.md:1:16: .* \(suppressed by \.keywardignore:2: revoked example key in the docs\)$/m,
    );
    expect(text.stderr).toMatch(
      /^keyward scan: \.keywardignore:8: neither a fingerprint .*; this line suppresses nothing$/m,
    );
    const sarif = JSON.parse(scanCli(repo.dir, ['--format', 'sarif']).stdout) as {
      runs: { results: { suppressions?: { justification: string }[] }[] }[];
    };
    expect(sarif.runs[0]!.results.flatMap((x) => x.suppressions ?? []).map((x) => x.justification)).toEqual([
      'revoked example key in the docs',
      'generated, never live',
    ]);
  });

  it('all suppressed: exit 0, and the text still says what and where', () => {
    const { repo, real } = withKeys();
    repo.write('.keywardignore', `test/  # fixtures\ndocs/*.md  # examples\n${fingerprint(real)}  rotated 2026-11\n`);
    const run = scanCli(repo.dir, []);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter((l) => l.includes('suppressed by .keywardignore:'))).toHaveLength(3);
    expect(run.stdout).toMatch(/keyward scan: no keys found; 3 suppressed by \.keywardignore\n$/);
  });

  it('a malformed line is named (file:line), suppresses nothing, and makes a clean scan exit 2', () => {
    const { repo } = withKeys();
    repo.write('.keywardignore', 'test/fixtures/keys.ts\nsrc/  # ours\ndocs/  # examples\n');
    const run = scanCli(repo.dir, ['--format', 'json']);
    // The fixture the bad line meant is still reported: nothing is silently ignored.
    expect(run.status).toBe(1);
    const r = report(run.stdout);
    expect(r.findings.map((f) => f.path)).toEqual(['test/fixtures/keys.ts']);
    expect(r.ignoreFile!.problems).toEqual([{ line: 1, message: expect.stringMatching(/path with its reason/) }]);
    const text = scanCli(repo.dir, []);
    expect(text.stderr).toMatch(
      /^keyward scan: \.keywardignore:1: neither a fingerprint .*; this line suppresses nothing$/m,
    );
    // With nothing else to report, the bad line alone is exit 2: the ignore file does not say what the team meant.
    repo.write('.keywardignore', 'test/fixtures/keys.ts\ntest/  # fixtures\nsrc/  # ours\ndocs/  # examples\n');
    expect(scanCli(repo.dir, []).status).toBe(2);
    repo.write('.keywardignore', 'test/  # fixtures\nsrc/  # ours\ndocs/  # examples\n');
    expect(scanCli(repo.dir, []).status).toBe(0);
  });

  it('SARIF: suppressed results carry suppressions (external, justification, where) and are schema-valid', () => {
    const { repo } = withKeys();
    repo.write('.keywardignore', 'test/fixtures/  # generated, never live\nbad line\n');
    const run = scanCli(repo.dir, ['--format', 'sarif']);
    expect(run.status).toBe(1);
    const log = JSON.parse(run.stdout) as {
      runs: {
        results: {
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
          suppressions?: unknown[];
        }[];
        invocations: { executionSuccessful: boolean; toolConfigurationNotifications?: unknown[] }[];
      }[];
    };
    const validate = sarifValidator();
    expect([validate(log), validate.errors ?? []]).toEqual([true, []]);
    const suppressed = log.runs[0]!.results.filter((r) => r.suppressions);
    expect(suppressed.map((r) => [r.locations[0]!.physicalLocation.artifactLocation.uri, r.suppressions])).toEqual([
      [
        'test/fixtures/keys.ts',
        [
          {
            kind: 'external',
            status: 'accepted',
            justification: 'generated, never live',
            location: {
              physicalLocation: {
                artifactLocation: { uri: '.keywardignore', uriBaseId: '%SRCROOT%' },
                region: { startLine: 1 },
              },
            },
          },
        ],
      ],
    ]);
    expect(log.runs[0]!.results).toHaveLength(3);
    expect(log.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
    expect(log.runs[0]!.invocations[0]!.toolConfigurationNotifications).toEqual([
      expect.objectContaining({ level: 'error', descriptor: { id: 'ignore-file-line' } }),
    ]);
  });

  it('the installed pre-commit hook (--staged) honours it, from the repository root', () => {
    const { repo } = withKeys();
    repo.write('.keywardignore', 'test/fixtures/  # generated, never live\n');
    repo.git('add', '.keywardignore', 'src/app.ts');
    repo.git('commit', '-q', '-m', 'app');
    const env = { PATH: hookPath(keywardBinDir()), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() };
    expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo.dir, encoding: 'utf8', env }).status).toBe(0);
    const commit = () =>
      spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'], {
        cwd: repo.dir,
        encoding: 'utf8',
        env,
      });
    repo.git('add', 'test/fixtures/keys.ts');
    const fixture = commit();
    expect(fixture.status).toBe(0);
    expect(fixture.stdout + fixture.stderr).toMatch(
      /test\/fixtures\/keys\.ts:1:19: .*\(suppressed by \.keywardignore:1: generated, never live\)\nkeyward scan: no keys found; 1 suppressed/,
    );
    repo.git('add', 'docs/setup.md');
    expect(commit().status).toBe(1);
    // Run from a subfolder, the staged scan reads the same root file.
    const sub = scanCli(`${repo.dir}/docs`, ['--staged', '--format', 'json']);
    // Outside the current folder a path is shown whole, as every path keyward scan prints.
    expect(report(sub.stdout).ignoreFile).toEqual({ path: join(repo.dir, '.keywardignore'), problems: [] });
  });

  it('--history honours it', () => {
    const { repo, fixture } = withKeys();
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'keys');
    repo.write('.keywardignore', `${fingerprint(fixture)}  generated\ndocs/  # examples\nsrc/  # rotated\n`);
    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(0);
    const r = report(run.stdout);
    expect(r.findings).toEqual([]);
    expect(r.suppressed!.map((f) => [f.path, f.suppression.line]).sort()).toEqual([
      ['docs/setup.md', 2],
      ['src/app.ts', 3],
      ['test/fixtures/keys.ts', 1],
    ]);
  });

  // Issue 31 item 9: an entry is refused by what it matches, not by its spelling; before, these passed the hook.
  it.each(['?*  # generated', '*.*  # x', '[!\\n]*  # x', '*/**  # x', '**/**  # x'])(
    'the hook refuses "%s": the line is named, suppresses nothing, and the staged key fails the commit',
    (line) => {
      const repo = makeRepo();
      repo.write('.keywardignore', `${line}\n`);
      repo.write('README.md', 'hello\n');
      repo.git('add', '.');
      repo.git('commit', '-q', '-m', 'ignore file');
      const env = { PATH: hookPath(keywardBinDir()), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() };
      expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo.dir, encoding: 'utf8', env }).status).toBe(
        0,
      );
      repo.write('src/new.ts', `export const k = "${routerKey()}";\n`);
      repo.git('add', 'src/new.ts');
      const commit = spawnSync(
        'git',
        ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'],
        { cwd: repo.dir, encoding: 'utf8', env },
      );
      const glob = line.slice(0, line.indexOf('  #'));
      const said = commit.stdout + commit.stderr;
      expect([commit.status, said]).toEqual([1, expect.stringMatching(/src\/new\.ts:1:19: /)]);
      expect(said).not.toMatch(/suppressed by \.keywardignore:1/);
      expect(said).toContain(`keyward scan: .keywardignore:1: "${glob}" would suppress`);
      expect(said).toMatch(/; this line suppresses nothing$/m);
      // keyward scan says the same: the key counts, the line is a problem in the JSON too.
      const run = scanCli(repo.dir, ['--format', 'json']);
      expect(run.status).toBe(1);
      const r = report(run.stdout);
      expect(r.findings.map((f) => f.path)).toEqual(['src/new.ts']);
      expect(r.suppressed).toEqual([]);
      expect(r.ignoreFile!.problems).toEqual([
        { line: 1, message: expect.stringMatching(/would suppress (every file|most files)/) },
      ]);
      // With no key, the refused line alone is exit 2, as any refused line.
      repo.write('src/new.ts', 'export const k = 1;\n');
      expect(scanCli(repo.dir, []).status).toBe(2);
    },
  );

  it('a narrow entry next to a refused one still suppresses what it names', () => {
    const { repo } = withKeys();
    repo.write('.keywardignore', '*.*  # everything with a dot\ntest/fixtures/*.ts  # generated\n');
    const r = report(scanCli(repo.dir, ['--format', 'json']).stdout);
    expect(r.suppressed!.map((f) => [f.path, f.suppression.line])).toEqual([['test/fixtures/keys.ts', 2]]);
    expect(r.findings.map((f) => f.path).sort()).toEqual(['docs/setup.md', 'src/app.ts']);
  });

  it('without an ignore file the JSON has no new fields', () => {
    const { repo } = withKeys();
    const r = report(scanCli(repo.dir, ['--format', 'json']).stdout) as unknown as Record<string, unknown>;
    expect(Object.keys(r).sort()).toEqual(['complete', 'findings', 'skipped', 'version']);
  });
});
