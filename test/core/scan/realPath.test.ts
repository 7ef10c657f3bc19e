// realPathOf and realPathOfSync (src/core/scan/gitStatus.ts) give one answer: a path's real path, or for a
// path that does not exist yet, its nearest existing folder's real path with the missing names below it.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realPathOf, realPathOfSync } from '../../../src/core/scan/gitStatus.ts';

describe('realPathOf / realPathOfSync', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'keyward-real-')));
  mkdirSync(join(root, 'folder'));
  writeFileSync(join(root, 'folder', 'file.txt'), 'x');
  symlinkSync(join(root, 'folder'), join(root, 'link'));

  it.each([
    ['an existing file', join(root, 'folder', 'file.txt'), join(root, 'folder', 'file.txt')],
    ['a file through a linked folder', join(root, 'link', 'file.txt'), join(root, 'folder', 'file.txt')],
    ['a file not there yet', join(root, 'link', 'new.txt'), join(root, 'folder', 'new.txt')],
    ['folders not there yet', join(root, 'link', 'a', 'b', 'c.txt'), join(root, 'folder', 'a', 'b', 'c.txt')],
    ['a path with dots', join(root, 'link', '..', 'folder', 'x'), join(root, 'folder', 'x')],
  ])('%s', async (_name, path, real) => {
    expect(realPathOfSync(path)).toBe(real);
    expect(await realPathOf(path)).toBe(real);
  });
});
