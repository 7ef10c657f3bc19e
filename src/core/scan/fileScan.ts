// Reads one file for the scanner and says why when it cannot: a FIFO or a
// device is never opened for reading (it could block or never end), a folder
// where a file was expected is not a crash, and a large file is scanned in
// windows instead of being skipped.
import { type Stats, closeSync, constants, fstatSync, openSync, readSync, readvSync } from 'node:fs';
import { type ArchiveKind, archiveMagic } from './formats.ts';
import { READ_ROOM, readRoom } from './precheck.ts';
import type { SkipReason } from './report.ts';
import type { Finding, ScanOptions } from './scanner.ts';
import { type ShippedPart, scanShippedText } from './sourceMap.ts';
import { StreamScan } from './streamScan.ts';
import { scanBytesCounted } from './byteScan.ts';
import { lazy } from '../lazy.ts';

/**
 * `omitted`: medium-confidence findings past the per-file cap, counted and not listed. `archive`: the first
 * bytes say the file is an archive or compressed (whatever its name): the caller opens it as such.
 */
export type FileOutcome =
  { findings: Finding[]; omitted?: number } | { skipped: SkipReason; detail?: string } | { archive: ArchiveKind };

// One buffer reused for every file that fits: no allocation per file, which is
// most of the cost of a tree of small files. It lies in the pre-check's WebAssembly
// memory (precheck.ts), which then searches each file where it was read. 16 MB, as
// large as the largest file scanned whole: a file of a few megabytes copied into a
// buffer of its own and then into the module's memory cost ~2,000 page faults and two
// copies in the bench's tree; the room's pages are only touched as far as files reach.
const SHARED = readRoom();
// Each file's first read takes it whole through readv: fs.readSync's checks of its five arguments (an arguments
// object, and an array of them for each of its three checks) were a tenth of what a scan allocates. The same read.
const SHARED_LIST = [SHARED];
const CHUNK = 4 << 20;
/** Files up to this size are scanned whole (one buffer, one decode); larger ones in windows of bounded memory. */
const WHOLE = READ_ROOM;
// The chunk for files read in windows, reused as SHARED is (StreamScan copies what it keeps). CLI only: the
// editor reads through VS Code.
const chunk = lazy(() => Buffer.allocUnsafe(CHUNK));
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

/** Bytes this thread's file scans have read, for a long scan's progress line (scanProgress.ts). */
export const bytesRead = { total: 0 };

function readInto(fd: number, buffer: Buffer): number {
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, null);
    if (n === 0) break;
    read += n;
  }
  bytesRead.total += read;
  return read;
}

const NOTHING: FileOutcome = { findings: [] };

type Skip = { skipped: SkipReason; detail?: string };

/** A folder or special file, as a skip; nothing for a regular file. */
function notRegular(stat: Stats): Skip | undefined {
  if (stat.isDirectory()) return { skipped: 'folder' };
  if (!stat.isFile()) return { skipped: 'special-file', detail: specialKind(stat) };
  return undefined;
}

/**
 * How one kind of file is scanned once its bytes are read. One object per kind, made once, with what varies per
 * file passed in: a reader and its closures per file were garbage in a scan of many small files.
 */
interface Reader<R> {
  /** Files up to this many bytes are held whole and scanned at once; larger ones go through `windows`. */
  limit: number;
  /** Scans bytes held whole (the buffer may be reused after: nothing may keep it). */
  whole(bytes: Buffer, options: ScanOptions, path: string): R;
  /** Scans a file too large to hold: `head` first, then the rest of the descriptor. */
  windows(head: Buffer, fd: number, options: ScanOptions): R;
}

const TEXT_READER: Reader<FileOutcome> = {
  limit: WHOLE,
  whole(bytes, options) {
    const archive = archiveMagic(bytes);
    return archive ? { archive } : outcomeOf(scanBytesCounted(bytes, options));
  },
  windows(head, fd, options) {
    // Only the file's start: its size is not what bytes.length says.
    const archive = archiveMagic(head, Number.POSITIVE_INFINITY);
    return archive ? { archive } : streamed(head, fd, options);
  },
};

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
  return readAndScan(path, maxSize, seenRegular, TEXT_READER, options);
}

/** Files up to this size are scanned whole; larger ones in windows of bounded memory (a source map: much larger). */
export const SOURCE_MAP_WHOLE = 256 << 20;

/**
 * A source map's outcome: its parts, one per original source that holds a
 * finding; `asOneText` when it was too large to parse and was read as plain text.
 */
export type SourceMapOutcome = { parts: ShippedPart[]; asOneText?: true } | Skip;

/** Why a source map past SOURCE_MAP_WHOLE is named as not fully read. */
export const SOURCE_MAP_TOO_LARGE = `a source map larger than ${SOURCE_MAP_WHOLE} bytes: read as one text, not source by source`;

const SOURCE_MAP_READER: Reader<SourceMapOutcome> = {
  limit: SOURCE_MAP_WHOLE,
  whole: (bytes, options, path) => ({ parts: scanShippedText(bytes, path, options) }),
  windows(head, fd, options) {
    const { findings, omitted } = streamed(head, fd, options);
    return { parts: [{ findings, omitted: omitted ?? 0 }], asOneText: true };
  },
};

/** scanFile for a source map: read whole and by its original sources, each a file of its own. */
export function scanSourceMapFile(
  path: string,
  options: ScanOptions = {},
  maxSize = Infinity,
  seenRegular = false,
): SourceMapOutcome {
  return readAndScan(path, maxSize, seenRegular, SOURCE_MAP_READER, options);
}

function outcomeOf({ findings, omitted }: { findings: Finding[]; omitted: number }): FileOutcome {
  return findings.length > 0 ? (omitted > 0 ? { findings, omitted } : { findings }) : NOTHING;
}

function streamed(head: Buffer, fd: number, options: ScanOptions): { findings: Finding[]; omitted?: number } {
  const stream = new StreamScan(options);
  stream.push(head);
  const buffer = chunk();
  for (;;) {
    const n = readInto(fd, buffer);
    if (n > 0) stream.push(buffer.subarray(0, n));
    if (n < CHUNK) break;
  }
  const findings = stream.end();
  return stream.omitted > 0 ? { findings, omitted: stream.omitted } : { findings };
}

const EMPTY = Buffer.alloc(0);

function readAndScan<R>(
  path: string,
  maxSize: number,
  seenRegular: boolean,
  reader: Reader<R>,
  options: ScanOptions,
): R | Skip {
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
      first = readvSync(fd, SHARED_LIST);
      bytesRead.total += first;
    } catch (error) {
      return notRegular(fstatSync(fd)) ?? failureOf(error);
    }
    if (first > 0 && first < SHARED.length) return reader.whole(SHARED.subarray(0, first), options, path);
    const stat = fstatSync(fd);
    const special = notRegular(stat);
    if (special) return special;
    if (first === 0) return reader.whole(EMPTY, options, path);
    // Up to the reader's limit, the file is read into one buffer and decoded once: windows copied, joined and
    // decoded again at their seams made a 1.3 MB source map cost 4–15 ms, a tenth of a whole tree's scan.
    let head = SHARED.subarray(0, first);
    if (stat.size <= reader.limit) {
      // One byte more than fstat said, to see a file still growing.
      const size = Math.max(stat.size, first) + 1;
      // Past SHARED's size (a source map): a buffer of its own rather than one kept for ever.
      const whole = Buffer.allocUnsafe(size);
      head.copy(whole);
      const total = first + readInto(fd, whole.subarray(first));
      if (total < whole.length) return reader.whole(whole.subarray(0, total), options, path);
      // It grew: what was read goes first, the rest through the windows.
      head = whole;
    } else head = Buffer.from(head);
    return reader.windows(head, fd, options);
  } catch (error) {
    return failureOf(error);
  } finally {
    closeSync(fd);
  }
}
