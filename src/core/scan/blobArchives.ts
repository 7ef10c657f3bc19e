// Git blobs read whole, and those that are archives opened as a scan of files on disk opens one: the staged scan
// (the pre-commit hook) and the history scan share it. A key zipped into a commit is still a key, and neither the
// blob's bytes nor `git log -p` show a compressed entry.
import { ARCHIVE_LIMITS, archiveLimitDetail, scanArchive } from './archive.ts';
import { type Blob, scanBlobs } from './blobScan.ts';
import type { GitCallOptions } from './git.ts';
import type { Skipped } from './report.ts';
import { type Finding, type ScanOptions, optionsFor } from './scanner.ts';

export interface BlobsRead<T extends Blob> {
  /** Keys in a blob's text, or in an archive's entry (`path` then reads `bundle.zip!conf/.env`). */
  findings: { blob: T; path: string; finding: Finding }[];
  /** Blobs git does not have (a partial clone that never fetched them). */
  missing: T[];
  /** What an archive's limits left unread, and archives too large to open; paths as in `findings`. */
  skipped: { blob: T; skip: Skipped }[];
  /** Medium-confidence findings past the per-file cap inside archives, per entry. */
  omitted: { blob: T; path: string; count: number }[];
}

export async function scanBlobsOpeningArchives<T extends Blob>(
  root: string,
  blobs: readonly T[],
  options: ScanOptions,
  /** What the blobs are, for the error message ("the staged blobs"). */
  what: string,
  gitOptions: Omit<GitCallOptions, 'input' | 'keepStdin'> = {},
): Promise<BlobsRead<T>> {
  const read = await scanBlobs(root, blobs, options, what, gitOptions, ARCHIVE_LIMITS.bytes);
  const out: BlobsRead<T> = {
    findings: read.findings.map(({ blob, finding }) => ({ blob, path: blob.path, finding })),
    missing: read.missing,
    skipped: [],
    omitted: [],
  };
  for (const { blob, kind, bytes } of read.archives) {
    const inside = await scanArchive(bytes, kind, optionsFor(blob.path, options), ARCHIVE_LIMITS, blob.path);
    const at = (inner: string) => (inner === '' ? blob.path : `${blob.path}!${inner}`);
    for (const hit of inside.findings) out.findings.push({ blob, path: at(hit.inner), finding: hit.finding });
    for (const { inner, reason, detail } of inside.skipped)
      out.skipped.push({ blob, skip: { path: at(inner), reason, ...(detail ? { detail } : {}) } });
    for (const o of inside.omitted) out.omitted.push({ blob, path: at(o.inner), count: o.count });
  }
  for (const { blob, size } of read.tooLarge)
    out.skipped.push({ blob, skip: { path: blob.path, reason: 'archive-limit', detail: archiveLimitDetail(size) } });
  return out;
}
