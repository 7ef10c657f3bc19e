// Writes a file inside a folder only where it really lands inside that folder:
// no component below the folder may be a symbolic link, the target must be a
// plain file (or absent), and the bytes go in by exclusive create or by an
// atomic rename, so a link or a hard link planted in the repository cannot
// carry a key somewhere else.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';

export type UnsafeReason = 'outside' | 'symlink' | 'not_a_file' | 'not_a_folder' | 'missing_folder';

export class UnsafePath extends Error {
  readonly reason: UnsafeReason;
  /** The path that made it unsafe, relative to the folder. */
  readonly path: string;

  constructor(reason: UnsafeReason, path: string) {
    super(`${path}: ${reason.replace(/_/g, ' ')}`);
    this.reason = reason;
    this.path = path;
  }
}

export interface SafeTarget {
  /** Absolute, with the folder's real path: what git and the writes use. */
  path: string;
  exists: boolean;
  /** The file's mode bits when it exists. */
  mode: number | null;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Checks `rel` below `folder` with lstat, component by component; the folder
 * itself may be a link (the person opened it that way), nothing below it may.
 */
export async function safeTarget(folder: string, rel: string): Promise<SafeTarget> {
  const root = await realpath(folder);
  const clean = normalize(rel);
  if (isAbsolute(clean) || clean === '..' || clean.startsWith(`..${sep}`)) throw new UnsafePath('outside', rel);
  const parts = clean.split(sep).filter((part) => part !== '' && part !== '.');
  if (parts.length === 0) throw new UnsafePath('not_a_file', rel);
  let current = root;
  for (const [index, part] of parts.entries()) {
    current = join(current, part);
    const shown = parts.slice(0, index + 1).join('/');
    const last = index === parts.length - 1;
    let stat;
    try {
      stat = await lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (!last) throw new UnsafePath('missing_folder', shown);
      break;
    }
    if (stat.isSymbolicLink()) throw new UnsafePath('symlink', shown);
    if (!last && !stat.isDirectory()) throw new UnsafePath('not_a_folder', shown);
    if (last) {
      if (!stat.isFile()) throw new UnsafePath('not_a_file', shown);
      if (!isInside(root, await realpath(current))) throw new UnsafePath('outside', shown);
      return { path: current, exists: true, mode: stat.mode & 0o777 };
    }
  }
  if (!isInside(root, await realpath(dirname(current)))) throw new UnsafePath('outside', rel);
  return { path: current, exists: false, mode: null };
}

/** Reads a checked target without following a link that appeared since. */
export async function readTarget(target: SafeTarget): Promise<string> {
  if (!target.exists) return '';
  const handle = await open(target.path, constants.O_RDONLY | NOFOLLOW);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

async function writeExclusive(path: string, text: string, mode: number): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a checked target: a new file by exclusive create (mode 0600 unless
 * told), an existing one through a temporary file renamed over it, which
 * replaces the directory entry and never writes into whatever it pointed at.
 */
export async function writeTarget(target: SafeTarget, text: string, newFileMode = 0o600): Promise<void> {
  if (!target.exists) {
    await writeExclusive(target.path, text, newFileMode);
    return;
  }
  const temporary = join(
    dirname(target.path),
    `.${basename(target.path)}.keyward-${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeExclusive(temporary, text, target.mode ?? 0o600);
    await rename(temporary, target.path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Puts a target back as it was before `writeTarget` (absent, or its old text). */
export async function restoreTarget(target: SafeTarget, previous: string): Promise<void> {
  if (!target.exists) await unlink(target.path);
  else await writeTarget(target, previous);
}
