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
  const result: BlobScan<T> = { findings: [], missing: [], archives: [], tooLarge: [] };
  if (blobs.length === 0) return result;
  const git = gitStream(['cat-file', '--batch'], root, {
    ...gitOptions,
    input: blobs.map((b) => b.oid).join('\n') + '\n',
  });
  let index = 0;
  let header: Buffer[] = [];
  /** Bytes of the current blob still to come, then its trailing newline. */
  let remaining = -1;
  let parts: Buffer[] = [];
  let held = 0;
  let stream: StreamScan | undefined;
  /** The current blob's archive kind, once its name or its first bytes tell it. */
  let kind: ArchiveKind | undefined;
  /** A large blob whose first bytes are still to tell whether it is an archive. */
  let undecided = false;
  /** An archive too large to open: its bytes are passed over. */
  let passOver = false;
  let size = 0;
  let problem: string | undefined;

  const finish = () => {
    const blob = blobs[index++]!;
    if (undecided) decide(blob);
    if (!passOver) {
      const bytes = stream ? undefined : Buffer.concat(parts);
      const archive = bytes && archiveBytes !== undefined ? (kind ?? archiveMagic(bytes)) : undefined;
      if (bytes && archive) result.archives.push({ blob, kind: archive, bytes });
      else {
        const found = stream ? stream.end() : scanBytes(bytes!, optionsFor(blob.path, options));
        for (const finding of found) result.findings.push({ blob, finding });
      }
    }
    parts = [];
    held = 0;
    stream = undefined;
    kind = undefined;
    undecided = passOver = false;
  };
  /** A large blob's first bytes are in: an archive is held whole (or passed over), anything else streamed. */
  const decide = (blob: T) => {
    undecided = false;
    kind = archiveMagic(Buffer.concat(parts), size);
    if (kind) return tooLargeArchive(blob);
    stream = new StreamScan(optionsFor(blob.path, options));
    for (const part of parts) stream.push(part);
    parts = [];
  };
  const tooLargeArchive = (blob: T) => {
    if (size <= archiveBytes!) return;
    result.tooLarge.push({ blob, size });
    passOver = true;
    parts = [];
  };

  for await (const chunk of git.stdout as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length) {
      if (remaining < 0) {
        const newline = chunk.indexOf(10, at);
        header.push(chunk.subarray(at, newline === -1 ? chunk.length : newline));
        if (newline === -1) break;
        at = newline + 1;
        const line = Buffer.concat(header).toString('utf8');
        header = [];
        const [, type, declared] = line.split(' ');
        if (type === 'missing' && index < blobs.length) {
          result.missing.push(blobs[index++]!);
          continue;
        }
        if (type !== 'blob' || declared === undefined) {
          problem ??= `git cat-file: ${line}`;
          index++;
          continue;
        }
        remaining = size = Number(declared);
        const blob = blobs[index]!;
        const openArchives = archiveBytes !== undefined;
        kind = openArchives ? archiveKind(blob.path) : undefined;
        if (kind) tooLargeArchive(blob);
        else if (remaining > WHOLE) {
          if (openArchives) undecided = true;
          else stream = new StreamScan(optionsFor(blob.path, options));
        }
      } else if (remaining > 0) {
        const piece = chunk.subarray(at, Math.min(chunk.length, at + remaining));
        if (stream) stream.push(piece);
        else if (!passOver) {
          parts.push(piece);
          held += piece.length;
          if (undecided && held >= HEAD) decide(blobs[index]!);
        }
        remaining -= piece.length;
        at += piece.length;
      } else {
        // The newline git writes after each blob's content.
        at += 1;
        remaining = -1;
        finish();
      }
    }
  }
  const { code, stderr } = await git.done;
  if (code !== 0 || problem || index !== blobs.length)
    throw new Error(`could not read ${what}: ${gitMessage(problem ?? stderr) || `git exit ${code}`}`);
  return result;
}
