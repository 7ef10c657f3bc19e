// keyward scan --staged: every staged change but deletions, read by object id,
// whatever the file is called, and in the hook of `git commit -a` too.
import { spawnSync } from 'node:child_process';
import { rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { CLI, type Repo, cliCacheHome, json, makeRepo, scanCli } from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';

let repo: Repo;
beforeEach(() => {
  repo = makeRepo();
  repo.write('README.md', 'hello\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'one');
});
afterEach(() => repo.remove());

const staged = () => {
  const run = scanCli(repo.dir, ['--staged', '--format', 'json']);
  return { run, report: json(run) };
};

describe('keyward scan --staged', () => {
  it('sees a tracked symlink replaced by a file holding a key (type change)', () => {
    const key = routerKey();
    repo.write('target.txt', 'nothing\n');
    symlinkSync('target.txt', join(repo.dir, 'prod.env'));
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'link');
    unlinkSync(join(repo.dir, 'prod.env'));
    repo.write('prod.env', `KEY=${key}\n`);
    repo.git('add', 'prod.env');
    expect(repo.git('diff', '--cached', '--name-status')).toMatch(/^T\tprod\.env$/m);
    const { run, report } = staged();
    expect(run.status).toBe(1);
    expect(report.findings.map((f) => [f.path, f.git, f.fingerprint])).toEqual([
      ['prod.env', 'staged', fingerprint(key)],
    ]);
  });

  it('reads odd names by object id: "0:prod.env", spaces, a newline, a leading dash, unicode', () => {
    const names = ['0:prod.env', 'my secrets.env', 'new\nline.env', '-rf.env', 'ünï.env', ':!exclude.env', '*.env'];
    const keys = names.map(() => routerKey());
    names.forEach((name, i) => repo.write(name, `KEY=${keys[i]}\n`));
    repo.git('--literal-pathspecs', 'add', '--', ...names);
    const { run, report } = staged();
    expect(run.status).toBe(1);
    expect(report.findings.map((f) => [f.path, f.fingerprint]).sort()).toEqual(
      names.map((name, i) => [name, fingerprint(keys[i]!)]).sort(),
    );
    expect(run.stdout + run.stderr).not.toContain(keys[0]);
  });

  it('scans what is staged, not what is on disk, and renames and copies too', () => {
    const key = directKey('proj');
    repo.write('a.env', `KEY=${key}\n`);
    repo.git('add', 'a.env');
    repo.write('a.env', 'KEY=from-the-environment\n');
    expect(staged().report.findings.map((f) => f.path)).toEqual(['a.env']);
    repo.git('commit', '-q', '-m', 'two');
    repo.git('mv', 'a.env', 'b.env');
    repo.write('c.env', `KEY=${key}\n`);
    repo.git('add', 'c.env');
    expect(
      staged()
        .report.findings.map((f) => f.path)
        .sort(),
    ).toEqual(['b.env', 'c.env']);
  });

  it('ignores deletions, works before the first commit, and finds a key at the end of a large blob', () => {
    const fresh = makeRepo();
    const key = routerKey();
    fresh.write('big.bin', Buffer.concat([Buffer.alloc(20 << 20, 'a\n'), Buffer.from(`\u0000KEY=${key}\n`)]));
    fresh.git('add', '.');
    const run = scanCli(fresh.dir, ['--staged', '--format', 'json']);
    expect(json(run).findings.map((f) => [f.path, f.line, f.fingerprint])).toEqual([
      ['big.bin', (20 << 20) / 2 + 1, fingerprint(key)],
    ]);
    fresh.remove();
    repo.git('rm', '-q', 'README.md');
    expect(staged().run.status).toBe(0);
  });

  it('opens a staged archive as a scan of the folder does: by its name, by its first bytes, and past 8 MB', () => {
    const [zipped, unnamed, large, gzipped] = [routerKey(), directKey('proj'), routerKey(), directKey('svcacct')];
    const deflated = (text: string): [Uint8Array, { level: 6 }] => [strToU8(text), { level: 6 }];
    repo.write('bundle.zip', Buffer.from(zipSync({ 'conf/.env': deflated(`KEY=${zipped}\n`) })));
    // A zip by its bytes alone, under a name that says nothing.
    repo.write('backup.dat', Buffer.from(zipSync({ 'x.env': deflated(`KEY=${unnamed}\n`) })));
    // Larger than a blob read whole (8 MB) and named as no archive: told by its first bytes, then held whole.
    const filler = new Uint8Array(9 << 20).fill(0x61);
    repo.write(
      'large.bin',
      Buffer.from(zipSync({ 'filler.txt': [filler, { level: 0 }], 'k.env': deflated(`KEY=${large}\n`) })),
    );
    repo.write('settings.env.gz', gzipSync(`KEY=${gzipped}\n`));
    repo.git('add', '.');
    const { run, report } = staged();
    expect(run.status).toBe(1);
    expect(report.findings.map((f) => [f.path, f.git, f.fingerprint]).sort()).toEqual(
      [
        ['bundle.zip!conf/.env', 'staged', fingerprint(zipped)],
        ['backup.dat!x.env', 'staged', fingerprint(unnamed)],
        ['large.bin!k.env', 'staged', fingerprint(large)],
        ['settings.env.gz', 'staged', fingerprint(gzipped)],
      ].sort(),
    );
    expect(report.complete).toBe(true);
  });

  it('names a staged submodule as skipped without failing', () => {
    const sub = makeRepo();
    sub.write('x.txt', 'x\n');
    sub.git('add', '.');
    sub.git('commit', '-q', '-m', 'sub');
    repo.git('submodule', '--quiet', 'add', sub.dir, 'vendor/sub');
    const { run, report } = staged();
    expect(run.status).toBe(0);
    expect(report.skipped).toEqual([
      expect.objectContaining({ path: 'vendor/sub', reason: 'submodule', incomplete: false }),
    ]);
    sub.remove();
  });

  it('the pre-commit hook refuses `git commit -a` and `git commit PATH` (a temporary index)', () => {
    const env = { PATH: hookPath(keywardBinDir()), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() };
    expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo.dir, encoding: 'utf8', env }).status).toBe(0);
    const commit = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x', ...args], {
        cwd: repo.dir,
        encoding: 'utf8',
        env,
      });
    repo.write('README.md', `hello ${routerKey()}\n`);
    const all = commit('-a');
    expect(all.status).not.toBe(0);
    expect(all.stdout + all.stderr).toMatch(/README\.md:1:7: routing service key/);
    const path = commit('README.md');
    expect(path.status).not.toBe(0);
    repo.write('README.md', 'hello again\n');
    expect(commit('-a').status).toBe(0);
    rmSync(join(repo.dir, '.git', 'hooks', 'pre-commit'));
  });
});
