// listTargets without git (src/core/scan/targets.ts): a walk keeps a folder's plain files as names
// (FolderFiles) rather than an object and a path each, and a scan reads and reports in the listing's order.
// Flattened, the listing must be exactly what the walk met, in the order it met it: files after a subfolder
// after that subfolder's files, a linked file where it stood, each file once when targets overlap.
import {
  type Dirent,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitStatusCache } from '../../../src/core/scan/gitStatus.ts';
import {
  type FolderFiles,
  type Listed,
  countFiles,
  isFolderFiles,
  listTargets,
} from '../../../src/core/scan/targets.ts';

/** Every file of a listing as [path, shown, linkTo], in order. */
function flatten(files: readonly (Listed | FolderFiles)[]): [string, string, string | undefined][] {
  return files.flatMap((item): [string, string, string | undefined][] =>
    isFolderFiles(item)
      ? item.names.map((name) => [item.prefix + name, item.shownPrefix + name, undefined])
      : [[item.path, item.shown, item.linkTo]],
  );
}

/** The order a depth-first walk meets files in, from readdir's own order (which a test cannot choose). */
function walkOrder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry: Dirent) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walkOrder(path);
    return [path];
  });
}

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'keyward-targets-')));
  made.push(root);
  // Files and folders of like names, enough of them that they interleave in any readdir order (checked below).
  for (let i = 0; i < 30; i++) {
    writeFileSync(join(root, `n${i}.txt`), 'x');
    mkdirSync(join(root, `n${i}`));
    for (let j = 0; j < 3; j++) writeFileSync(join(root, `n${i}`, `g${j}.txt`), 'y');
  }
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'node_modules', 'skipped.js'), 'z');
  symlinkSync('n0.txt', join(root, 'link.txt'));
  return root;
}

const options = () => ({ useGit: false, git: new GitStatusCache() });

describe('listTargets without git', () => {
  it('lists every file in the order the walk met it, runs of plain files as names', async () => {
    const root = tree();
    const listing = await listTargets([root], options());
    const flat = flatten(listing.files);
    const order = walkOrder(root);
    // The case that matters: a file of the root met after a subfolder's files.
    const inRoot = (path: string) => !path.slice(root.length + 1).includes(sep);
    expect(order.some((path, i) => inRoot(path) && order.slice(0, i).some((before) => !inRoot(before)))).toBe(true);
    expect(flat.map(([path]) => path)).toEqual(order);
    expect(countFiles(listing.files)).toBe(flat.length);
    // 30 + 90 plain files and the link: far fewer items than files, yet more than one run in the root.
    expect(listing.files.filter(isFolderFiles).length).toBeGreaterThan(31);
    expect(listing.files.length).toBeLessThan(flat.length);
    for (const item of listing.files.filter(isFolderFiles)) {
      expect(item.prefix.endsWith(sep)).toBe(true);
      expect(item.shownPrefix).toBe(item.prefix);
      expect(item.state).toBe('unknown');
    }
    // The link is an item of its own, where it stood, with the file it names.
    const link = flat.find(([path]) => path.endsWith('link.txt'));
    expect(link?.[2]).toBe(join(root, 'n0.txt'));
    expect(listing.skipped).toEqual([{ path: join(root, 'node_modules'), reason: 'excluded-folder' }]);
  });

  it('shows files under the folder as the user named it, read from the real one', async () => {
    const root = tree();
    const named = join(root, 'n3-link');
    symlinkSync(join(root, 'n3'), named);
    const listing = await listTargets([named], options());
    expect(flatten(listing.files).map(([path, shown]) => [path, shown])).toEqual(
      walkOrder(join(root, 'n3')).map((path) => [path, path.replace(join(root, 'n3'), named)]),
    );
  });

  it('lists a file once when two targets hold it', async () => {
    const root = tree();
    const listing = await listTargets([join(root, 'n1'), root, join(root, 'n2.txt')], options());
    const paths = flatten(listing.files).map(([path]) => path);
    expect(paths.length).toBe(new Set(paths).size);
    // n1's files first, as its target came first.
    expect(paths.slice(0, 3).every((path) => path.startsWith(join(root, 'n1') + sep))).toBe(true);
    expect([...paths].sort()).toEqual(walkOrder(root).sort());
  });
});
