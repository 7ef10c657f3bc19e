// keyward scan --write-baseline / --baseline: a team adopts Keyward on a repository that
// already holds keys and fails only on new ones. Identity is the key's fingerprint and its
// file, not the line, as detect-secrets compares a baseline's secrets (filename, secret hash,
// type; "line numbers aren't included ... because line numbers are subject to change":
// Yelp/detect-secrets detect_secrets/core/potential_secret.py). gitleaks matches the line too
// (gitleaks/gitleaks detect/baseline.go IsNew), which is what the "moved" test below refuses.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import {
  CLI,
  type Repo,
  canTestPermissions,
  cliCacheHome,
  giveToNobody,
  makeRepo,
  scanCli,
  scanCliUnprivileged,
  tempDir,
} from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';
import { sarifValidator } from './sarifSchema.ts';

interface Report {
  findings: { path: string; line: number; fingerprint: string; baselineState?: string }[];
  unchanged?: { path: string; line: number; fingerprint: string; baselineState?: string }[];
  suppressed?: { path: string; fingerprint: string; suppression: { file: string; line: number; reason: string } }[];
  baseline?: { path: string; new: number; unchanged: number };
}

const report = (stdout: string) => JSON.parse(stdout) as Report;

/** A repository with one committed key in app.ts and the baseline written and committed. */
function adopted(): { repo: Repo; key: string } {
  const repo = makeRepo();
  const key = routerKey();
  repo.write('src/app.ts', `// config\nexport const key = "${key}";\n`);
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'a key from before');
  const write = scanCli(repo.dir, ['--write-baseline', '.keyward-baseline.json']);
  expect(write.stderr).toMatch(/baseline written to \.keyward-baseline\.json: 1 key in 1 file/);
  expect(write.status).toBe(0);
  repo.git('add', '.keyward-baseline.json');
  repo.git('commit', '-q', '-m', 'baseline');
  return { repo, key };
}

describe('keyward scan --write-baseline', () => {
  it('records fingerprint, file, rule and masked form, sorted; never the key nor more of it than the mask', () => {
    const { repo, key } = adopted();
    const text = readFileSync(join(repo.dir, '.keyward-baseline.json'), 'utf8');
    expect(text).not.toContain(key);
    // Nothing longer than the masked form's visible parts: neither the key's body nor its first half.
    expect(text).not.toContain(key.slice(0, 20));
    expect(text).not.toContain(key.slice(-8));
    const parsed = JSON.parse(text) as { keyward: string; version: number; findings: unknown[] };
    expect(parsed.keyward).toBe('baseline');
    expect(parsed.version).toBe(1);
    expect(parsed.findings).toEqual([
      { path: 'src/app.ts', fingerprint: fingerprint(key), ruleId: 'router-key', masked: `sk-or-v1-…${key.slice(-4)}` },
    ]);
    // And the scanner finds nothing key-shaped in it.
    expect(scanCli(repo.dir, ['--no-git', '.keyward-baseline.json']).status).toBe(0);
  });

  it('names paths from the repository root whichever folder it runs in', () => {
    const repo = makeRepo();
    const key = routerKey();
    repo.write('pkg/a/x.ts', `k = "${key}"\n`);
    mkdirSync(join(repo.dir, 'pkg', 'b'));
    expect(scanCli(join(repo.dir, 'pkg', 'b'), ['--write-baseline', 'base.json', '..']).status).toBe(0);
    const written = JSON.parse(readFileSync(join(repo.dir, 'pkg', 'b', 'base.json'), 'utf8')) as Report;
    expect(written.findings.map((f) => f.path)).toEqual(['pkg/a/x.ts']);
    // Used from the root, it names the same file the same way.
    const run = scanCli(repo.dir, ['--baseline', 'pkg/b/base.json', '--format', 'json']);
    expect([run.status, report(run.stdout).unchanged!.map((f) => f.path)]).toEqual([0, ['pkg/a/x.ts']]);
  });

  it('one entry per key and file: a second copy in the same file is the same exposure', () => {
    const repo = makeRepo();
    const key = routerKey();
    repo.write('a.ts', `k = "${key}"\nagain = "${key}"\n`);
    const run = scanCli(repo.dir, ['--write-baseline', 'base.json']);
    expect(run.stderr).toMatch(/baseline written to base\.json: 1 key in 1 file;/);
    expect((JSON.parse(readFileSync(join(repo.dir, 'base.json'), 'utf8')) as Report).findings).toHaveLength(1);
    const again = scanCli(repo.dir, ['--baseline', 'base.json', '--format', 'json']);
    expect([again.status, report(again.stdout).unchanged!.map((f) => f.line)]).toEqual([0, [1, 2]]);
  });

  it('never writes through a symbolic link (core/safeWrite.ts)', () => {
    const repo = makeRepo();
    repo.write('a.ts', `k = "${routerKey()}"\n`);
    const elsewhere = join(tempDir(), 'victim.json');
    writeFileSync(elsewhere, 'untouched\n');
    symlinkSync(elsewhere, join(repo.dir, 'base.json'));
    const run = scanCli(repo.dir, ['--write-baseline', 'base.json']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--write-baseline base\.json: base\.json: symlink/);
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched\n');
  });
});

describe('keyward scan --baseline', () => {
  it('a key moved to another line of the same file is unchanged: exit 0, reported as such', () => {
    const { repo, key } = adopted();
    repo.write('src/app.ts', `// config\n\n\n// moved down\nexport const key = "${key}";\n`);
    const run = scanCli(repo.dir, ['--baseline', '.keyward-baseline.json', '--format', 'json']);
    expect(run.status).toBe(0);
    const r = report(run.stdout);
    expect(r.findings).toEqual([]);
    expect(r.unchanged!.map((f) => [f.path, f.line, f.baselineState])).toEqual([['src/app.ts', 5, 'unchanged']]);
    expect(r.baseline).toEqual({ path: '.keyward-baseline.json', new: 0, unchanged: 1 });
    const text = scanCli(repo.dir, ['--baseline', '.keyward-baseline.json']);
    expect(text.stdout).toBe(
      'keyward scan: no new keys found; 1 unchanged since the baseline .keyward-baseline.json\n',
    );
  });

  it('the same key copied into another file is new: exit 1, the copy alone counted', () => {
    const { repo, key } = adopted();
    repo.write('src/copy.ts', `export const again = "${key}";\n`);
    const run = scanCli(repo.dir, ['--baseline', '.keyward-baseline.json', '--format', 'json']);
    expect(run.status).toBe(1);
    const r = report(run.stdout);
    expect(r.findings.map((f) => [f.path, f.baselineState])).toEqual([['src/copy.ts', 'new']]);
    expect(r.unchanged!.map((f) => f.path)).toEqual(['src/app.ts']);
    const text = scanCli(repo.dir, ['--baseline', '.keyward-baseline.json']);
    expect(text.stdout).toMatch(/^src\/copy\.ts:1:23: routing service key .*\n.*1 new key found; 1 unchanged/);
  });

  it('a new key in the baselined file is new', () => {
    const { repo, key } = adopted();
    const other = directKey('proj');
    repo.write('src/app.ts', `export const key = "${key}";\nexport const other = "${other}";\n`);
    const run = scanCli(repo.dir, ['--baseline', '.keyward-baseline.json', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(report(run.stdout).findings.map((f) => f.fingerprint)).toEqual([fingerprint(other)]);
  });

  it.each([
    ['missing', (_dir: string) => undefined, /could not be read \(ENOENT\)/],
    ['not JSON', (dir: string) => writeFileSync(join(dir, 'base.json'), '{"keyward": "basel'), /not JSON/],
    ['empty', (dir: string) => writeFileSync(join(dir, 'base.json'), ''), /not JSON/],
    [
      'another tool’s',
      (dir: string) => writeFileSync(join(dir, 'base.json'), '{"results": {}}'),
      /not a Keyward baseline/,
    ],
    [
      'a newer version',
      (dir: string) => writeFileSync(join(dir, 'base.json'), '{"keyward":"baseline","version":2,"findings":[]}'),
      /version 2 is not one this keyward reads/,
    ],
    [
      'a bad entry',
      (dir: string) =>
        writeFileSync(join(dir, 'base.json'), '{"keyward":"baseline","version":1,"findings":[{"path":"a"}]}'),
      /findings\[0\] needs a "path" and a 16-hex "fingerprint"/,
    ],
  ])('a baseline file %s stops the scan with exit 2, never "all new" or "all old"', (_name, make, message) => {
    const { repo } = adopted();
    make(repo.dir);
    for (const format of ['text', 'json', 'sarif']) {
      const run = scanCli(repo.dir, ['--baseline', 'base.json', '--format', format]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^keyward scan: --baseline .*base\.json: /);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });

  it.skipIf(!canTestPermissions)('an unreadable baseline file is exit 2 (run as an unprivileged user)', () => {
    const { repo } = adopted();
    chmodSync(join(repo.dir, '.keyward-baseline.json'), 0);
    giveToNobody(repo.dir);
    const run = scanCliUnprivileged(repo.dir, ['--baseline', '.keyward-baseline.json']);
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/could not be read \(EACCES\)/)]);
  });

  it('SARIF marks baselineState new and unchanged and is valid against the SARIF 2.1.0 schema', () => {
    const { repo, key } = adopted();
    repo.write('src/copy.ts', `export const again = "${key}";\n`);
    const run = scanCli(repo.dir, ['--baseline', '.keyward-baseline.json', '--format', 'sarif']);
    expect(run.status).toBe(1);
    const log = JSON.parse(run.stdout) as {
      runs: {
        results: { baselineState: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    const validate = sarifValidator();
    expect([validate(log), validate.errors ?? []]).toEqual([true, []]);
    expect(
      log.runs[0]!.results.map((r) => [r.locations[0]!.physicalLocation.artifactLocation.uri, r.baselineState]),
    ).toEqual([
      ['src/copy.ts', 'new'],
      ['src/app.ts', 'unchanged'],
    ]);
  });

  it('the installed pre-commit hook uses the committed .keyward-baseline.json: only a new key stops a commit', () => {
    const { repo, key } = adopted();
    const env = { PATH: hookPath(keywardBinDir()), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() };
    expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo.dir, encoding: 'utf8', env }).status).toBe(0);
    const commit = () =>
      spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'], {
        cwd: repo.dir,
        encoding: 'utf8',
        env,
      });
    repo.write('src/app.ts', `// moved\n\nexport const key = "${key}";\n`);
    repo.git('add', 'src/app.ts');
    const moved = commit();
    // git hands a hook's output to stderr.
    expect([moved.status, moved.stdout + moved.stderr]).toEqual([
      0,
      'keyward scan: no new keys found; 1 unchanged since the baseline .keyward-baseline.json\n',
    ]);
    repo.write('src/leak.ts', `export const k = "${key}";\n`);
    repo.git('add', 'src/leak.ts');
    const leak = commit();
    expect(leak.status).toBe(1);
    // Only what is staged is read: the moved key went in with the last commit.
    expect(leak.stdout + leak.stderr).toMatch(/^src\/leak\.ts:1:19: .*\n.*1 new key found; 0 unchanged/);
    expect(leak.stderr).toMatch(/Keyward's pre-commit hook refused this commit/);
  });

  it('--history with the baseline: the committed key in its own file is unchanged, a copy committed later is new', () => {
    const { repo, key } = adopted();
    expect(scanCli(repo.dir, ['--history', '--baseline', '.keyward-baseline.json']).status).toBe(0);
    repo.write('lib/copy.ts', `export const k = "${key}";\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'copied');
    const run = scanCli(repo.dir, ['--history', '--baseline', '.keyward-baseline.json', '--format', 'json']);
    expect(run.status).toBe(1);
    const r = report(run.stdout);
    expect(r.findings.map((f) => f.path)).toEqual(['lib/copy.ts']);
    expect(r.unchanged!.map((f) => f.path)).toEqual(['src/app.ts']);
  });
});
