import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/cli/nodeVersion.ts';

describe('nodeVersionProblem', () => {
  it.each(['v22.0.0', 'v24.21.0', 'v26.1.0'])('accepts %s', (version) => {
    expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it.each(['v20.20.2', 'v18.0.0', 'garbage'])('explains plainly that %s is too old', (version) => {
    expect(nodeVersionProblem(version)).toMatch(/needs Node\.js 22 or newer; this is Node\.js/);
  });
});

describe('the built CLI on an old Node', () => {
  const systemNode = '/usr/bin/node';
  const old = existsSync(systemNode) ? execFileSync(systemNode, ['--version']).toString().trim() : '';
  it.skipIf(!old.startsWith('v20') || !existsSync('dist/cli.js'))('says so and exits 2', () => {
    const result = spawnSync(systemNode, ['dist/cli.js', '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/keyward needs Node\.js 22 or newer/);
  });
});
