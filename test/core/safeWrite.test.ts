// Writes that land only where they say: real folders, links and hard links.
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafePath, readTarget, restoreTarget, safeTarget, writeTarget } from '../../src/core/safeWrite.ts';

function folders() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'keyward-safe-')));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { base, root, outside };
}

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UnsafePath) return `${error.reason}:${error.path}`;
    throw error;
  }
  return 'safe';
}

describe('safe writes', () => {
  it('creates a new file exclusively with mode 0600', async () => {
    const { root } = folders();
    const target = await safeTarget(root, '.env');
    expect(target).toEqual({ path: join(root, '.env'), exists: false, mode: null });
    await writeTarget(target, 'A=1\n');
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe('A=1\n');
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o600);
    // A file that appeared since the check is not written over.
    await expect(writeTarget(target, 'B=2\n')).rejects.toThrow(/EEXIST/);
  });

  it('replaces an existing file by rename, keeping its mode and leaving a hard link alone', async () => {
    const { root, outside } = folders();
    writeFileSync(join(outside, 'tracked.env'), 'OLD=1\n', { mode: 0o640 });
    linkSync(join(outside, 'tracked.env'), join(root, '.env'));
    const target = await safeTarget(root, '.env');
    expect(target.exists).toBe(true);
    expect(await readTarget(target)).toBe('OLD=1\n');
    await writeTarget(target, 'OLD=1\nNEW=2\n');
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe('OLD=1\nNEW=2\n');
    expect(readFileSync(join(outside, 'tracked.env'), 'utf8')).toBe('OLD=1\n');
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o640);
    await restoreTarget(target, 'OLD=1\n');
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe('OLD=1\n');
  });

  it('refuses a symlinked target, a symlinked folder below the root, a folder, and a path outside', async () => {
    const { root, outside } = folders();
    writeFileSync(join(outside, 'tracked.env'), '');
    symlinkSync(join(outside, 'tracked.env'), join(root, '.env'));
    expect(await reason(safeTarget(root, '.env'))).toBe('symlink:.env');
    symlinkSync('.env.missing', join(root, '.env.dangling'));
    expect(await reason(safeTarget(root, '.env.dangling'))).toBe('symlink:.env.dangling');
    symlinkSync(outside, join(root, 'config'));
    expect(await reason(safeTarget(root, 'config/.env'))).toBe('symlink:config');
    mkdirSync(join(root, 'dir.env'));
    expect(await reason(safeTarget(root, 'dir.env'))).toBe('not_a_file:dir.env');
    expect(await reason(safeTarget(root, '../outside/.env'))).toBe('outside:../outside/.env');
    expect(await reason(safeTarget(root, join(outside, '.env')))).toBe(`outside:${join(outside, '.env')}`);
    expect(await reason(safeTarget(root, 'nope/.env'))).toBe('missing_folder:nope');
    expect(existsSync(join(outside, '.env'))).toBe(false);
  });

  it('accepts a workspace folder that is itself a link, and names the real path', async () => {
    const { base, root } = folders();
    symlinkSync(root, join(base, 'linked-ws'));
    const target = await safeTarget(join(base, 'linked-ws'), '.env');
    expect(target.path).toBe(join(root, '.env'));
    await writeTarget(target, 'A=1\n');
    await restoreTarget(target, '');
    expect(existsSync(join(root, '.env'))).toBe(false);
  });
});
