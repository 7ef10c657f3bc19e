// `keyward install-hook`: a hook that finds keyward wherever the teammate has it,
// says it is Keyward's when it stops a commit, and never replaces another's hook unasked.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HOOK_MARK } from '../../src/core/preCommitHook.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { CLI, type Repo, makeRepo, tempDir } from './gitFixtures.ts';
import { hookPath, keywardBinDir } from './keywardOnPath.ts';

let repo: Repo;
beforeEach(() => {
  repo = makeRepo();
  repo.write('README.md', 'hello\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'one');
});

const install = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'install-hook', ...args], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { PATH: hookPath(), HOME: repo.dir },
  });

/** A real `git commit`, hooks on, as a person runs it. */
const commit = (path: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x', ...args], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { PATH: path, HOME: repo.dir, GIT_CONFIG_NOSYSTEM: '1' },
  });
const hookFile = () => join(repo.dir, '.git', 'hooks', 'pre-commit');

describe('keyward install-hook', () => {
  it('writes a hook that names no path of this machine and refuses a staged key with how to bypass once', () => {
    const run = install();
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/installed the pre-commit hook at .*pre-commit/);
    const hook = readFileSync(hookFile(), 'utf8');
    expect(hook).toContain(HOOK_MARK);
    expect(hook).not.toContain(repo.dir);
    expect(hook).not.toContain(dirname(CLI));
    expect(hook).not.toMatch(/^[^#]*\s\/(?!dev\/null)\w/m);

    const bin = keywardBinDir();
    repo.write('leak.js', `const k = "${routerKey()}";\n`);
    repo.git('add', 'leak.js');
    const refused = commit(hookPath(bin));
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/leak\.js:1:12: routing service key/);
    expect(refused.stderr).toMatch(/Keyward's pre-commit hook refused this commit/);
    expect(refused.stderr).toMatch(/git commit --no-verify/);

    repo.write('leak.js', 'const k = process.env.KEY;\n');
    repo.git('add', 'leak.js');
    expect(commit(hookPath(bin)).status).toBe(0);
  });

  it("uses the project's own keyward through npx --no-install when none is on PATH", () => {
    expect(install().status).toBe(0);
    // What `npm install --save-dev keyward` leaves: node_modules/.bin/keyward, with a package.json above it.
    repo.write('package.json', '{ "name": "p", "private": true }\n');
    repo.write('.gitignore', 'node_modules/\n');
    const local = join(repo.dir, 'node_modules', '.bin');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'keyward'), readFileSync(join(keywardBinDir(), 'keyward')));
    chmodSync(join(local, 'keyward'), 0o755);
    repo.write('app.js', `const k = "${routerKey()}";\n`);
    repo.git('add', 'app.js', 'package.json', '.gitignore');
    const refused = commit(hookPath());
    expect(refused.stdout + refused.stderr).toMatch(/app\.js:1:12: routing service key/);
    expect(refused.status).toBe(1);
  });

  it('says it is Keyward’s hook, and how to fix or bypass it, when keyward cannot be found or cannot run', () => {
    expect(install().status).toBe(0);
    repo.write('a.txt', 'fine\n');
    repo.git('add', 'a.txt');
    const missing = commit(hookPath(tempDir()));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/Keyward's pre-commit hook: the keyward command was not found/);
    expect(missing.stderr).toMatch(/npm install --save-dev keyward/);
    expect(missing.stderr).toMatch(/git commit --no-verify/);

    // A keyward that will not start (an old Node says so and exits 2).
    const broken = tempDir();
    writeFileSync(join(broken, 'keyward'), '#!/bin/sh\necho "keyward needs Node.js 20 or newer" >&2\nexit 2\n');
    chmodSync(join(broken, 'keyward'), 0o755);
    const failed = commit(hookPath(broken));
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/keyward needs Node\.js 20 or newer/);
    expect(failed.stderr).toMatch(/Keyward's pre-commit hook could not check this commit/);
    expect(failed.stderr).toMatch(/git commit --no-verify/);
    expect(commit(hookPath(broken), '--no-verify').status).toBe(0);
  });

  it('refuses to replace another hook unless --force, and updates its own', () => {
    writeFileSync(hookFile(), '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const refused = install();
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/exists and is not Keyward's; rerun with --force/);
    expect(readFileSync(hookFile(), 'utf8')).toBe('#!/bin/sh\nexit 0\n');

    const forced = install('--force');
    expect(forced.status).toBe(0);
    expect(forced.stdout).toMatch(/replacing the one that was there/);
    expect(readFileSync(hookFile(), 'utf8')).toContain(HOOK_MARK);
    expect(spawnSync(hookFile(), { cwd: repo.dir, env: { PATH: hookPath(keywardBinDir()) } }).status).toBe(0);

    const again = install();
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/updated the pre-commit hook/);
  });

  it('never writes through a hook that is a symbolic link', () => {
    const elsewhere = join(tempDir(), 'target');
    writeFileSync(elsewhere, 'untouched\n');
    symlinkSync(elsewhere, hookFile());
    const run = install('--force');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/is a symbolic link; Keyward does not write through it/);
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched\n');
  });

  it('installs where core.hooksPath points', () => {
    repo.git('config', 'core.hooksPath', '.githooks');
    expect(install().status).toBe(0);
    expect(readFileSync(join(repo.dir, '.githooks', 'pre-commit'), 'utf8')).toContain(HOOK_MARK);
    expect(existsSync(hookFile())).toBe(false);
  });

  it('says plainly outside a repository', () => {
    const run = spawnSync(process.execPath, [CLI, 'install-hook'], {
      cwd: tempDir(),
      encoding: 'utf8',
      env: { PATH: hookPath(), HOME: tempDir(), GIT_CEILING_DIRECTORIES: dirname(tempDir()) },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/not inside a git repository/);
  });
});
