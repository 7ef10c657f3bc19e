// How many threads a folder scan gets (src/core/scan/scanPool.ts): one fewer than the cores unless --threads says,
// one for a listing too small to share, and never more than its batches. A one-thread scan already keeps a second
// core busy with the engine's compiler and collector threads; on 2 cores a worker made the bench's scans slower.
import { describe, expect, it } from 'vitest';
import { defaultThreads, threadsFor } from '../../../src/core/scan/scanPool.ts';
import type { FolderFiles } from '../../../src/core/scan/targets.ts';

/** A folder of `count` files that the test never reads (a listing of this size is shared by its count alone). */
const folder = (count: number): FolderFiles => ({
  prefix: '/nowhere/',
  shownPrefix: '/nowhere/',
  state: 'untracked',
  names: Array.from({ length: count }, (_, i) => `f${i}.js`),
});

describe('threads for a folder scan', () => {
  it('leaves one core to the engine by default, and keeps at least one thread', () => {
    expect([1, 2, 3, 4, 16].map(defaultThreads)).toEqual([1, 1, 2, 3, 15]);
    const large = [folder(20_000)];
    expect(threadsFor(large, undefined, () => 2)).toBe(1);
    expect(threadsFor(large, undefined, () => 8)).toBe(7);
  });

  it('takes --threads as asked, up to the batches there are', () => {
    expect(threadsFor([folder(20_000)], 2, () => 2)).toBe(2);
    expect(threadsFor([folder(20_000)], 1, () => 16)).toBe(1);
    // 1,600 files are 34 batches of 48.
    expect(threadsFor([folder(1_600)], 64, () => 64)).toBe(34);
  });

  it('keeps a small listing on one thread, whatever the cores', () => {
    expect(threadsFor([folder(200)], undefined, () => 16)).toBe(1);
    expect(threadsFor([folder(200)], 8, () => 16)).toBe(1);
  });
});
