// Looks inside what ships: zip-based packages and documents (.vsix, .jar,
// .apk, .whl, .docx …), tar, and compressed files (.tgz, .gz, .zst), in memory
// only (no entry is ever written anywhere, so a "../" name or a symlink entry
// is just a name). Formats are known by name and by their first bytes; one
// Keyward cannot decompress (bzip2, xz, 7-Zip, RAR) is named as not scanned.
// Nested archives are opened to a fixed depth; entry count, bytes unpacked and
// compression ratio are capped, and every cap that stops a look names what it
// left unread, so a zip bomb never passes for a clean archive.
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { redactSecrets } from '../redact.ts';
import { EntryNames } from './entryNames.ts';
import { failureOf, specialKind } from './fileScan.ts';
import { type ArchiveKind, KIND_NAMES, archiveKind, archiveMagic, canOpen } from './formats.ts';
import type { SkipReason } from './report.ts';
import { type Finding, type ScanOptions, optionsFor } from './scanner.ts';
import { mayContainKey } from './literalPrecheck.ts';
import { scanShippedText } from './sourceMap.ts';
import { scanBytesCounted } from './byteScan.ts';
import { lazy } from '../lazy.ts';

export { type ArchiveKind, archiveKind, archiveMagic } from './formats.ts';

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

/** Why an archive of `size` bytes is not opened. */
export function archiveLimitDetail(size: number, limits: ArchiveLimits = ARCHIVE_LIMITS): string {
  return `${size} bytes: larger than the ${limits.bytes}-byte limit`;
}

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

interface Budget {
  entries: number;
  bytes: number;
}

/** What every level of one archive's walk shares: the unpackers, what it looks for, its limits and budget, its result. */
interface Walk {
  lib: Codecs;
  options: ScanOptions;
  limits: ArchiveLimits;
  budget: Budget;
  out: ArchiveResult;
}

interface Entry {
  /** The entry's name, made distinct within its archive (a second "a.js" is "a.js[2]"). */
  name: string;
  /** The name as the archive spells it: what it says the entry is. */
  original: string;
  data: Uint8Array;
}

/**
 * Scans an archive's bytes; the caller names the file (for the paths) and its
 * kind. `name`, the file's own name, says what a single compressed file holds
 * (`config.yaml.gz` is YAML).
 */
type Codecs = typeof import('./archiveCodecs.ts');
/** The unpackers, loaded by the first scanArchive before any level is read (they are most of this code's load time). */
const codecs = lazy(() => import('./archiveCodecs.ts'));

export async function scanArchive(
  bytes: Uint8Array,
  kind: ArchiveKind,
  options: ScanOptions = {},
  limits: ArchiveLimits = ARCHIVE_LIMITS,
  name = '',
): Promise<ArchiveResult> {
  const out: ArchiveResult = { findings: [], skipped: [], omitted: [] };
  const walk: Walk = { lib: await codecs(), options, limits, budget: { entries: 0, bytes: 0 }, out };
  await scanLevel(bytes, kind, name, '', 1, walk);
  return out;
}

/** A single compressed file's name without its compression: what its content is. */
function uncompressedName(name: string): string {
  return name.replace(/\.(?:gz|zst)$/i, '');
}

async function scanLevel(
  bytes: Uint8Array,
  kind: ArchiveKind,
  name: string,
  prefix: string,
  depth: number,
  walk: Walk,
): Promise<void> {
  const { options, limits, out } = walk;
  const where = prefix === '' ? '' : prefix.slice(0, -1);
  if (!canOpen(kind)) {
    out.skipped.push({
      inner: where,
      reason: 'archive-unsupported',
      detail: `${KIND_NAMES[kind]}: Keyward cannot decompress it`,
    });
    return;
  }
  let entries: Entry[];
  try {
    if (kind === 'gzip' || kind === 'tgz' || kind === 'zstd') {
      // One file compressed: what it holds is read at the same path, and opened if it is an archive itself.
      const data = decompress(kind, bytes, walk);
      const content = uncompressedName(name);
      const inner = archiveMagic(data) ?? (kind === 'tgz' ? 'tar' : archiveKind(content));
      if (inner === 'zip' || inner === 'tar') return await scanLevel(data, inner, content, prefix, depth, walk);
      if (inner) {
        // Compressed again: a level of its own, so a file that unpacks to itself stops at the depth limit.
        if (depth >= limits.depth)
          out.skipped.push({ inner: where, reason: 'archive-too-deep', detail: `more than ${limits.depth} levels` });
        else await scanLevel(data, inner, content, prefix, depth + 1, walk);
        return;
      }
      scanEntryText(data, content, where, options, out);
      return;
    }
    entries = kind === 'zip' ? zipEntries(bytes, prefix, walk) : await tarEntries(bytes, prefix, walk);
  } catch (error) {
    if (error instanceof LimitError) out.skipped.push({ inner: where, reason: 'archive-limit', detail: error.message });
    else {
      // Not an archive after all, or a damaged one: its bytes are still read as they are. Text (UTF-8 without a NUL,
      // which no zip or tar header is) read so is read whole: a text file, not an archive left unread.
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (isUtf8(data) && !data.includes(0)) return scanEntryText(data, name, where, options, out);
      out.skipped.push({ inner: where, reason: 'archive-unreadable', detail: describe(error) });
      for (const part of scanShippedText(data, where, options))
        for (const finding of part.findings) out.findings.push({ inner: where, finding });
    }
    return;
  }
  for (const entry of entries) {
    const inner = prefix + entry.name;
    // By name, and by its first bytes: a zip renamed .bin, a gzip without .gz.
    const nested = archiveKind(entry.original) ?? archiveMagic(entry.data);
    if (nested) {
      if (depth >= limits.depth)
        out.skipped.push({ inner, reason: 'archive-too-deep', detail: `more than ${limits.depth} levels` });
      else await scanLevel(entry.data, nested, entry.original, `${inner}!`, depth + 1, walk);
      continue;
    }
    scanEntryText(entry.data, entry.original, inner, options, out);
  }
  looseKeys(bytes, entries, where, options, out);
}

/**
 * The archive's own bytes once more, with no allow comment (an archive's
 * structure is no comment syntax): a key no entry gave is reported at the
 * archive itself. It catches a key in an entry's name or the zip comment, and
 * bytes a reader here does not hand out as an entry where another tool
 * extracts a file (GNU tar's 'N' type flag, which tar-stream takes for a long
 * name; a stored zip entry missing from the central directory).
 */
function looseKeys(
  bytes: Uint8Array,
  entries: readonly Entry[],
  where: string,
  options: ScanOptions,
  out: ArchiveResult,
): void {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!mayContainKey(raw, options)) return;
  const values = new Map<string, string>();
  const bare: ScanOptions = { ...options, allowComments: false, looseCap: Infinity, onKey: undefined };
  const found = scanBytesCounted(raw, { ...bare, onKey: (fingerprint, key) => values.set(fingerprint, key) });
  const reported = new Set(out.findings.map((f) => f.finding.fingerprint));
  let inEntries: Set<string> | undefined;
  for (const finding of found.findings) {
    // Near-misses in binary are no evidence of a hidden key.
    if (finding.confidence === 'medium' && !finding.stored) continue;
    if (reported.has(finding.fingerprint)) continue;
    // Every key the entries hold, allowed ones included: read again only when a key is left to place.
    inEntries ??= new Set(
      entries.flatMap((e) =>
        scanBytesCounted(Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength), bare).findings.map(
          (f) => f.fingerprint,
        ),
      ),
    );
    if (inEntries.has(finding.fingerprint)) continue;
    reported.add(finding.fingerprint);
    const key = values.get(finding.fingerprint);
    if (key !== undefined) options.onKey?.(finding.fingerprint, key);
    out.findings.push({ inner: where, finding });
  }
}

/** Scans one file's bytes inside an archive: `name` says what it is (a source map, YAML), `inner` where it is. */
function scanEntryText(bytes: Uint8Array, name: string, inner: string, options: ScanOptions, out: ArchiveResult): void {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const part of scanShippedText(data, name, optionsFor(name, options))) {
    const path = part.source === undefined ? inner : `${inner}!${part.source}`;
    for (const finding of part.findings) out.findings.push({ inner: path, finding });
    if (part.omitted > 0) out.omitted.push({ inner: path, count: part.omitted });
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
    // Nothing to gain from reading what cannot be decompressed.
    if (!canOpen(kind)) return scanArchive(new Uint8Array(0), kind, options, limits, path);
    if (stat.size > limits.bytes) return { skipped: 'archive-limit', detail: archiveLimitDetail(stat.size, limits) };
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
  return scanArchive(bytes, kind, options, limits, path);
}

class LimitError extends Error {}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

function zipEntries(bytes: Uint8Array, prefix: string, { lib, budget, limits, out }: Walk): Entry[] {
  const entries: Entry[] = [];
  const names = new EntryNames();
  let tooMany = false;
  for (const entry of lib.zipEntryList(bytes)) {
    if (entry.name.endsWith('/') && entry.packedSize === 0) continue;
    // A name is text from the file: a key in it is masked before it names anything.
    const name = names.name(redactSecrets(entry.name));
    const inner = prefix + name;
    if (budget.entries >= limits.entries) {
      if (!tooMany) out.skipped.push({ inner, reason: 'archive-limit', detail: `more than ${limits.entries} entries` });
      tooMany = true;
      continue;
    }
    budget.entries++;
    const unreadable = entry.problem
      ? entry.problem
      : entry.encrypted
        ? 'encrypted'
        : entry.method !== 0 && entry.method !== 8
          ? `compression method ${entry.method}`
          : undefined;
    if (unreadable) {
      out.skipped.push({ inner, reason: 'archive-unreadable', detail: unreadable });
      continue;
    }
    // Declared sizes refuse a bomb before any work; the real size is bounded while inflating, as a
    // declared size can lie both ways.
    const refusal = refuse(entry.declaredSize, entry.packedSize, budget, limits);
    if (refusal) {
      out.skipped.push({ inner, reason: 'archive-limit', detail: refusal });
      continue;
    }
    const room = limits.bytes - budget.bytes;
    const cap = entry.method === 0 ? room : Math.min(room, Math.max(RATIO_FLOOR, entry.packedSize * limits.ratio));
    let data: Uint8Array;
    try {
      data = lib.unpackEntry(entry, cap);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE')
        out.skipped.push({ inner, reason: 'archive-unreadable', detail: describe(error) });
      else
        out.skipped.push({
          inner,
          reason: 'archive-limit',
          detail: `declares ${entry.declaredSize} bytes but ${
            cap === room
              ? `unpacks past the ${limits.bytes}-byte limit for one archive`
              : `expands more than ${limits.ratio} times: a zip bomb?`
          }`,
        });
      continue;
    }
    budget.bytes += data.byteLength;
    entries.push({ name, original: entry.name, data });
  }
  return entries;
}

/** Why an entry of this size is not unpacked, if it is not. */
function refuse(size: number, packed: number, budget: Budget, limits: ArchiveLimits): string | undefined {
  if (size > limits.bytes - budget.bytes)
    return `${size} bytes unpacked would pass the ${limits.bytes}-byte limit for one archive`;
  if (size > RATIO_FLOOR && size > packed * limits.ratio)
    return `expands ${Math.round(size / Math.max(packed, 1))} times (more than ${limits.ratio}): a zip bomb?`;
  return undefined;
}

/** A single compressed stream, unpacked within the archive's byte budget and ratio. */
function decompress(kind: 'gzip' | 'tgz' | 'zstd', bytes: Uint8Array, { lib, budget, limits }: Walk): Buffer {
  const room = limits.bytes - budget.bytes;
  const cap = Math.max(1, Math.min(room, Math.max(RATIO_FLOOR, bytes.byteLength * limits.ratio)));
  try {
    // Every member of a multi-member gzip, as gzip -d writes them all.
    const data =
      kind === 'zstd'
        ? lib.zstdDecompressSync(bytes, { maxOutputLength: cap })
        : lib.gunzipSync(bytes, { maxOutputLength: cap });
    budget.bytes += data.byteLength;
    return data;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new LimitError(
        cap === room
          ? `unpacks to more than the ${limits.bytes}-byte limit for one archive`
          : `expands more than ${limits.ratio} times: a ${kind === 'zstd' ? 'zstd' : 'gzip'} bomb?`,
      );
    throw error;
  }
}

async function tarEntries(bytes: Uint8Array, prefix: string, { lib, budget, limits, out }: Walk): Promise<Entry[]> {
  const entries: Entry[] = [];
  const names = new EntryNames();
  // A header with neither "ustar" nor GNU magic is a v7 tar, which GNU tar reads; its checksum is still checked.
  // tar-stream reads the option; its typings do not list it.
  const reader = lib.extract({ allowUnknownFormat: true } as Parameters<Codecs['extract']>[0]);
  let tooMany = false;
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      stream.on('end', next);
      const size = header.size ?? 0;
      // Folders, links and devices carry no bytes (what a link points to is never followed). Any other type
      // flag, known or not ('Z', 'S', 'D' …), is read as a file: POSIX says an unknown one is a regular file,
      // and GNU tar extracts it as one (src/extract.c: "Unknown file type '%c', extracted as normal file").
      if (size === 0 || header.type === 'directory') return stream.resume();
      const name = names.name(redactSecrets(header.name));
      const inner = prefix + name;
      if (budget.entries >= limits.entries) {
        if (!tooMany)
          out.skipped.push({ inner, reason: 'archive-limit', detail: `more than ${limits.entries} entries` });
        tooMany = true;
        return stream.resume();
      }
      budget.entries++;
      // A tar stores bytes as they are: its size is what is held, and the budget counts it once (in bytes).
      if (size > bytes.byteLength) {
        out.skipped.push({ inner, reason: 'archive-unreadable', detail: 'entry larger than the archive' });
        return stream.resume();
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => entries.push({ name, original: header.name, data: Buffer.concat(chunks) }));
    });
    reader.on('finish', resolve);
    reader.on('error', reject);
  });
  reader.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  await done;
  return entries;
}
