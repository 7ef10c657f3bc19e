// Looks inside what ships: zip-based packages (.vsix, .zip, .jar …), npm's
// .tgz and plain .tar, in memory only (no entry is ever written anywhere, so a
// "../" name or a symlink entry is just a name). Nested archives are opened to
// a fixed depth; entry count, bytes unpacked and compression ratio are capped,
// and every cap that stops a look names what it left unread, so a zip bomb
// never passes for a clean archive.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { failureOf, specialKind } from './fileScan.ts';
import type { SkipReason } from './report.ts';
import type { Finding, ScanOptions } from './scanner.ts';
import { scanShippedText } from './sourceMap.ts';

export type ArchiveKind = 'zip' | 'tar' | 'tgz';

/** The archive a file name says it is; zip covers the packages built on it. */
export function archiveKind(name: string): ArchiveKind | undefined {
  // Most names are no archive: one look at the last dot before lowercasing and matching.
  const dot = name.lastIndexOf('.');
  if (dot === -1 || name.length - dot > 6) return undefined;
  const lower = name.toLowerCase();
  if (/\.(?:zip|vsix|jar|war|ear|aar|apk|whl|nupkg|xpi|crx)$/.test(lower)) return 'zip';
  if (/\.(?:tgz|tar\.gz)$/.test(lower)) return 'tgz';
  if (lower.endsWith('.tar')) return 'tar';
  return undefined;
}

export interface ArchiveLimits {
  /** Archives inside archives: the outer one is depth 1. */
  depth: number;
  /** Entries in all levels of one archive file. */
  entries: number;
  /** Bytes unpacked in all levels of one archive file (what is held in memory at most). */
  bytes: number;
  /** An entry that expands more than this many times its packed size (and past 1 MB) is not unpacked. */
  ratio: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = { depth: 3, entries: 20_000, bytes: 256 << 20, ratio: 200 };

/** Entries so small that any ratio is harmless. */
const RATIO_FLOOR = 1 << 20;

export interface InnerFinding {
  /** The path inside the archive, nested ones joined with "!": `extension/lib.zip!dist/x.js`. */
  inner: string;
  finding: Finding;
}

export interface InnerSkip {
  inner: string;
  reason: SkipReason;
  detail?: string;
}

export interface ArchiveResult {
  findings: InnerFinding[];
  skipped: InnerSkip[];
  /** Medium-confidence findings past the cap, per entry. */
  omitted: { inner: string; count: number }[];
}

type Codecs = typeof import('./archiveCodecs.ts');
let codecs: Codecs | undefined;
/** The unpackers, loaded by scanArchive before any level is read (they are most of this code's load time). */
function lib(): Codecs {
  if (!codecs) throw new Error('archive codecs used before scanArchive loaded them');
  return codecs;
}

interface Budget {
  entries: number;
  bytes: number;
}

/** Scans an archive's bytes; the caller names the file (for the paths) and its kind. */
export async function scanArchive(
  bytes: Uint8Array,
  kind: ArchiveKind,
  options: ScanOptions = {},
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<ArchiveResult> {
  const result: ArchiveResult = { findings: [], skipped: [], omitted: [] };
  codecs ??= await import('./archiveCodecs.ts');
  await scanLevel(bytes, kind, '', 1, { entries: 0, bytes: 0 }, options, limits, result);
  return result;
}

async function scanLevel(
  bytes: Uint8Array,
  kind: ArchiveKind,
  prefix: string,
  depth: number,
  budget: Budget,
  options: ScanOptions,
  limits: ArchiveLimits,
  out: ArchiveResult,
): Promise<void> {
  const where = prefix === '' ? '' : prefix.slice(0, -1);
  let entries: { name: string; data: Uint8Array }[];
  try {
    entries =
      kind === 'zip'
        ? zipEntries(bytes, prefix, budget, limits, out)
        : await tarEntries(kind === 'tgz' ? gunzip(bytes, budget, limits) : bytes, prefix, budget, limits, out);
  } catch (error) {
    if (error instanceof LimitError) out.skipped.push({ inner: where, reason: 'archive-limit', detail: error.message });
    else {
      out.skipped.push({ inner: where, reason: 'archive-unreadable', detail: describe(error) });
      // Not an archive after all, or a damaged one: its bytes are still read as they are.
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (const part of scanShippedText(data, where, options))
        for (const finding of part.findings) out.findings.push({ inner: where, finding });
    }
    return;
  }
  for (const entry of entries) {
    const inner = prefix + entry.name;
    const nested = archiveKind(entry.name);
    if (nested) {
      if (depth >= limits.depth)
        out.skipped.push({ inner, reason: 'archive-too-deep', detail: `more than ${limits.depth} levels` });
      else await scanLevel(entry.data, nested, `${inner}!`, depth + 1, budget, options, limits, out);
      continue;
    }
    const data = Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
    for (const part of scanShippedText(data, entry.name, options)) {
      const path = part.source === undefined ? inner : `${inner}!${part.source}`;
      for (const finding of part.findings) out.findings.push({ inner: path, finding });
      if (part.omitted > 0) out.omitted.push({ inner: path, count: part.omitted });
    }
  }
}

/**
 * Reads an archive file whole (within the unpacked-bytes limit, which it also
 * counts against) and scans it; a file that cannot be read is a skip, as for any file.
 */
export async function scanArchiveFile(
  path: string,
  kind: ArchiveKind,
  options: ScanOptions = {},
  limits: ArchiveLimits = ARCHIVE_LIMITS,
  maxSize = Infinity,
): Promise<ArchiveResult | { skipped: SkipReason; detail?: string }> {
  let bytes: Buffer;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return failureOf(error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { skipped: 'folder' };
    if (!stat.isFile()) return { skipped: 'special-file', detail: specialKind(stat) };
    if (stat.size > maxSize) return { skipped: 'too-large', detail: `${stat.size} bytes` };
    if (stat.size > limits.bytes)
      return { skipped: 'archive-limit', detail: `${stat.size} bytes: larger than the ${limits.bytes}-byte limit` };
    bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, null);
      if (n === 0) break;
      read += n;
    }
    bytes = bytes.subarray(0, read);
  } catch (error) {
    return failureOf(error);
  } finally {
    closeSync(fd);
  }
  return scanArchive(bytes, kind, options, limits);
}

class LimitError extends Error {}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

function zipEntries(
  bytes: Uint8Array,
  prefix: string,
  budget: Budget,
  limits: ArchiveLimits,
  out: ArchiveResult,
): { name: string; data: Uint8Array }[] {
  let tooMany = false;
  const files = lib().unzipSync(bytes, {
    filter: (file) => {
      if (file.name.endsWith('/')) return false;
      const inner = prefix + file.name;
      if (budget.entries >= limits.entries) {
        if (!tooMany)
          out.skipped.push({ inner, reason: 'archive-limit', detail: `more than ${limits.entries} entries` });
        tooMany = true;
        return false;
      }
      budget.entries++;
      if (file.compression !== 0 && file.compression !== 8) {
        out.skipped.push({ inner, reason: 'archive-unreadable', detail: `compression method ${file.compression}` });
        return false;
      }
      const refusal = refuse(file.originalSize, file.size, budget, limits);
      if (refusal) {
        out.skipped.push({ inner, reason: 'archive-limit', detail: refusal });
        return false;
      }
      // Declared sizes bound the memory: fflate inflates into a buffer of the declared size and no more.
      budget.bytes += file.originalSize;
      return true;
    },
  });
  return Object.entries(files).map(([name, data]) => ({ name, data }));
}

/** Why an entry of this size is not unpacked, if it is not. */
function refuse(size: number, packed: number, budget: Budget, limits: ArchiveLimits): string | undefined {
  if (size > limits.bytes - budget.bytes)
    return `${size} bytes unpacked would pass the ${limits.bytes}-byte limit for one archive`;
  if (size > RATIO_FLOOR && size > packed * limits.ratio)
    return `expands ${Math.round(size / Math.max(packed, 1))} times (more than ${limits.ratio}): a zip bomb?`;
  return undefined;
}

function gunzip(bytes: Uint8Array, budget: Budget, limits: ArchiveLimits): Uint8Array {
  const room = limits.bytes - budget.bytes;
  const cap = Math.min(room, Math.max(RATIO_FLOOR, bytes.byteLength * limits.ratio));
  try {
    const data = lib().gunzipSync(bytes, { maxOutputLength: Math.max(cap, 1) });
    budget.bytes += data.byteLength;
    return data;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new LimitError(
        cap === room
          ? `unpacks to more than the ${limits.bytes}-byte limit for one archive`
          : `expands more than ${limits.ratio} times: a gzip bomb?`,
      );
    throw error;
  }
}

async function tarEntries(
  bytes: Uint8Array,
  prefix: string,
  budget: Budget,
  limits: ArchiveLimits,
  out: ArchiveResult,
): Promise<{ name: string; data: Uint8Array }[]> {
  const entries: { name: string; data: Uint8Array }[] = [];
  const reader = lib().extract();
  let tooMany = false;
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      stream.on('end', next);
      const inner = prefix + header.name;
      // Links and folders carry no bytes of their own; what a link points to is never followed.
      if (header.type !== 'file' && header.type !== 'contiguous-file') return stream.resume();
      if (budget.entries >= limits.entries) {
        if (!tooMany)
          out.skipped.push({ inner, reason: 'archive-limit', detail: `more than ${limits.entries} entries` });
        tooMany = true;
        return stream.resume();
      }
      budget.entries++;
      // A tar stores bytes as they are: its size is what is held, and the budget counts it once (in bytes).
      const size = header.size ?? 0;
      if (size > bytes.byteLength) {
        out.skipped.push({ inner, reason: 'archive-unreadable', detail: 'entry larger than the archive' });
        return stream.resume();
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => entries.push({ name: header.name, data: Buffer.concat(chunks) }));
    });
    reader.on('finish', resolve);
    reader.on('error', reject);
  });
  reader.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  await done;
  return entries;
}
