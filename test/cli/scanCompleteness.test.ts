// Never a silent "clean": everything readable is scanned, every path that is
// not is named (stderr, "skipped" in JSON, SARIF notifications), and the exit
// status says whether the scan was complete: 1 keys found, else 2 something
// could not be read, 0 only when all was scanned and is clean.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import {
  type Repo,
  canTestPermissions,
  giveToNobody,
  json,
  makeRepo,
  permissionSkipReason,
  scanCli,
  scanCliUnprivileged,
  tempDir,
} from './gitFixtures.ts';

let repo: Repo;
beforeEach(() => {
  repo = makeRepo();
  repo.write('clean.txt', 'nothing here\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'one');
});
afterEach(() => {
  execFileSync('chmod', ['-R', 'u+rwX', repo.dir]);
  repo.remove();
});

const sarifOf = (stdout: string) => (JSON.parse(stdout) as any).runs[0];

if (!canTestPermissions) console.warn(`scanCompleteness: ${permissionSkipReason}`);

describe.skipIf(!canTestPermissions)('unreadable folders and files (run as an unprivileged user)', () => {
  it.each([
    ['inside a git repository', []],
    ['with --no-git', ['--no-git']],
  ] as const)('%s: scans the rest, names them, and exits 2 when nothing was found', (_name, mode) => {
    repo.write('locked/inner.env', 'nothing\n');
    repo.write('noread.env', 'nothing\n');
    chmodSync(join(repo.dir, 'locked'), 0);
    chmodSync(join(repo.dir, 'noread.env'), 0);
    giveToNobody(repo.dir);
    const run = scanCliUnprivileged(repo.dir, [...mode, '--format', 'json']);
    expect(run.status).toBe(2);
    const report = json(run);
    expect(report.complete).toBe(false);
    expect(
      report.skipped
        .filter((s) => s.incomplete)
        .map((s) => [s.path, s.reason])
        .sort(),
    ).toEqual([
      ['locked', 'unreadable-folder'],
      ['noread.env', 'unreadable'],
    ]);
    const text = scanCliUnprivileged(repo.dir, [...mode]);
    expect(text.status).toBe(2);
    expect(text.stderr).toMatch(/NOT SCANNED: locked: folder could not be read \(permission denied\)/);
    expect(text.stderr).toMatch(/NOT SCANNED: noread\.env: could not be read \(permission denied\)/);
    expect(text.stdout).toMatch(/no keys found in what could be read; 2 paths could not be scanned/);
    const sarif = sarifOf(scanCliUnprivileged(repo.dir, [...mode, '--format', 'sarif']).stdout);
    expect(sarif.invocations[0].executionSuccessful).toBe(false);
    expect(
      sarif.invocations[0].toolExecutionNotifications
        .filter((n: any) => n.level === 'error')
        .map((n: any) => n.locations[0].physicalLocation.artifactLocation.uri)
        .sort(),
    ).toEqual(['locked', 'noread.env']);
  });

  it('still reports the keys in what it could read, and exits 1', () => {
    const key = routerKey();
    repo.write('readable.env', `KEY=${key}\n`);
    repo.write('locked/inner.env', 'x\n');
    chmodSync(join(repo.dir, 'locked'), 0);
    giveToNobody(repo.dir);
    const run = scanCliUnprivileged(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => f.fingerprint)).toEqual([fingerprint(key)]);
    expect(json(run).skipped.map((s) => s.path)).toEqual(['locked']);
  });
});

describe('special files, links, submodules', () => {
  it('names a FIFO as skipped without blocking or changing the exit status', () => {
    execFileSync('mkfifo', [join(repo.dir, 'pipe')]);
    for (const mode of [[], ['--no-git']]) {
      const run = scanCli(repo.dir, [...mode, '--format', 'json']);
      expect(run.status).toBe(0);
      expect(
        json(run)
          .skipped.filter((s) => s.reason !== 'excluded-folder')
          .map((s) => [s.path, s.reason])
          .sort(),
      ).toEqual(mode.length ? [['pipe', 'special-file']] : []);
    }
    // Named explicitly, it is reported, not opened.
    const named = scanCli(repo.dir, ['pipe', '--format', 'json']);
    expect(named.status).toBe(0);
    expect(json(named).skipped).toEqual([
      expect.objectContaining({ path: 'pipe', reason: 'special-file', message: expect.stringMatching(/FIFO/) }),
    ]);
  });

  it('a tracked symlink to a folder and a submodule do not crash; the submodule is scanned', () => {
    const outside = tempDir();
    symlinkSync(outside, join(repo.dir, 'linked-folder'));
    const sub = makeRepo();
    const key = directKey('proj');
    sub.write('deep/secret.env', `KEY=${key}\n`);
    sub.git('add', '.');
    sub.git('commit', '-q', '-m', 'sub');
    repo.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub.dir, 'vendor/sub');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'two');
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.stderr).not.toMatch(/EISDIR/);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.git, f.fingerprint])).toEqual([
      ['vendor/sub/deep/secret.env', 'tracked', fingerprint(key)],
    ]);
    expect(report.skipped).toEqual([
      expect.objectContaining({ path: 'linked-folder', reason: 'symlink', incomplete: false }),
    ]);
    sub.remove();
  });

  it('a submodule that is not checked out is named', () => {
    const sub = makeRepo();
    sub.write('x.txt', 'x\n');
    sub.git('add', '.');
    sub.git('commit', '-q', '-m', 'sub');
    repo.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub.dir, 'vendor/sub');
    repo.git('commit', '-q', '-m', 'two');
    repo.git('submodule', '--quiet', 'deinit', '-f', 'vendor/sub');
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(0);
    expect(json(run).skipped).toEqual([
      expect.objectContaining({ path: 'vendor/sub', reason: 'submodule-not-checked-out' }),
    ]);
    sub.remove();
  });
});

describe('symlinked paths (item 8)', () => {
  it('scanning a symlink to a repository finds what the real path holds', () => {
    const key = routerKey();
    repo.write('config/app.env', `KEY=${key}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'two');
    const outside = tempDir();
    symlinkSync(repo.dir, join(outside, 'repo-link'));
    const run = scanCli(outside, ['repo-link', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.git, f.fingerprint])).toEqual([
      ['repo-link/config/app.env', 'tracked', fingerprint(key)],
    ]);
  });

  it('scanning a symlinked folder inside a repository grades its files by the real path', () => {
    const key = routerKey();
    repo.write('config/app.env', `KEY=${key}\n`);
    repo.git('add', 'config');
    repo.git('commit', '-q', '-m', 'two');
    symlinkSync(join(repo.dir, 'config'), join(repo.dir, 'config-link'));
    const run = scanCli(repo.dir, ['config-link', '--format', 'json']);
    expect(json(run).findings.map((f) => [f.path, f.git])).toEqual([['config-link/app.env', 'tracked']]);
    const file = scanCli(repo.dir, ['config-link/app.env', '--format', 'json']);
    expect(json(file).findings.map((f) => [f.path, f.git])).toEqual([['config-link/app.env', 'tracked']]);
  });
});

describe('large, binary and UTF-16 files', () => {
  it('scans a file far over any size cap in windows, with exact lines and columns', () => {
    const keys = [routerKey(), directKey('proj'), routerKey()];
    // 24 MB of lines with keys at the start, across a window boundary (at 8 MB), and at the end.
    const line = 'x'.repeat(99) + '\n';
    const lines = Math.ceil((24 << 20) / line.length);
    const first = `A=${keys[0]}\n`;
    const boundaryLine = Math.floor(((8 << 20) - first.length) / line.length);
    const prefix = 'é'.repeat(((8 << 20) - 60 - first.length - (boundaryLine - 1) * line.length) / 2);
    const parts: string[] = [];
    for (let i = 0; i < lines; i++) parts.push(i === 0 ? first : i === boundaryLine ? `${prefix}${keys[1]}\n` : line);
    parts.push(`Z=${keys[2]}`);
    repo.write('dist/bundle.js', parts.join(''));
    const run = scanCli(repo.dir, ['--no-git', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.line, f.column, f.fingerprint])).toEqual([
      ['dist/bundle.js', 1, 3, fingerprint(keys[0]!)],
      ['dist/bundle.js', boundaryLine + 1, prefix.length + 1, fingerprint(keys[1]!)],
      ['dist/bundle.js', lines + 1, 3, fingerprint(keys[2]!)],
    ]);
  });

  it('a --max-size cap names the file as not scanned and exits 2', () => {
    repo.write('big.txt', 'y'.repeat(5000));
    const run = scanCli(repo.dir, ['--no-git', '--max-size', '1000', '--format', 'json']);
    expect(run.status).toBe(2);
    expect(json(run).skipped.filter((s) => s.incomplete)).toEqual([
      expect.objectContaining({ path: 'big.txt', reason: 'too-large' }),
    ]);
  });

  it('searches binary files (a NUL byte early on) and UTF-16 text for keys', () => {
    const keys = [routerKey(), directKey('proj')];
    repo.write(
      'app.bin',
      Buffer.concat([Buffer.from([0, 1, 2, 0, 255]), Buffer.from(`\u0000${keys[0]}\u0000`), Buffer.alloc(100)]),
    );
    repo.write(
      'win.env',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`OPENAI_API_KEY=${keys[1]}\r\n`, 'utf16le')]),
    );
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    expect(
      json(run)
        .findings.map((f) => [f.path, f.line, f.column, f.fingerprint])
        .sort(),
    ).toEqual(
      [
        ['app.bin', 1, 7, fingerprint(keys[0]!)],
        ['win.env', 1, 16, fingerprint(keys[1]!)],
      ].sort(),
    );
  });
});

describe('--no-git (item 11)', () => {
  it('scans build output, skips and names .git and node_modules, and --include-dir walks them', () => {
    const keys = {
      dist: routerKey(),
      out: routerKey(),
      coverage: routerKey(),
      vscodeTest: routerKey(),
      modules: directKey('proj'),
    };
    repo.write('dist/app.js', `k="${keys.dist}"\n`);
    repo.write('out/app.js', `k="${keys.out}"\n`);
    repo.write('coverage/lcov.js', `k="${keys.coverage}"\n`);
    repo.write('.vscode-test/x.js', `k="${keys.vscodeTest}"\n`);
    repo.write('node_modules/pkg/index.js', `k="${keys.modules}"\n`);
    mkdirSync(join(repo.dir, 'packages', 'a', 'node_modules'), { recursive: true });
    const run = scanCli(repo.dir, ['--no-git', '--format', 'json']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => f.path).sort()).toEqual([
      '.vscode-test/x.js',
      'coverage/lcov.js',
      'dist/app.js',
      'out/app.js',
    ]);
    expect(report.skipped.map((s) => [s.path, s.reason]).sort()).toEqual([
      ['.git', 'excluded-folder'],
      ['node_modules', 'excluded-folder'],
      ['packages/a/node_modules', 'excluded-folder'],
    ]);
    expect(report.complete).toBe(true);
    expect(scanCli(repo.dir, ['--no-git']).stderr).toMatch(
      /skipped: node_modules: skipped by default; --include-dir NAME scans it/,
    );
    const all = json(scanCli(repo.dir, ['--no-git', '--include-dir', 'node_modules', '--format', 'json']));
    expect(all.findings.map((f) => f.path)).toContain('node_modules/pkg/index.js');
    expect(all.skipped.map((s) => s.path)).toEqual(['.git']);
  });
});
