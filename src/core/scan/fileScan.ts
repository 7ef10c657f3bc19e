// Reads one file for the scanner and says why when it cannot: a FIFO or a
// device is never opened for reading (it could block or never end), a folder
// where a file was expected is not a crash, and a large file is scanned in
// windows instead of being skipped.
import { type Stats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { SkipReason } from './report.ts';
import type { Finding, ScanOptions } from './scanner.ts';
import { StreamScan, scanBytesCounted } from './streamScan.ts';

/** `omitted`: medium-confidence findings past the per-file cap, counted and not listed. */
export type FileOutcome = { findings: Finding[]; omitted?: number } | { skipped: SkipReason; detail?: string };

// One buffer reused for every file that fits: no allocation per file, which is
// most of the cost of a tree of small files.
const SHARED = Buffer.allocUnsafe(1 << 20);
const CHUNK = 4 << 20;
/** Files up to this size are scanned whole (one buffer, one decode); larger ones in windows of bounded memory. */
const WHOLE = 16 << 20;
// The buffers of files over SHARED's size, reused as SHARED is: one grown to the largest whole read so
// far, and one chunk for files read in windows (StreamScan copies what it keeps). Fresh buffers per
// large file, and their garbage, were a visible part of a scan of a tree with big binaries. CLI only:
// the editor reads through VS Code.
let wholeRoom = Buffer.alloc(0);
let chunk: Buffer | undefined;
// Opening a FIFO without it waits for a writer forever; regular files do not care.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export function specialKind(stat: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}

/** Why an error from the file system means the path was not scanned. */
export function failureOf(error: unknown): { skipped: SkipReason; detail?: string } {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  switch (code) {
    case 'ENOENT':
      return { skipped: 'missing' };
    case 'ELOOP':
      return { skipped: 'broken-symlink', detail: 'symlink loop' };
    case 'EISDIR':
      return { skipped: 'folder' };
    case 'ENXIO':
      return { skipped: 'special-file', detail: 'socket' };
    case 'EACCES':
    case 'EPERM':
      return { skipped: 'unreadable', detail: 'permission denied' };
    default:
      return { skipped: 'unreadable', detail: code };
  }
}

function readInto(fd: number, buffer: Buffer): number {
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, null);
    if (n === 0) break;
    read += n;
  }
  return read;
}

const NOTHING: FileOutcome = { findings: [] };

/** A folder or special file, as a skip; nothing for a regular file. */
function notRegular(stat: Stats): FileOutcome | undefined {
  if (stat.isDirectory()) return { skipped: 'folder' };
  if (!stat.isFile()) return { skipped: 'special-file', detail: specialKind(stat) };
  return undefined;
}

/**
 * Scans a file's bytes. `maxSize`, when given, is a cap the user asked for:
 * larger files are skipped and said so. A path the caller has just seen to be
 * a regular file (a directory listing says so) is read with one read and no
 * stat, as a short read of a regular file is all of it; anything else is
 * checked first. An empty read, a full buffer or an error is always checked
 * against what the path really is, so a FIFO or a device is named, never taken
 * for an empty file or read forever.
 */
export function scanFile(
  path: string,
  options: ScanOptions = {},
  maxSize = Infinity,
  seenRegular = false,
): FileOutcome {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NONBLOCK);
  } catch (error) {
    return failureOf(error);
  }
  try {
    if (!seenRegular || maxSize !== Infinity) {
      const stat = fstatSync(fd);
      const special = notRegular(stat);
      if (special) return special;
      if (stat.size > maxSize) return { skipped: 'too-large', detail: `${stat.size} bytes` };
    }
    let first: number;
    try {
      first = readSync(fd, SHARED, 0, SHARED.length, null);
    } catch (error) {
      return notRegular(fstatSync(fd)) ?? failureOf(error);
    }
    if (first > 0 && first < SHARED.length) {
      const { findings, omitted } = scanBytesCounted(SHARED.subarray(0, first), options);
      return findings.length > 0 ? (omitted > 0 ? { findings, omitted } : { findings }) : NOTHING;
    }
    const stat = fstatSync(fd);
    const special = notRegular(stat);
    if (special) return special;
    if (first === 0) return NOTHING;
    // Up to WHOLE bytes, the file is read into one buffer and decoded once: windows copied, joined and
    // decoded again at their seams made a 1.3 MB source map cost 4–15 ms, a tenth of a whole tree's scan.
    let head = SHARED.subarray(0, first);
    if (stat.size <= WHOLE) {
      // One byte more than fstat said, to see a file still growing.
      const size = Math.max(stat.size, first) + 1;
      if (wholeRoom.length < size) wholeRoom = Buffer.allocUnsafe(size);
      const whole = wholeRoom.subarray(0, size);
      head.copy(whole);
      const total = first + readInto(fd, whole.subarray(first));
      if (total < whole.length) {
        const { findings, omitted } = scanBytesCounted(whole.subarray(0, total), options);
        return findings.length > 0 ? (omitted > 0 ? { findings, omitted } : { findings }) : NOTHING;
      }
      // It grew: what was read goes first, the rest through the windows.
      head = whole;
    }
    const stream = new StreamScan(options);
    stream.push(head);
    chunk ??= Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readInto(fd, chunk);
      if (n > 0) stream.push(chunk.subarray(0, n));
      if (n < CHUNK) break;
    }
    const findings = stream.end();
    return stream.omitted > 0 ? { findings, omitted: stream.omitted } : { findings };
  } catch (error) {
    return failureOf(error);
  } finally {
    closeSync(fd);
  }
}
