// What the next commit would add: every staged change but deletions (type
// changes, renames and copies included), read as blobs by object id. Reading
// ":NAME" would take a file called "0:prod.env" for a stage number, and a
// worktree read would see what is on disk rather than what is staged.
import { gitMessage, gitStream, runGit } from './git.ts';
import type { Skipped } from './report.ts';
import { type Finding, type ScanOptions, optionsFor } from './scanner.ts';
import { StreamScan, scanBytes } from './streamScan.ts';

export interface StagedFinding {
  /** Path inside the repository, '/'-separated. */
  path: string;
  finding: Finding;
}

export interface StagedScan {
  findings: StagedFinding[];
  /** Paths inside the repository. */
  skipped: Skipped[];
}

interface StagedBlob {
  path: string;
  oid: string;
}

const GITLINK = '160000';
/** Blobs up to this size are scanned whole; larger ones in windows. */
const WHOLE = 8 << 20;

/** Parses `git diff --raw -z`: ":old new oldOid newOid STATUS\0path\0" (no renames asked, so one path). */
export function parseRawDiff(raw: string): { path: string; newMode: string; oid: string; status: string }[] {
  const out: { path: string; newMode: string; oid: string; status: string }[] = [];
  const parts = raw.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!;
    if (!meta.startsWith(':')) break;
    const [, newMode = '', , oid = '', status = ''] = meta.slice(1).split(' ');
    out.push({ path: parts[i + 1]!, newMode, oid, status: status.charAt(0) });
  }
  return out;
}

export async function scanStaged(root: string, options: ScanOptions = {}): Promise<StagedScan> {
  // GIT_INDEX_FILE is kept: `git commit -a` and `git commit PATH` run the hook on a temporary index.
  const diff = await runGit(
    ['diff', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev', '--diff-filter=d'],
    root,
    { inheritIndexFile: true },
  );
  if (diff.code !== 0) throw new Error(`git diff --cached failed: ${gitMessage(diff.stderr)}`);
  const skipped: Skipped[] = [];
  const blobs: StagedBlob[] = [];
  for (const entry of parseRawDiff(diff.stdout)) {
    if (entry.status === 'U') skipped.push({ path: entry.path, reason: 'unmerged' });
    else if (entry.newMode === GITLINK) skipped.push({ path: entry.path, reason: 'submodule' });
    else blobs.push({ path: entry.path, oid: entry.oid });
  }
  return { findings: await scanBlobs(root, blobs, options), skipped };
}

/** Streams the blobs through one `git cat-file --batch` and scans each as it arrives. */
async function scanBlobs(root: string, blobs: StagedBlob[], options: ScanOptions): Promise<StagedFinding[]> {
  if (blobs.length === 0) return [];
  const findings: StagedFinding[] = [];
  const git = gitStream(['cat-file', '--batch'], root, {
    inheritIndexFile: true,
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
    for (const finding of found) findings.push({ path: blob.path, finding });
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
    throw new Error(`could not read the staged blobs: ${gitMessage(problem ?? stderr) || `git exit ${code}`}`);
  return findings;
}
