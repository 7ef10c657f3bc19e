// What the next commit would add: every staged change but deletions (type
// changes, renames and copies included), read as blobs by object id. Reading
// ":NAME" would take a file called "0:prod.env" for a stage number, and a
// worktree read would see what is on disk rather than what is staged.
import { scanBlobsOpeningArchives } from './blobArchives.ts';
import { gitMessage, runGit } from './git.ts';
import type { Skipped } from './report.ts';
import type { Finding, ScanOptions } from './scanner.ts';

export interface StagedFinding {
  /** Path inside the repository, '/'-separated. */
  path: string;
  finding: Finding;
}

export interface StagedScan {
  findings: StagedFinding[];
  /** Paths inside the repository. */
  skipped: Skipped[];
  /** Medium-confidence findings past the per-file cap inside staged archives, per entry. */
  omitted: { path: string; count: number }[];
}

interface StagedBlob {
  path: string;
  oid: string;
}

const GITLINK = '160000';

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
  if (blobs.length === 0) return { findings: [], skipped, omitted: [] };
  const read = await scanBlobsOpeningArchives(root, blobs, options, 'the staged blobs', { inheritIndexFile: true });
  if (read.missing.length > 0)
    throw new Error(`could not read the staged blobs: git cat-file: ${read.missing[0]!.oid} missing`);
  return {
    findings: read.findings.map(({ path, finding }) => ({ path, finding })),
    skipped: [...skipped, ...read.skipped.map(({ skip }) => skip)],
    omitted: read.omitted.map(({ path, count }) => ({ path, count })),
  };
}
