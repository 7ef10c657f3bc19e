// Scans git blobs by object id through one `git cat-file --batch`, each blob
// whole (or in windows when large) through the same decoding as a file on disk:
// a UTF-16 byte-order mark is read as such in staged blobs and in history alike.
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
}

/** Blobs up to this size are scanned whole; larger ones in windows. */
const WHOLE = 8 << 20;

export async function scanBlobs<T extends Blob>(
  root: string,
  blobs: readonly T[],
  options: ScanOptions,
  /** What the blobs are, for the error message ("the staged blobs"). */
  what: string,
  gitOptions: Omit<GitCallOptions, 'input' | 'keepStdin'> = {},
): Promise<BlobScan<T>> {
  const result: BlobScan<T> = { findings: [], missing: [] };
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
  let stream: StreamScan | undefined;
  let problem: string | undefined;

  const finish = () => {
    const blob = blobs[index++]!;
    const found = stream ? stream.end() : scanBytes(Buffer.concat(parts), optionsFor(blob.path, options));
    for (const finding of found) result.findings.push({ blob, finding });
    parts = [];
    stream = undefined;
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
        const [, type, size] = line.split(' ');
        if (type === 'missing' && index < blobs.length) {
          result.missing.push(blobs[index++]!);
          continue;
        }
        if (type !== 'blob' || size === undefined) {
          problem ??= `git cat-file: ${line}`;
          index++;
          continue;
        }
        remaining = Number(size);
        if (remaining > WHOLE) stream = new StreamScan(optionsFor(blobs[index]!.path, options));
      } else if (remaining > 0) {
        const piece = chunk.subarray(at, Math.min(chunk.length, at + remaining));
        if (stream) stream.push(piece);
        else parts.push(piece);
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
