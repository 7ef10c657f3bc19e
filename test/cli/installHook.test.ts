// `keyward install-hook`: a hook that runs the keyward that installed it (recorded by
// absolute path, never one the repository supplies), says it is Keyward's when it
// stops a commit, and never replaces another's hook unasked.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CLI_MAIN, CLI_SCAN_PARTS } from '../../src/core/cliParts.ts';
import { HOOK_MARK } from '../../src/core/scan/preCommitHook.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { CLI, type Repo, cliCacheHome, makeRepo, tempDir } from './gitFixtures.ts';
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
    env: { PATH: hookPath(), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() },
  });

/** A real `git commit`, hooks on, as a person runs it. */
const commit = (path: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x', ...args], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { PATH: path, HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome(), GIT_CONFIG_NOSYSTEM: '1' },
  });
const hookFile = () => join(repo.dir, '.git', 'hooks', 'pre-commit');

/**
 * What a hostile clone can carry: node_modules/.bin/keyward that reports nothing, exits 0 and
 * leaves a marker. `npx --no-install keyward` (the old fallback) ran exactly this.
 */
function plantKeyward(): string {
  const marker = join(tempDir('keyward-marker-'), 'ran');
  repo.write('package.json', '{ "name": "p", "private": true }\n');
  repo.write('.gitignore', 'node_modules/\n');
  const local = join(repo.dir, 'node_modules', '.bin');
  mkdirSync(local, { recursive: true });
  writeFileSync(join(local, 'keyward'), `#!/bin/sh\necho planted > ${JSON.stringify(marker)}\nexit 0\n`);
  chmodSync(join(local, 'keyward'), 0o755);
  repo.git('add', 'package.json', '.gitignore');
  return marker;
}

/** The built CLI copied to `dir`, as a keyward installed there: its launcher and the files beside it. */
function keywardAt(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const part of [...CLI_SCAN_PARTS, 'package.json']) copyFileSync(join(dirname(CLI), part), join(dir, part));
  const script = join(dir, 'cli.js');
  copyFileSync(CLI, script);
  return script;
}

describe('keyward install-hook', () => {
  it('writes a hook that runs the keyward that installed it, and refuses a staged key with how to bypass once', () => {
    const run = install();
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/installed the pre-commit hook at .*pre-commit/);
    expect(run.stdout).toContain(`It runs "scan --staged" of this keyward: ${realpathSync(process.execPath)} ${CLI}`);
    const hook = readFileSync(hookFile(), 'utf8');
    expect(hook).toContain(HOOK_MARK);
    expect(hook).toContain(`set -- '${realpathSync(process.execPath)}' '${CLI}'`);
    expect(hook).not.toContain(repo.dir);
    expect(hook).not.toMatch(/npx --no-install|command -v/);

    repo.write('leak.js', `const k = "${routerKey()}";\n`);
    repo.git('add', 'leak.js');
    // No keyward on PATH at all: the recorded one runs.
    const refused = commit(hookPath(tempDir()));
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/leak\.js:1:12: routing service key/);
    expect(refused.stderr).toMatch(/Keyward's pre-commit hook refused this commit/);
    expect(refused.stderr).toMatch(/git commit --no-verify/);

    repo.write('leak.js', 'const k = process.env.KEY;\n');
    repo.git('add', 'leak.js');
    expect(commit(hookPath()).status).toBe(0);
  });

  it('never runs a keyward the repository supplies (node_modules/.bin, on PATH or through npx)', () => {
    expect(install().status).toBe(0);
    const marker = plantKeyward();
    repo.write('app.js', `const k = "${routerKey()}";\n`);
    repo.git('add', 'app.js');
    // Without keyward on PATH (the old hook fell back to npx --no-install), and with the planted one first on PATH.
    for (const path of [hookPath(), hookPath(join(repo.dir, 'node_modules', '.bin'))]) {
      const refused = commit(path);
      expect(refused.stdout + refused.stderr).toMatch(/app\.js:1:12: routing service key/);
      expect(refused.status).toBe(1);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('installed from a keyward inside the repository, runs a copy in the git folder that no checkout replaces', () => {
    const inRepo = keywardAt(join(repo.dir, 'node_modules', 'keyward', 'dist'));
    repo.write('.gitignore', 'node_modules/\n');
    // The copy's files are CommonJS whatever the project says of its own .js files.
    repo.write('package.json', '{ "type": "module" }\n');
    repo.git('add', '.gitignore', 'package.json');
    const run = spawnSync(process.execPath, [inRepo, 'install-hook'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { PATH: hookPath(), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() },
    });
    expect(run.status).toBe(0);
    const copy = join(realpathSync(repo.dir), '.git', 'keyward', 'keyward.cjs');
    expect(readFileSync(hookFile(), 'utf8')).toContain(`'${copy}'`);
    expect(readFileSync(hookFile(), 'utf8')).not.toContain(inRepo);
    // The launcher loads its bundle from beside it: the bundle and what a scan loads are copied with it.
    for (const part of CLI_SCAN_PARTS)
      expect(readFileSync(join(dirname(copy), part))).toEqual(readFileSync(join(dirname(inRepo), part)));
    // A checkout (or anything else) now replaces the project's keyward with one that passes everything.
    const marker = join(tempDir('keyward-marker-'), 'ran');
    const planted = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); process.exit(0);\n`;
    writeFileSync(inRepo, planted);
    writeFileSync(join(dirname(inRepo), CLI_MAIN), planted);
    repo.write('app.js', `const k = "${routerKey()}";\n`);
    repo.git('add', 'app.js');
    const refused = commit(hookPath());
    expect(refused.stdout + refused.stderr).toMatch(/app\.js:1:12: routing service key/);
    expect(refused.status).toBe(1);
    expect(existsSync(marker)).toBe(false);
  });

  it('blocks the commit and says how to reinstall when the recorded keyward is gone or cannot run', () => {
    const home = tempDir('keyward-installed-');
    const script = keywardAt(join(home, 'lib'));
    expect(
      spawnSync(process.execPath, [script, 'install-hook'], {
        cwd: repo.dir,
        env: { PATH: hookPath(), HOME: repo.dir, XDG_CACHE_HOME: cliCacheHome() },
      }).status,
    ).toBe(0);
    repo.write('a.txt', 'fine\n');
    repo.git('add', 'a.txt');

    // A keyward that will not start (an old Node says so and exits 2).
    writeFileSync(script, 'console.error("keyward needs Node.js 20 or newer"); process.exit(2);\n');
    const failed = commit(hookPath(keywardBinDir()));
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/keyward needs Node\.js 20 or newer/);
    expect(failed.stderr).toMatch(/Keyward's pre-commit hook could not check this commit/);
    expect(failed.stderr).toMatch(/git commit --no-verify/);

    rmSync(join(home, 'lib'), { recursive: true });
    // Gone: blocked, even with another keyward on PATH and one in node_modules.
    const marker = plantKeyward();
    const missing = commit(hookPath(keywardBinDir(), join(repo.dir, 'node_modules', '.bin')));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /Keyward's pre-commit hook cannot run the keyward it was installed with: .*cli\.js is gone\./,
    );
    expect(missing.stderr).toMatch(/npm install --global keyward\) and run keyward install-hook again/);
    expect(missing.stderr).toMatch(/git commit --no-verify/);
    expect(existsSync(marker)).toBe(false);
    expect(commit(hookPath(), '--no-verify').status).toBe(0);
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
