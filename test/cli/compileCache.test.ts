// The launcher turns on Node's own compile cache (src/cli/launch.ts), seen from outside as a user runs the CLI: the
// cache goes to the user's cache folder and nowhere else, Node's switch turns it off, a folder that cannot be made
// changes nothing the command does, and the output is the same with and without it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFolder } from '../../src/cli/cacheFolder.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { CLI, tempDir } from './gitFixtures.ts';

function run(cwd: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [CLI, 'scan', '--no-git', '--format', 'json', '.'], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1));
}

/** A folder holding one key, built here (nothing key-shaped is committed). */
function folderWithKey(): string {
  const folder = tempDir('keyward-cc-');
  writeFileSync(join(folder, 'a.js'), `const k = "${routerKey()}";\n`);
  return folder;
}

describe('the CLI compile cache', () => {
  it('is kept in XDG_CACHE_HOME/keyward, and the output is the same with it as without', () => {
    const folder = folderWithKey();
    const home = tempDir('keyward-cc-home-');
    const cold = run(folder, { XDG_CACHE_HOME: home, HOME: '/nonexistent' });
    expect(cold.status).toBe(1);
    expect(filesUnder(join(home, 'keyward')).length).toBeGreaterThan(0);
    expect(filesUnder(folder)).toEqual(['a.js']);
    const warm = run(folder, { XDG_CACHE_HOME: home, HOME: '/nonexistent' });
    expect(warm).toEqual(cold);
    const off = run(folder, { XDG_CACHE_HOME: home, HOME: '/nonexistent', NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off).toEqual(cold);
  });

  it('is made nowhere when Node is told not to', () => {
    const home = tempDir('keyward-cc-home-');
    const result = run(tempDir('keyward-cc-'), { XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(result.status).toBe(0);
    expect(filesUnder(home)).toEqual([]);
  });

  it('is never made in the folder being scanned: a relative XDG_CACHE_HOME and no HOME mean no cache', () => {
    const folder = tempDir('keyward-cc-');
    const result = run(folder, { XDG_CACHE_HOME: 'cache' });
    expect(result.status).toBe(0);
    expect(filesUnder(folder)).toEqual([]);
  });

  it('a cache folder that cannot be made changes nothing the command does', () => {
    const home = tempDir('keyward-cc-home-');
    // A file where the cache's folder would go.
    writeFileSync(join(home, 'keyward'), 'not a folder\n');
    const folder = folderWithKey();
    const result = run(folder, { XDG_CACHE_HOME: home });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).findings).toHaveLength(1);
  });
});

describe('cacheFolder', () => {
  it('follows XDG_CACHE_HOME, then the platform’s own place, and only absolute paths', () => {
    expect(cacheFolder('linux', { XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/keyward');
    expect(cacheFolder('linux', { HOME: '/h' })).toBe('/h/.cache/keyward');
    expect(cacheFolder('darwin', { HOME: '/h' })).toBe('/h/Library/Caches/keyward');
    expect(cacheFolder('darwin', { XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/keyward');
    expect(cacheFolder('win32', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' })).toBe(
      'C:\\Users\\u\\AppData\\Local\\keyward\\Cache',
    );
    expect(cacheFolder('linux', { XDG_CACHE_HOME: 'relative', HOME: 'also-relative' })).toBeUndefined();
    expect(cacheFolder('linux', {})).toBeUndefined();
    expect(cacheFolder('win32', { LOCALAPPDATA: 'relative' })).toBeUndefined();
  });
});
