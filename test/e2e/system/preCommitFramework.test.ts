// The `keyward` hook of .pre-commit-hooks.yaml, run by the real pre-commit tool
// (Debian's package; .ci/run installs it): a staged key blocks, a clean change passes.
// The hook installs nothing, so this needs no network, and keyward runs on the
// system's Node 20 when there is one.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { routerKey } from '../../emulator/keyFactory.ts';
import { type Repo, makeRepo, tempDir } from '../../cli/gitFixtures.ts';
import { hookPath, keywardBinDir } from '../../cli/keywardOnPath.ts';

const systemNode = '/usr/bin/node';
const node20 =
  existsSync(systemNode) && execFileSync(systemNode, ['--version']).toString().startsWith('v20')
    ? systemNode
    : undefined;

let hooks: Repo;
let target: Repo;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  const found = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error('the pre-commit tool is missing: apt-get install pre-commit (see .ci/run)');
  // A hook repository holding exactly what this one publishes for pre-commit.
  hooks = makeRepo();
  mkdirSync(join(hooks.dir, 'packages/cli'), { recursive: true });
  for (const file of ['.pre-commit-hooks.yaml', 'packages/cli/pre-commit-framework.sh'])
    copyFileSync(resolve(file), join(hooks.dir, file));
  hooks.git('add', '.');
  hooks.git('commit', '-q', '-m', 'hooks');
  target = makeRepo();
  target.write('README.md', 'hello\n');
  target.git('add', '.');
  target.git('commit', '-q', '-m', 'one');
  const home = tempDir('keyward-pc-home-');
  env = {
    PATH: hookPath(keywardBinDir(node20)),
    HOME: home,
    PRE_COMMIT_HOME: join(home, 'cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C.UTF-8',
  };
});

const tryRepo = () =>
  spawnSync('pre-commit', ['try-repo', hooks.dir, 'keyward', '--color', 'never'], {
    cwd: target.dir,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('pre-commit try-repo with the keyward hook', () => {
  it('blocks a staged key and passes a clean change', () => {
    target.write('leak.js', `const k = "${routerKey()}";\n`);
    target.git('add', 'leak.js');
    const blocked = tryRepo();
    expect(blocked.stdout).toMatch(/keyward \(API keys in staged files\)\.+Failed/);
    expect(blocked.stdout).toMatch(/leak\.js:1:12: routing service key sk-or-v1-…/);
    expect(blocked.stdout + blocked.stderr).toMatch(/Keyward's pre-commit hook refused this commit/);
    expect(blocked.status).toBe(1);

    target.write('leak.js', 'const k = process.env.ROUTER_KEY;\n');
    target.git('add', 'leak.js');
    const passed = tryRepo();
    expect(passed.stdout).toMatch(/keyward \(API keys in staged files\)\.+Passed/);
    expect(passed.status).toBe(0);
  });

  it('installed with `pre-commit install`, refuses a real commit that adds a key', () => {
    const rev = hooks.git('rev-parse', 'HEAD').trim();
    target.write(
      '.pre-commit-config.yaml',
      `repos:\n  - repo: ${JSON.stringify(hooks.dir)}\n    rev: ${rev}\n    hooks:\n      - id: keyward\n`,
    );
    expect(spawnSync('pre-commit', ['install'], { cwd: target.dir, env, encoding: 'utf8' }).status).toBe(0);
    const commit = () =>
      spawnSync('git', ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'x'], {
        cwd: target.dir,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
    target.write('config.py', `KEY = "${routerKey()}"\n`);
    target.git('add', '.pre-commit-config.yaml', 'config.py');
    const refused = commit();
    expect(refused.stdout + refused.stderr).toMatch(/config\.py:1:8: routing service key/);
    expect(refused.status).not.toBe(0);
    target.write('config.py', 'import os\nKEY = os.environ["ROUTER_KEY"]\n');
    target.git('add', 'config.py');
    const clean = commit();
    expect(clean.stdout + clean.stderr).toMatch(/Passed/);
    expect(clean.status).toBe(0);
  });

  it('never runs a keyward the repository supplies: not through npx, not from its node_modules/.bin on PATH', () => {
    // What a hostile clone can carry: node_modules/.bin/keyward that reports nothing and exits 0.
    const marker = join(tempDir('keyward-marker-'), 'ran');
    target.write('package.json', '{ "name": "p", "private": true }\n');
    target.write('.gitignore', 'node_modules/\n');
    const local = join(target.dir, 'node_modules', '.bin');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'keyward'), `#!/bin/sh\necho planted > ${JSON.stringify(marker)}\nexit 0\n`);
    chmodSync(join(local, 'keyward'), 0o755);
    target.write('planted.js', `const k = "${routerKey()}";\n`);
    target.git('add', 'package.json', '.gitignore', 'planted.js');
    const run = (PATH: string) =>
      spawnSync('pre-commit', ['try-repo', hooks.dir, 'keyward', '--color', 'never'], {
        cwd: target.dir,
        env: { ...env, PATH },
        encoding: 'utf8',
        timeout: 120_000,
      });
    // No keyward on PATH (npx is, in /usr/bin): the old script fell back to npx --no-install keyward.
    const none = run(hookPath());
    expect(none.status).toBe(1);
    expect(none.stdout + none.stderr).toMatch(/the keyward command was not found on PATH/);
    const first = run(hookPath(local));
    expect(first.status).toBe(1);
    expect(first.stdout + first.stderr).toMatch(/lies inside this repository .* it is not run/);
    expect(existsSync(marker)).toBe(false);
    // A keyward installed outside the repository still scans.
    const outside = run(hookPath(keywardBinDir(node20), local));
    expect(outside.stdout).toMatch(/planted\.js:1:12: routing service key/);
    expect(outside.status).toBe(1);
    expect(existsSync(marker)).toBe(false);
    target.git('rm', '-q', '--cached', 'planted.js');
  });
});
