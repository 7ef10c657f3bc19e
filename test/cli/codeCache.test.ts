// The launcher's code cache (src/cli/codeCache.ts, src/cli/launch.ts), seen from outside as a user runs the CLI:
// where the cache goes, that it is made once and made again only by a heavier run or for a changed bundle, that a
// cache V8 refuses or another user owns is replaced and never trusted, that no cache is kept where another user
// could write, and that the output is the same with and without it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  lchownSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../../src/core/cliParts.ts';
import { HEADER, MAX_CACHES, cacheName, cacheRoot, checkPath, checksum } from '../../src/cli/codeCache.ts';
import { WASM_MODULES, assemble, generatedPath, wasmSource } from '../../scripts/assembleWasm.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { CLI, isRoot, tempDir } from './gitFixtures.ts';

/** Runs the built CLI with its cache under `cacheHome` (XDG_CACHE_HOME). */
function run(cacheHome: string, args: string[], env: NodeJS.ProcessEnv = {}, cli = CLI) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', XDG_CACHE_HOME: cacheHome, ...env },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The cache files under `cacheHome`, each with its first byte (the weight of the run that wrote it). */
function caches(cacheHome: string) {
  const folder = join(cacheHome, 'keyward', 'v8');
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.map((name) => {
    const path = join(folder, name);
    const stat = statSync(path, { bigint: true });
    return { name, path, weight: readFileSync(path)[0], id: `${stat.ino}:${stat.mtimeNs}`, stat };
  });
}

/** The built CLI copied to a folder of its own (its launcher, bundle and parts), as another install of it. */
function installedCli(): { cli: string; bundle: string } {
  const installed = tempDir('keyward-cc-cli-');
  for (const part of [CLI_MAIN, 'archive.js', 'package.json'])
    copyFileSync(join(dirname(CLI), part), join(installed, part));
  const cli = join(installed, 'cli.js');
  copyFileSync(CLI, cli);
  return { cli, bundle: join(installed, CLI_MAIN) };
}

/** A scan of a folder with a key, its JSON report, and the cache it left, with its bytes. */
function cached() {
  const home = tempDir('keyward-cc-home-');
  const dir = keyed();
  const clean = run(home, ['scan', '--no-git', '--format', 'json', dir]);
  const [cache] = caches(home);
  return { home, dir, clean, cache: cache!, bytes: readFileSync(cache!.path) };
}

function folderWith(files: Record<string, string>): string {
  const dir = tempDir('keyward-cc-tree-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const key = routerKey();
const keyed = () => folderWith({ 'app.js': `const k = "${key}";\n` });

describe('where the cache lives', () => {
  it('follows XDG_CACHE_HOME, else the platform’s cache folder, and needs an absolute path', () => {
    const folder = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv) => cacheRoot(platform, env)?.folder;
    expect(cacheRoot('linux', { HOME: '/home/u' })).toEqual({ base: '/home/u', folder: '/home/u/.cache/keyward' });
    expect(cacheRoot('linux', { HOME: '/home/u', XDG_CACHE_HOME: '/var/c' })).toEqual({
      base: '/var/c',
      folder: '/var/c/keyward',
    });
    expect(folder('linux', { HOME: '/home/u', XDG_CACHE_HOME: 'relative' })).toBe('/home/u/.cache/keyward');
    // A Windows path is no absolute path elsewhere: it would name a folder inside the one the CLI runs in.
    expect(folder('linux', { HOME: '/home/u', XDG_CACHE_HOME: 'C:/x' })).toBe('/home/u/.cache/keyward');
    expect(folder('linux', { HOME: 'C:\\Users\\v' })).toBeUndefined();
    expect(folder('darwin', { HOME: '/Users/u' })).toBe('/Users/u/Library/Caches/keyward');
    expect(folder('darwin', { HOME: '/Users/u', XDG_CACHE_HOME: '/x' })).toBe('/x/keyward');
    expect(folder('win32', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' })).toBe(
      'C:\\Users\\u\\AppData\\Local\\keyward\\Cache',
    );
    expect(folder('win32', { LOCALAPPDATA: 'AppData' })).toBeUndefined();
    expect(folder('linux', {})).toBeUndefined();
    expect(folder('linux', { HOME: '~' })).toBeUndefined();
    expect(folder('win32', { HOME: '/home/u' })).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('is refused where another user could put files or links', () => {
    const uid = process.getuid!();
    const unsafe = (path: string, as = uid) => {
      const checked = checkPath(path, as);
      return 'unsafe' in checked ? checked.unsafe : undefined;
    };
    const parent = tempDir('keyward-cc-safe-');
    const folder = join(parent, 'cache');
    mkdirSync(folder, { mode: 0o700 });
    expect(checkPath(folder, uid)).toEqual({ real: folder, missing: [] });
    expect(checkPath(join(folder, 'keyward', 'v8'), uid)).toEqual({ real: folder, missing: ['keyward', 'v8'] });
    chmodSync(folder, 0o777);
    expect(unsafe(folder)).toMatch(/cache is writable by other users/);
    chmodSync(folder, 0o700);
    // A folder above that anyone may write to could have the cache's folder swapped for another; a sticky one not.
    chmodSync(parent, 0o777);
    expect(unsafe(folder)).toMatch(/writable by other users/);
    chmodSync(parent, 0o1777);
    expect(unsafe(folder)).toBeUndefined();
    chmodSync(parent, 0o700);
    // A link on the way is followed, and where it leads is checked the same way.
    const elsewhere = join(parent, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(folder, 'link'));
    expect(checkPath(join(folder, 'link', 'v8'), uid)).toEqual({ real: elsewhere, missing: ['v8'] });
    chmodSync(elsewhere, 0o777);
    expect(unsafe(join(folder, 'link', 'v8'))).toMatch(/elsewhere is writable by other users/);
    // Another user's folder: as root, give it away; else look at it as someone else.
    if (isRoot) {
      chownSync(folder, 65534, 65534);
      expect(unsafe(folder)).toMatch(/cache belongs to another user/);
    } else expect(unsafe(folder, uid + 1)).toMatch(/belongs to another user/);
  });

  it.skipIf(!isRoot)('is never a folder another user links to, and nothing there is written or removed', () => {
    // Another user owns a folder on the way (XDG_CACHE_HOME in a shared place) and links its "v8" to a folder of
    // ours: the resolved path is all ours, the path as given is not.
    const shared = tempDir('keyward-cc-shared-');
    chmodSync(shared, 0o755);
    const theirs = join(shared, 'keyward');
    mkdirSync(theirs);
    const ours = tempDir('keyward-cc-ours-');
    writeFileSync(join(ours, 'notes.txt'), 'mine');
    const old = Date.now() / 1000 - 40 * 86_400;
    utimesSync(join(ours, 'notes.txt'), old, old);
    symlinkSync(ours, join(theirs, 'v8'));
    lchownSync(join(theirs, 'v8'), 65534, 65534);
    chownSync(theirs, 65534, 65534);
    const result = run(shared, ['scan', '--no-git', keyed()]);
    expect(result.status).toBe(1);
    expect(readdirSync(ours)).toEqual(['notes.txt']);
  });
});

describe('the checksum of a cache', () => {
  /** FNV-1a over little-endian 64-bit words, then the last bytes: cacheChecksum.wat's sum, in BigInt arithmetic. */
  function reference(data: Uint8Array): bigint {
    const mask = (1n << 64n) - 1n;
    const prime = 0x100000001b3n;
    let sum = 0xcbf29ce484222325n ^ BigInt(data.length);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    for (; at + 8 <= data.length; at += 8) sum = ((sum ^ view.getBigUint64(at, true)) * prime) & mask;
    for (; at < data.length; at++) sum = ((sum ^ BigInt(data[at]!)) * prime) & mask;
    return BigInt.asIntN(64, sum);
  }

  it('is FNV-1a over 64-bit words and then bytes, at every length across two pages of the module', () => {
    const data = randomBytes(140_000);
    for (const length of [0, 1, 7, 8, 9, 15, 16, 17, 100, 65_535, 65_536, 65_537, 140_000])
      expect(checksum(data.subarray(0, length))).toBe(reference(data.subarray(0, length)));
  });

  it('changes with any one byte changed', () => {
    const data = randomBytes(4099);
    const sum = checksum(data);
    for (const at of [0, 7, 8, 2048, 4095, 4096, 4098]) {
      const changed = Buffer.from(data);
      changed[at] = changed[at]! ^ 1;
      expect(checksum(changed)).not.toBe(sum);
    }
  });

  it('is assembled from its .wat as generated (npm run wasm)', async () => {
    expect(WASM_MODULES.cacheChecksum.out).toBe('src/cli/cacheChecksumWasm.ts');
    expect(readFileSync(generatedPath('cacheChecksum'), 'utf8')).toBe(
      wasmSource('cacheChecksum', await assemble('cacheChecksum')),
    );
  });
});

describe('the code cache of a keyward run', () => {
  it('is written once by the first run, read by the next, and the output is the same without it', () => {
    const home = tempDir('keyward-cc-home-');
    const dir = keyed();
    const first = run(home, ['scan', '--no-git', '--format', 'json', dir]);
    expect(first.status).toBe(1);
    const [cache, ...others] = caches(home);
    expect(others).toEqual([]);
    expect(cache!.name).toMatch(new RegExp(`^${process.version.replace(/\./g, '\\.')}-${process.arch}-.*\\.v8$`));
    // A scan of one file that found a key.
    expect(cache!.weight).toBe(2);
    expect(Number(cache!.stat.mode) & 0o777).toBe(0o600);
    expect(statSync(dirname(cache!.path)).mode & 0o777).toBe(0o700);
    const second = run(home, ['scan', '--no-git', '--format', 'json', dir]);
    expect(caches(home).map((c) => c.id)).toEqual([cache!.id]);
    expect(second).toEqual(first);
    const off = tempDir('keyward-cc-off-');
    expect(run(off, ['scan', '--no-git', '--format', 'json', dir], { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual(first);
    expect(caches(off)).toEqual([]);
  });

  it('is written again by a run that used more of the CLI, not by one that used less', () => {
    const home = tempDir('keyward-cc-home-');
    expect(run(home, ['--version']).status).toBe(0);
    expect(caches(home).map((c) => c.weight)).toEqual([0]);
    expect(run(home, ['scan', '--no-git', folderWith({ 'a.txt': 'nothing\n' })]).status).toBe(0);
    expect(caches(home).map((c) => c.weight)).toEqual([1]);
    expect(run(home, ['scan', '--no-git', keyed()]).status).toBe(1);
    const [kept] = caches(home);
    expect(kept!.weight).toBe(2);
    expect(run(home, ['--version']).status).toBe(0);
    expect(run(home, ['scan', '--no-git', folderWith({})]).status).toBe(0);
    expect(caches(home).map((c) => c.id)).toEqual([kept!.id]);
  });

  it('made after a scan of many files (V8 flags changed on the way) is taken by the next run', () => {
    // The scan turns TurboFan off for a while (topTier.ts) and V8 stamps a cache with its flags: they are put back
    // first, or every run would refuse the cache and write it again.
    const dir = folderWith({ 'app.js': `const k = "${key}";\n` });
    for (let i = 0; i < 300; i++) writeFileSync(join(dir, `f${i}.txt`), `line ${i}\n`);
    // Whether the first run really turned TurboFan off (node:v8 loaded), or was already too old when it listed the
    // folder (a machine so busy that the CLI took a quarter second to start), when the tier is rightly left alone.
    const tools = tempDir('keyward-cc-hook-');
    writeFileSync(
      join(tools, 'hook.cjs'),
      `const fs = require('fs');
let listedAt;
const readdir = fs.readdirSync;
fs.readdirSync = function (...args) {
  listedAt ??= process.uptime() * 1000;
  return readdir.apply(this, args);
};
process.on('exit', () => fs.writeFileSync(process.env.KEYWARD_TEST_SEEN, JSON.stringify({
  deferred: process.moduleLoadList.includes('NativeModule v8'), listedAt })));
`,
    );
    const env = { NODE_OPTIONS: `--require ${join(tools, 'hook.cjs')}`, KEYWARD_TEST_SEEN: join(tools, 'seen.json') };
    const home = tempDir('keyward-cc-home-');
    expect(run(home, ['scan', '--no-git', dir], env).status).toBe(1);
    const seen = JSON.parse(readFileSync(env.KEYWARD_TEST_SEEN, 'utf8')) as { deferred: boolean; listedAt: number };
    expect(seen.deferred || seen.listedAt >= 250).toBe(true);
    const [made] = caches(home);
    expect(made!.weight).toBe(3);
    expect(run(home, ['scan', '--no-git', dir], env).status).toBe(1);
    expect(caches(home).map((c) => c.id)).toEqual([made!.id]);
  });

  it('damaged (V8 would end the process on it) is caught by its checksum and replaced; the run is as without it', () => {
    const { home, dir, clean, cache, bytes } = cached();
    // Past V8's own header, which it does check: V8 took this and failed fatally before the checksum.
    bytes.fill(0x5a, HEADER + 64);
    writeFileSync(cache.path, bytes);
    expect(run(home, ['scan', '--no-git', '--format', 'json', dir])).toEqual(clean);
    const [replaced] = caches(home);
    expect(replaced!.id).not.toBe(cache.id);
    expect(readFileSync(replaced!.path).subarray(HEADER + 64, HEADER + 96)).not.toEqual(Buffer.alloc(32, 0x5a));
    // Cut short, down to its header: the same.
    writeFileSync(replaced!.path, readFileSync(replaced!.path).subarray(0, HEADER));
    expect(run(home, ['scan', '--no-git', '--format', 'json', dir])).toEqual(clean);
    expect(statSync(replaced!.path).size).toBeGreaterThan(HEADER);
  });

  it('keeps the caches of other builds used most lately, MAX_CACHES in all, none past 30 days, and nothing else', () => {
    const home = tempDir('keyward-cc-home-');
    const folder = join(home, 'keyward', 'v8');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const now = Date.now() / 1000;
    const old = (name: string, daysAgo: number) => {
      writeFileSync(join(folder, name), 'another build');
      utimesSync(join(folder, name), now - daysAgo * 86_400, now - daysAgo * 86_400);
    };
    const build = (i: number) => `v22.1.0-x64-abc-${i}.v8`;
    for (let i = 1; i <= MAX_CACHES + 2; i++) old(build(i), i);
    old(build(99), 40);
    old('notes.txt', 40);
    old('v22.1.0-x64-abc-5.v8.old', 40);
    run(home, ['scan', '--no-git', keyed()]);
    const left = readdirSync(folder);
    // This run's, the builds used most lately, and what is not named as a cache.
    const kept = Array.from({ length: MAX_CACHES - 1 }, (_, i) => build(i + 1));
    expect(left.filter((name) => name.startsWith('v22.1.0')).sort()).toEqual(
      [...kept, 'v22.1.0-x64-abc-5.v8.old'].sort(),
    );
    expect(left).toContain('notes.txt');
    expect(left.filter((name) => name.startsWith(process.version))).toHaveLength(1);
  });

  it('made for another source of the same length under the same name is not used', () => {
    // V8 checks only a source's length: two bundles of one length that share a name (a file system with coarse
    // times, an edit within the same second) tell apart by the checksum of the source in the cache.
    const home = tempDir('keyward-cc-home-');
    const { cli, bundle } = installedCli();
    expect(run(home, ['scan', '--no-git', keyed()], {}, cli).status).toBe(1);
    const [made] = caches(home);
    // Another program of exactly the bundle's length in its place, and the real bundle's cache under its name.
    const length = statSync(bundle).size;
    const other = `process.stdout.write('the other program');`;
    writeFileSync(bundle, other + ' '.repeat(length - other.length));
    renameSync(made!.path, join(dirname(made!.path), cacheName(statSync(bundle, { bigint: true }), [], '')));
    const result = run(home, ['scan', '--no-git', keyed()], {}, cli);
    expect(result.stdout).toBe('the other program');
    expect(result.status).toBe(0);
  });

  it('refused by V8 (made by another V8, or under other flags) is replaced', () => {
    const { home, dir, clean, cache, bytes } = cached();
    // V8's magic number, the first word of its header; the file's own checksum made right again.
    bytes.fill(0, HEADER, HEADER + 4);
    bytes.writeBigInt64LE(checksum(bytes.subarray(HEADER))!, 8);
    writeFileSync(cache.path, bytes);
    expect(run(home, ['scan', '--no-git', '--format', 'json', dir])).toEqual(clean);
    const [replaced] = caches(home);
    expect(replaced!.id).not.toBe(cache.id);
    expect(readFileSync(replaced!.path).subarray(HEADER, HEADER + 4)).not.toEqual(Buffer.alloc(4));
  });

  it('is not used under --jitless (no WebAssembly to check it with), and the CLI works the same', () => {
    const home = tempDir('keyward-cc-home-');
    const result = spawnSync(process.execPath, ['--jitless', CLI, 'scan', '--no-git', keyed()], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: home },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/routing service key/);
    expect(caches(home)).toEqual([]);
  });

  it.skipIf(!isRoot)('is never read from a file another user owns', () => {
    const home = tempDir('keyward-cc-home-');
    const dir = keyed();
    run(home, ['scan', '--no-git', dir]);
    const [cache] = caches(home);
    chownSync(cache!.path, 65534, 65534);
    run(home, ['scan', '--no-git', dir]);
    // Not taken (a good cache of the same weight would have been kept as it was): made again, by this user.
    const [again] = caches(home);
    expect(again!.stat.uid).toBe(0n);
  });

  it('is not made under a cache folder that does not exist: its base is never created', () => {
    const parent = tempDir('keyward-cc-home-');
    const missing = join(parent, 'no-such-folder');
    expect(run(missing, ['scan', '--no-git', keyed()]).status).toBe(1);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('is not kept where other users could write, and the CLI works the same', () => {
    const home = tempDir('keyward-cc-home-');
    chmodSync(home, 0o777);
    const dir = keyed();
    const result = run(home, ['scan', '--no-git', dir]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/routing service key/);
    expect(caches(home)).toEqual([]);
  });

  it('belongs to one build of the bundle: a changed bundle file gets a cache of its own', () => {
    const home = tempDir('keyward-cc-home-');
    const dir = keyed();
    const { cli, bundle } = installedCli();
    run(home, ['scan', '--no-git', dir], {}, cli);
    const before = caches(home).map((c) => c.name);
    expect(before).toHaveLength(1);
    // The same bytes, touched: its times change, as an edit or a reinstall changes them.
    const { atime, mtime } = statSync(bundle);
    utimesSync(bundle, atime, new Date(mtime.getTime() + 1000));
    expect(run(home, ['scan', '--no-git', dir], {}, cli).status).toBe(1);
    const after = caches(home).map((c) => c.name);
    expect(after).toHaveLength(2);
    expect(after).toEqual(expect.arrayContaining(before));
  });
});
