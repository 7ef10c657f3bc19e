// A baseline is read as .keywardignore is: a symbolic link is not followed, only a regular file of a bounded size
// is read, and anything else stops the scan naming the file (exit 2). A committed `.keyward-baseline.json` linked to
// an endless pseudo-file made the pre-commit hook hang and a scan grow past 10 GB in a minute.
import { spawnSync } from 'node:child_process';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASELINE_MAX_BYTES } from '../../src/core/scan/baseline.ts';
import { CLI, type Repo, cliCacheHome, makeRepo, tempDir } from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';

/** Long enough for a slow machine, short enough that a scan reading forever fails the test rather than hang it. */
const QUICKLY = 20_000;

function scan(repo: Repo, args: string[]) {
  return spawnSync(process.execPath, [CLI, 'scan', ...args], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() },
    timeout: QUICKLY,
  });
}

/** A repository with a clean file, and a well-formed baseline outside it to link to. */
function withBaseline(): { repo: Repo; elsewhere: string } {
  const repo = makeRepo();
  repo.write('a.ts', 'export const nothing = 1;\n');
  const elsewhere = join(tempDir(), 'baseline.json');
  writeFileSync(elsewhere, JSON.stringify({ keyward: 'baseline', version: 1, findings: [] }));
  return { repo, elsewhere };
}

describe('keyward scan --baseline that is not a plain file', () => {
  it('refuses a symbolic link, even to a good baseline, naming it: exit 2', () => {
    const { repo, elsewhere } = withBaseline();
    symlinkSync(elsewhere, join(repo.dir, '.keyward-baseline.json'));
    const run = scan(repo, ['--baseline', '.keyward-baseline.json']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--baseline \S*\.keyward-baseline\.json: a symbolic link; not followed/);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['an endless device', () => '/dev/zero'],
    [
      'a FIFO nothing writes to',
      () => {
        const fifo = join(tempDir(), 'fifo');
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
        return fifo;
      },
    ],
  ])('a link to %s ends at once with exit 2, and so does naming it directly', (_what, target) => {
    const { repo } = withBaseline();
    const to = target();
    symlinkSync(to, join(repo.dir, '.keyward-baseline.json'));
    const linked = scan(repo, ['--baseline', '.keyward-baseline.json']);
    expect(linked.status).toBe(2);
    expect(linked.stderr).toMatch(/a symbolic link; not followed/);
    const named = scan(repo, ['--baseline', to]);
    expect(named.status).toBe(2);
    expect(named.stderr).toMatch(/not a regular file; not read/);
  });

  it('refuses a baseline past the size cap without reading it', () => {
    const { repo } = withBaseline();
    const big = repo.write('.keyward-baseline.json', '');
    truncateSync(big, BASELINE_MAX_BYTES + 1);
    const run = scan(repo, ['--baseline', '.keyward-baseline.json']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`larger than ${BASELINE_MAX_BYTES} bytes`));
  });

  it('.keywardignore is read the same way: a FIFO in its place is named, not waited on', () => {
    const { repo } = withBaseline();
    expect(spawnSync('mkfifo', [join(repo.dir, '.keywardignore')]).status).toBe(0);
    const run = scan(repo, ['--no-git']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/\.keywardignore: not a regular file; not read/);
  });

  it('the pre-commit hook neither follows nor skips a linked baseline: it names it and refuses the commit', () => {
    const repo = makeRepo();
    repo.write('a.ts', 'export const nothing = 1;\n');
    symlinkSync('/dev/zero', join(repo.dir, '.keyward-baseline.json'));
    const env = { PATH: hookPath(keywardBinDir()), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() };
    expect(spawnSync(process.execPath, [CLI, 'install-hook'], { cwd: repo.dir, encoding: 'utf8', env }).status).toBe(0);
    repo.git('add', 'a.ts', '.keyward-baseline.json');
    const commit = spawnSync(
      'git',
      ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'],
      { cwd: repo.dir, encoding: 'utf8', env, timeout: QUICKLY },
    );
    // git exits 1 whatever the hook's status; the hook says keyward's (2: could not check).
    expect(commit.status).toBe(1);
    expect(commit.stderr).toMatch(/--baseline \S*\.keyward-baseline\.json: a symbolic link; not followed/);
    expect(commit.stderr).toMatch(/could not check this commit \(keyward exited with 2/);
    expect(() => repo.git('rev-parse', '--verify', '-q', 'HEAD')).toThrow();
  });
});
