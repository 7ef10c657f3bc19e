// Scans git blobs by object id through one `git cat-file --batch`, each blob
// whole (or in windows when large) through the same decoding as a file on disk:
// a UTF-16 byte-order mark is read as such in staged blobs and in history alike.
// Archives are handed back to be opened when the caller asks (the staged scan).
import { type ArchiveKind, archiveKind, archiveMagic } from './formats.ts';
import { type GitCallOptions, gitMessage, gitStream } from './git.ts';
import { type Finding, type ScanOptions, optionsFor } from './scanner.ts';
import { StreamScan } from './streamScan.ts';
import { scanBytes } from './byteScan.ts';

export interface Blob {
  /** Path inside the repository, '/'-separated. */
  path: string;
  oid: string;
}

export interface BlobScan<T extends Blob> {
  findings: { blob: T; finding: Finding }[];
  /** Blobs git does not have (a partial clone that never fetched them). */
  missing: T[];
  /** With `archiveBytes`: the blobs that are archives, by name or by their first bytes, for the caller to open. */
  archives: { blob: T; kind: ArchiveKind; bytes: Buffer }[];
  /** With `archiveBytes`: archives larger than that, not read. */
  tooLarge: { blob: T; size: number }[];
}

/** Blobs up to this size are scanned whole; larger ones in windows. */
const WHOLE = 8 << 20;
/** What a large blob's first bytes must reach before they tell an archive (tar's magic ends at 262). */
const HEAD = 512;

/**
 * What `git cat-file --batch` is saying, blob by blob: a header line, then the blob's bytes (held whole, or streamed
 * through a windowed scan when large), then a newline. Each finished blob is scanned, or handed back as an archive.
 */
class BlobReader<T extends Blob> {
  readonly result: BlobScan<T> = { findings: [], missing: [], archives: [], tooLarge: [] };
  /** The blob being read: its index in `blobs`. */
  index = 0;
  /** Why git's output could not be read, the first time it could not. */
  problem: string | undefined;
  private header: Buffer[] = [];
  /** Bytes of the current blob still to come, then its trailing newline; -1 while a header line is awaited. */
  private remaining = -1;
  private parts: Buffer[] = [];
  private held = 0;
  private stream: StreamScan | undefined;
  /** The current blob's archive kind, once its name or its first bytes tell it. */
  private kind: ArchiveKind | undefined;
  /** A large blob whose first bytes are still to tell whether it is an archive. */
  private undecided = false;
  /** An archive too large to open: its bytes are passed over. */
  private passOver = false;
  private size = 0;
  private readonly blobs: readonly T[];
  private readonly options: ScanOptions;
  private readonly archiveBytes: number | undefined;

  constructor(blobs: readonly T[], options: ScanOptions, archiveBytes: number | undefined) {
    this.blobs = blobs;
    this.options = options;
    this.archiveBytes = archiveBytes;
  }

  /** Reads a chunk of git's output. */
  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining < 0) {
        const newline = chunk.indexOf(10, at);
        this.header.push(chunk.subarray(at, newline === -1 ? chunk.length : newline));
        if (newline === -1) break;
        at = newline + 1;
        const line = Buffer.concat(this.header).toString('utf8');
        this.header = [];
        this.begin(line);
      } else if (this.remaining > 0) {
        const piece = chunk.subarray(at, Math.min(chunk.length, at + this.remaining));
        this.content(piece);
        this.remaining -= piece.length;
        at += piece.length;
      } else {
        // The newline git writes after each blob's content.
        at += 1;
        this.remaining = -1;
        this.finish();
      }
    }
  }

  /** A header line: "<oid> blob <size>", "<oid> missing", or something git should not have said. */
  private begin(line: string): void {
    const [, type, declared] = line.split(' ');
    if (type === 'missing' && this.index < this.blobs.length) {
      this.result.missing.push(this.blobs[this.index++]!);
      return;
    }
    if (type !== 'blob' || declared === undefined) {
      this.problem ??= `git cat-file: ${line}`;
      this.index++;
      return;
    }
    this.remaining = this.size = Number(declared);
    const blob = this.blobs[this.index]!;
    const openArchives = this.archiveBytes !== undefined;
    this.kind = openArchives ? archiveKind(blob.path) : undefined;
    if (this.kind) this.tooLargeArchive(blob);
    else if (this.remaining > WHOLE) {
      if (openArchives) this.undecided = true;
      else this.stream = new StreamScan(optionsFor(blob.path, this.options));
    }
  }

  private content(piece: Buffer): void {
    if (this.stream) this.stream.push(piece);
    else if (!this.passOver) {
      this.parts.push(piece);
      this.held += piece.length;
      if (this.undecided && this.held >= HEAD) this.decide(this.blobs[this.index]!);
    }
  }

  private finish(): void {
    const blob = this.blobs[this.index++]!;
    if (this.undecided) this.decide(blob);
    if (!this.passOver) {
      const bytes = this.stream ? undefined : Buffer.concat(this.parts);
      const archive = bytes && this.archiveBytes !== undefined ? (this.kind ?? archiveMagic(bytes)) : undefined;
      if (bytes && archive) this.result.archives.push({ blob, kind: archive, bytes });
      else {
        const found = this.stream ? this.stream.end() : scanBytes(bytes!, optionsFor(blob.path, this.options));
        for (const finding of found) this.result.findings.push({ blob, finding });
      }
    }
    this.parts = [];
    this.held = 0;
    this.stream = undefined;
    this.kind = undefined;
    this.undecided = this.passOver = false;
  }

  /** A large blob's first bytes are in: an archive is held whole (or passed over), anything else streamed. */
  private decide(blob: T): void {
    this.undecided = false;
    this.kind = archiveMagic(Buffer.concat(this.parts), this.size);
    if (this.kind) return this.tooLargeArchive(blob);
    this.stream = new StreamScan(optionsFor(blob.path, this.options));
    for (const part of this.parts) this.stream.push(part);
    this.parts = [];
  }

  private tooLargeArchive(blob: T): void {
    if (this.size <= this.archiveBytes!) return;
    this.result.tooLarge.push({ blob, size: this.size });
    this.passOver = true;
    this.parts = [];
  }
}

export async function scanBlobs<T extends Blob>(
  root: string,
  blobs: readonly T[],
  options: ScanOptions,
  /** What the blobs are, for the error message ("the staged blobs"). */
  what: string,
  gitOptions: Omit<GitCallOptions, 'input' | 'keepStdin'> = {},
  /**
   * When given, archives of up to this many bytes are handed back (`archives`) rather than scanned as text, for the
   * caller to open as a scan of files on disk does; larger ones are named in `tooLarge`.
   */
  archiveBytes?: number,
): Promise<BlobScan<T>> {
  const reader = new BlobReader(blobs, options, archiveBytes);
  if (blobs.length === 0) return reader.result;
  const git = gitStream(['cat-file', '--batch'], root, {
    ...gitOptions,
    input: blobs.map((b) => b.oid).join('\n') + '\n',
  });
  for await (const chunk of git.stdout as AsyncIterable<Buffer>) reader.push(chunk);
  const { code, stderr } = await git.done;
  if (code !== 0 || reader.problem || reader.index !== blobs.length)
    throw new Error(`could not read ${what}: ${gitMessage(reader.problem ?? stderr) || `git exit ${code}`}`);
  return reader.result;
}
