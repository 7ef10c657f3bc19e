import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/cli/nodeVersion.ts';

describe('nodeVersionProblem', () => {
  it.each(['v20.0.0', 'v20.20.2', 'v22.0.0', 'v24.21.0', 'v26.1.0'])('lets scan run on %s', (version) => {
    expect(nodeVersionProblem(version, 'scan')).toBeUndefined();
    expect(nodeVersionProblem(version, 'install-hook')).toBeUndefined();
    expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it.each(['v18.20.0', 'v16.0.0', 'garbage'])('explains plainly that %s is too old for anything', (version) => {
    expect(nodeVersionProblem(version, 'scan')).toMatch(/^keyward needs Node\.js 20 or newer; this is Node\.js/);
  });

  it.each(['ask', 'status'])('%s, which needs undici, says Node 20 is too old and that scan still runs', (command) => {
    expect(nodeVersionProblem('v22.0.0', command)).toBeUndefined();
    expect(nodeVersionProblem('v20.20.2', command)).toBe(
      `keyward ${command} needs Node.js 22 or newer; this is Node.js v20.20.2. Install a current Node.js (https://nodejs.org) and run keyward again. (keyward scan and install-hook run on Node.js 20.)`,
    );
  });
});

describe('the built CLI on the system Node 20', () => {
  const systemNode = '/usr/bin/node';
  const old = existsSync(systemNode) ? execFileSync(systemNode, ['--version']).toString().trim() : '';
  const run = (...args: string[]) => spawnSync(systemNode, ['dist/cli.js', ...args], { encoding: 'utf8' });
  it.skipIf(!old.startsWith('v20') || !existsSync('dist/cli.js'))('scans, and refuses ask plainly', () => {
    expect(run('--help').status).toBe(0);
    const scan = run('scan', '--no-git', 'README.md');
    expect(scan.stdout + scan.stderr).toMatch(/no keys found/);
    expect(scan.status).toBe(0);
    const ask = run('ask', 'hello');
    expect(ask.status).toBe(2);
    expect(ask.stderr).toMatch(/^keyward ask needs Node\.js 22 or newer; this is Node\.js v20/);
  });
});
