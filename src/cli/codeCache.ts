// V8's compiled bytecode of the CLI, kept between runs in the user's cache folder. Compiling the bundle's functions
// is a large part of a short run: with the cache, `keyward scan` of an empty folder took 33.8 ms instead of 37.5,
// ten files with keys 37.4 instead of 45.3, and the bench's 10,674 files 1.21-1.22× rg -j1's wall time instead of
// 1.27-1.28× (Node 24, interleaved). Node's own compile cache (module.enableCompileCache) saved a third of that: it
// keeps what V8 compiled when the module was first compiled, before any function ran, so the functions a scan calls
// are compiled again on every run. This cache is made when a run ends, with the functions it compiled; a run that
// used more of the CLI than the one that made it makes it again (runWeight.ts). A cache of every function (V8's
// --no-lazy) was tried: 580 KB against 220, and reading it made each run 4 ms slower than this one.
//
// Bytecode read from a file is code this process will run: the cache is used only where no other user could have
// written it (every folder and link on the way to it this user's or root's, and none that another user can change),
// and it is made by this user alone (mode 0600, written to a fresh file and renamed into place). V8 checks that a
// cache was made by the same V8 with the same flags and for a source of the same length; the file's name ties it
// to the bundle's file (device, inode, size and both times), and a checksum of the source in it to its bytes. V8
// does not check the cache's bytes in a release build (a damaged cache ends the process in a fatal error): a
// checksum of them is checked first (cacheChecksum.wat). Any trouble with the cache only means compiling as without
// one: the cache is for speed, never for what the command does.
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  statSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve, win32 } from 'node:path';
import { CACHE_CHECKSUM_WASM_BASE64 } from './cacheChecksumWasm.ts';

/** Where the cache lives (`folder`), under `base`, a folder of the user's that must already exist. */
export interface CacheRoot {
  base: string;
  folder: string;
}

/**
 * Where the cache lives: under XDG_CACHE_HOME when it is set (on macOS too, as other command-line tools do), else
 * where the platform keeps a user's caches; undefined when the environment names no such folder by an absolute
 * path (a relative one would put the cache in whatever folder the CLI runs in: a repository being scanned).
 */
export function cacheRoot(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): CacheRoot | undefined {
  const absolute = (path: string | undefined) =>
    path !== undefined && (platform === 'win32' ? win32.isAbsolute(path) : path.startsWith('/')) ? path : undefined;
  if (platform === 'win32') {
    const local = absolute(env.LOCALAPPDATA);
    return local === undefined ? undefined : { base: local, folder: win32.join(local, 'keyward', 'Cache') };
  }
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg !== undefined) return { base: xdg, folder: join(xdg, 'keyward') };
  const home = absolute(env.HOME);
  const under = platform === 'darwin' ? ['Library', 'Caches'] : ['.cache'];
  return home === undefined ? undefined : { base: home, folder: join(home, ...under, 'keyward') };
}

/** How a path checks out: unsafe, and why; or safe as far as it exists (`real`), with the names still to make. */
export type PathCheck = { unsafe: string } | { real: string; missing: string[] };

/**
 * Whether `path` is a safe place for code this user will run, walked from the root as given (POSIX): every folder
 * on the way, and every link, must belong to `uid` or root, and no folder may let another user put something else
 * in place of what it holds: writable by no one else, or (as /tmp) sticky, where only an entry's owner may rename
 * or remove it. A link is followed and its target walked the same way. As OpenSSH checks a user's key files; once
 * it passes, no other user can change what the path names.
 */
export function checkPath(path: string, uid: number, links = 0): PathCheck {
  const names = resolve(path).split('/').filter(Boolean);
  const top = lstatSync('/');
  if (top.uid !== uid && top.uid !== 0) return { unsafe: '/ belongs to another user' };
  let real = '/';
  for (let i = 0; i < names.length; i++) {
    const next = join(real, names[i]!);
    let stat;
    try {
      stat = lstatSync(next);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { real, missing: names.slice(i) };
      throw error;
    }
    if (stat.uid !== uid && stat.uid !== 0) return { unsafe: `${next} belongs to another user` };
    if (stat.isSymbolicLink()) {
      if (links >= 8) return { unsafe: `${next}: too many links` };
      const followed = checkPath(resolve(real, readlinkSync(next)), uid, links + 1);
      if ('unsafe' in followed) return followed;
      if (followed.missing.length > 0) return { unsafe: `${next} links to a folder that does not exist` };
      real = followed.real;
      continue;
    }
    if (!stat.isDirectory()) return { unsafe: `${next} is not a folder` };
    if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0)
      return { unsafe: `${next} is writable by other users` };
    real = next;
  }
  return { real, missing: [] };
}

/**
 * The cache's folder under `base` (which must exist), made if need be, as a real path; undefined when it is no
 * safe place (checkPath). Checked before anything is made, each missing folder made alone inside one already
 * checked and looked at before the next (a link planted in its place is never followed), then checked whole again.
 * The folder itself must be this user's alone (not even sticky).
 */
function cacheFolder({ base, folder }: CacheRoot, uid: number | undefined): string | undefined {
  if (!statSync(base).isDirectory()) return undefined;
  if (uid === undefined) {
    // Windows: the folder is under the user's own profile.
    mkdirSync(folder, { recursive: true });
    return folder;
  }
  let checked = checkPath(folder, uid);
  if ('unsafe' in checked) return undefined;
  if (checked.missing.length > 0) {
    let at = checked.real;
    for (const name of checked.missing) {
      at = join(at, name);
      try {
        mkdirSync(at, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const made = lstatSync(at);
      if (!made.isDirectory() || made.uid !== uid || (made.mode & 0o022) !== 0) return undefined;
    }
    checked = checkPath(folder, uid);
    if ('unsafe' in checked || checked.missing.length > 0) return undefined;
  }
  const own = lstatSync(checked.real);
  return own.uid === uid && (own.mode & 0o022) === 0 ? checked.real : undefined;
}

/** Days after which a cache file written for another build (an older install) is removed. */
const STALE_DAYS = 30;

/**
 * The most cache files kept (~220 KB each): one per install and Node version in use (a pre-commit hook's copy in a
 * repository's git folder is an install), the most lately used first.
 */
export const MAX_CACHES = 16;

/** A cache file's name (cacheName), or one being written (writeSlot): all that removeStale may remove. */
const CACHE_FILE = /^v\d+\.\d+\.\d+[-\w]*\.v8(?:\.\d+\.[0-9a-z]+)?$/;

/** A short digest of the flags V8 runs with, which a cache must match: one cache per way of running Node. */
function flavour(execArgv: readonly string[], nodeOptions: string): string {
  let hash = 0x811c9dc5;
  const text = execArgv.join('\0') + '\0' + nodeOptions;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The cache file's name for a bundle with `stat`, run by this Node with these flags. */
export function cacheName(stat: BigIntStats, execArgv: readonly string[], nodeOptions: string): string {
  const identity = [stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].map((n) => n.toString(36)).join('-');
  return `${process.version}-${process.arch}-${flavour(execArgv, nodeOptions)}-${identity}.v8`;
}

/** What the bundle tells the launcher when the process ends (src/cli/main.ts). */
export interface LauncherHooks {
  /** How much of the CLI this run used (runWeight.ts): a cache written by a lighter run is written again. */
  runWeight(): number;
  /** Puts V8's flags back as they were at start, before the cache is made. */
  beforeCodeCache(): void;
}

export interface CacheSlot {
  /** The cache file's full path. */
  path: string;
  /** V8's cache, when there was a whole one to read, made for this very source. */
  data?: Buffer;
  /** The weight of the run that wrote it; -1 when there was none. */
  weight: number;
  /** The checksum of the bundle's source, which a cache must have been made for. */
  source: bigint;
}

/**
 * A cache file: the weight (byte 0), the checksum of V8's data (bytes 8-15) and of the source it was made for
 * (16-23, both little-endian), V8's data from 24. V8 checks only a source's length: the file's name ties a cache
 * to the bundle's file, the source's checksum to its bytes (an edit of the same length within the same second, on
 * a file system with coarse times, keeps the name).
 */
export const HEADER = 24;

interface Summer {
  memory: WebAssembly.Memory;
  sum(at: number, length: number): bigint;
}

let summer: Summer | null | undefined;

/** The checksum of `data` (cacheChecksum.wat); undefined without WebAssembly (node --jitless). */
export function checksum(data: Uint8Array): bigint | undefined {
  if (summer === undefined) {
    try {
      const bytes = Buffer.from(CACHE_CHECKSUM_WASM_BASE64, 'base64');
      summer = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Summer;
    } catch {
      summer = null;
    }
  }
  if (summer === null) return undefined;
  const missing = Math.ceil(data.length / 65_536) - summer.memory.buffer.byteLength / 65_536;
  if (missing > 0) summer.memory.grow(missing);
  new Uint8Array(summer.memory.buffer).set(data);
  return summer.sum(0, data.length);
}

/**
 * The slot for a bundle whose file has `stat` and whose bytes are `source`, with its cache if there is a whole one
 * made for them. Undefined when no cache is used: turned off (NODE_DISABLE_COMPILE_CACHE, Node's own switch for
 * its cache), no home, an unsafe folder, or no WebAssembly to check a cache with (V8 would run a damaged one into
 * a fatal error).
 */
export function openSlot(
  stat: BigIntStats,
  source: Uint8Array,
  env: NodeJS.ProcessEnv = process.env,
): CacheSlot | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const root = cacheRoot(process.platform, env);
  const sourceSum = root === undefined ? undefined : checksum(source);
  if (sourceSum === undefined) return undefined;
  try {
    const uid = process.getuid?.();
    const folder = cacheFolder({ base: root!.base, folder: join(root!.folder, 'v8') }, uid);
    if (folder === undefined) return undefined;
    const path = join(folder, cacheName(stat, process.execArgv, env.NODE_OPTIONS ?? ''));
    const slot: CacheSlot = { path, weight: -1, source: sourceSum };
    const bytes = readOwn(path, uid);
    if (!bytes || bytes.length <= HEADER || bytes.readBigInt64LE(16) !== sourceSum) return slot;
    const data = bytes.subarray(HEADER);
    if (checksum(data) !== bytes.readBigInt64LE(8)) return slot;
    return { ...slot, data, weight: bytes[0]! };
  } catch {
    return undefined;
  }
}

/**
 * The file's bytes if it is a plain file of this user's (never through a link), else undefined. A cache in use
 * gets its time renewed once a day, so that removeStale takes the least lately used.
 */
function readOwn(path: string, uid: number | undefined): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) return undefined;
    const now = Date.now();
    if (now - stat.mtimeMs > 86_400_000) futimesSync(fd, now / 1000, now / 1000);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes V8's cache `data`, made by a run of `weight`, as the slot's cache: into a new file of this user's only,
 * then renamed over the old one, so that a reader sees the old cache or the new one, whole. Other builds' caches
 * past STALE_DAYS, and past the newest MAX_CACHES, go.
 */
export function writeSlot(slot: CacheSlot, weight: number, data: Uint8Array): void {
  const temporary = `${slot.path}.${process.pid}.${Date.now().toString(36)}`;
  try {
    const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      const header = Buffer.alloc(HEADER);
      header[0] = weight;
      header.writeBigInt64LE(checksum(data)!, 8);
      header.writeBigInt64LE(slot.source, 16);
      writeAll(fd, header);
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, slot.path);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // Never made.
    }
    return;
  }
  removeStale(dirname(slot.path), slot.path);
}

function writeAll(fd: number, data: Uint8Array): void {
  for (let written = 0; written < data.length;) written += writeSync(fd, data, written);
}

/**
 * Removes what other builds left: caches past STALE_DAYS, and all but the MAX_CACHES most lately used (each
 * install of the CLI, `npm ci` included, is a file of its own, and so a cache of its own). Only files named as
 * caches are touched.
 */
function removeStale(folder: string, keep: string): void {
  const before = Date.now() - STALE_DAYS * 86_400_000;
  const others: { path: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (path === keep || !CACHE_FILE.test(name)) continue;
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      if (stat.mtimeMs < before) unlinkSync(path);
      else others.push({ path, mtimeMs: stat.mtimeMs });
    } catch {
      // Gone already, or another run's.
    }
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of others.slice(MAX_CACHES - 1)) {
    try {
      unlinkSync(path);
    } catch {
      // Gone already.
    }
  }
}
