// V8's compiled bytecode of the CLI, kept between runs in the user's cache folder. Compiling the bundle's functions
// is a large part of a short run: with the cache, `keyward scan` of an empty folder took 33.5 ms instead of 37, ten
// files with keys 38 instead of 47, and the bench's 10,674 files 1.20× rg -j1's wall time instead of 1.30× (Node
// 24, interleaved). Node's own compile cache (module.enableCompileCache) saved a third of that: it keeps what V8
// compiled when the module was first compiled, before any function ran, so the functions a scan calls are compiled
// again on every run. This cache is made when a run ends, with the functions it compiled; a run that used more of
// the CLI than the one that made it makes it again (runWeight.ts). A cache of every function (V8's --no-lazy) was
// tried: 580 KB against 220, and reading it cost each run 4 ms more than it saved.
//
// Bytecode read from a file is code this process will run: the cache is used only where no other user could have
// written it (the folder and every folder above it this user's or root's, and none that another user could change),
// and it is made by this user alone (mode 0600, written to a fresh file and renamed into place). V8 checks that a
// cache was made by the same V8 with the same flags and for a source of the same length; the file's name ties it
// to the bundle's exact file (device, inode, size and both times, to the nanosecond), which any change to the
// bundle changes. V8 does not check the cache's bytes in a release build (a damaged cache ends the process in a
// fatal error): a checksum of them is checked first (cacheChecksum.wat). Any trouble with the cache only means
// compiling as without one: the cache is for speed, never for what the command does.
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_CHECKSUM_WASM_BASE64 } from './cacheChecksumWasm.ts';

/**
 * Where the cache lives: under XDG_CACHE_HOME when it is set (on macOS too, as other command-line tools do), else
 * where the platform keeps a user's caches; undefined when the environment names no such folder.
 */
export function cacheRoot(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | undefined {
  const absolute = (path: string | undefined) =>
    path !== undefined && (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) ? path : undefined;
  if (platform === 'win32') {
    const local = absolute(env.LOCALAPPDATA);
    return local && join(local, 'keyward', 'Cache');
  }
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, 'keyward');
  const home = absolute(env.HOME);
  return home && join(home, ...(platform === 'darwin' ? ['Library', 'Caches'] : ['.cache']), 'keyward');
}

/**
 * Why `folder` is no safe place for code this user will run, or undefined when it is: it and every folder above
 * it must belong to `uid` or root, and none may let another user put something else in place of what it holds:
 * writable by no one else, or (as /tmp) sticky, where only an entry's owner may rename or remove it. As OpenSSH
 * checks a user's key files. `folder` must be a real path: a link in it could be changed by whoever owns the
 * link's folder.
 */
export function unsafeFolder(folder: string, uid: number): string | undefined {
  for (let path = folder; ; path = dirname(path)) {
    const stat = statSync(path);
    if (!stat.isDirectory()) return `${path} is not a folder`;
    if (stat.uid !== uid && stat.uid !== 0) return `${path} belongs to another user`;
    const sticky = (stat.mode & 0o1000) !== 0 && path !== folder;
    if ((stat.mode & 0o022) !== 0 && !sticky) return `${path} is writable by other users`;
    if (dirname(path) === path) return undefined;
  }
}

/** Days after which a cache file written for another build (an older install) is removed. */
const STALE_DAYS = 30;

/** The most cache files kept (~200 KB each): one per install and Node version in use, the newest first. */
export const MAX_CACHES = 8;

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
  /** V8's cache, when there was a whole one to read. */
  data?: Buffer;
  /** The weight of the run that wrote it; -1 when there was none. */
  weight: number;
}

/** A cache file: the weight (byte 0), the checksum of V8's data (bytes 8-15, little-endian), the data from 16. */
export const HEADER = 16;

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
 * The slot for a bundle whose file has `stat`, with its cache if there is a whole one. Undefined when no cache is
 * used: turned off (NODE_DISABLE_COMPILE_CACHE, Node's own switch for its cache), no home, an unsafe folder, or no
 * WebAssembly to check a cache with (V8 would run a damaged one into a fatal error).
 */
export function openSlot(stat: BigIntStats, env: NodeJS.ProcessEnv = process.env): CacheSlot | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const root = cacheRoot(process.platform, env);
  if (root === undefined || checksum(new Uint8Array(0)) === undefined) return undefined;
  try {
    const folder = join(root, 'v8');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const real = realpathSync(folder);
    const uid = process.getuid?.();
    if (uid !== undefined && unsafeFolder(real, uid) !== undefined) return undefined;
    const path = join(real, cacheName(stat, process.execArgv, env.NODE_OPTIONS ?? ''));
    const bytes = readOwn(path, uid);
    const data = bytes && bytes.length > HEADER ? bytes.subarray(HEADER) : undefined;
    if (!data || checksum(data) !== bytes!.readBigInt64LE(8)) return { path, weight: -1 };
    return { path, data, weight: bytes![0]! };
  } catch {
    return undefined;
  }
}

/** The file's bytes if it is a plain file of this user's (never through a link), else undefined. */
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
 * Removes what other builds left: caches past STALE_DAYS, and all but the newest MAX_CACHES (each install of the
 * CLI, `npm ci` included, is a file of its own, and so a cache of its own).
 */
function removeStale(folder: string, keep: string): void {
  const before = Date.now() - STALE_DAYS * 86_400_000;
  const others: { path: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (path === keep) continue;
    try {
      const { mtimeMs } = statSync(path);
      if (mtimeMs < before) unlinkSync(path);
      else others.push({ path, mtimeMs });
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
