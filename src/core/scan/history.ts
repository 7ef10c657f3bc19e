// Keys ever committed: the added lines of `git log -p`, read as git writes
// them (no buffer to outgrow, however long the history), with git's exit
// status checked: a log that failed is an error, never "no key found".
import { gitMessage, gitStream, runGit } from './git.ts';
import { scanBlobsOpeningArchives } from './blobArchives.ts';
import { scanBlobs } from './blobScan.ts';
import { HistoryError, cutShort, notFetched } from './historyGaps.ts';
import type { FileFinding, Skipped } from './report.ts';
import type { ScanOptions } from './scanner.ts';
import { type HistoryBlob, HistoryParser } from './historyParser.ts';
import { SPLIT_MIN_COMMITS, commitOrder, readSplit } from './historySplit.ts';

/**
 * Oldest first (parents before children, --topo-order), so a key is reported in
 * the commit that added it; `--text` so binary files are searched too. Every
 * option that repository or global config could change is pinned here or in
 * git.ts (log.showRoot, diff.renames, diff.relative, prefixes, colour, textconv,
 * external diff, signatures): `-U0` and `--inter-hunk-context=0` (diff.context,
 * diff.interHunkContext), `--submodule=short` (diff.submodule=diff would splice
 * another repository's diffs in), `--encoding=UTF-8` (i18n.logOutputEncoding).
 *
 * Merges: `git log -p` shows none by default, and neither gitleaks
 * (sources/git.go: `log -p -U0 --full-history --all`) nor TruffleHog
 * (pkg/gitparse/gitparse.go: `log --patch --full-history --all`) asks for them,
 * so a key written while resolving a conflict, or added with `merge --no-commit`,
 * is never read. `--cc` (dense combined diff) shows, per merge, only the lines
 * that differ from every parent's version; a line new to all parents ("++") is
 * what the merge itself introduced. `--diff-merges=first-parent` would repeat
 * every line the merged branch already added (found in its own commits), and
 * `--remerge-diff` re-runs the merge, with whatever merge driver the
 * repository's attributes name.
 */
export const HISTORY_LOG_ARGS: readonly string[] = [
  'log',
  '-p',
  '--all',
  '--full-history',
  '--reverse',
  '--topo-order',
  '--cc',
  '-U0',
  '--inter-hunk-context=0',
  '--text',
  '--full-index',
  '--submodule=short',
  '--encoding=UTF-8',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  `--format=%x00commit %H %s`,
];

export interface HistoryControl {
  signal?: AbortSignal;
  /** Called as commits go by, with how many have been read, the bytes of git's output read, and the total if known. */
  onProgress?: (commits: number, bytes: number, total?: number) => void;
  /**
   * At most this many `git log` at once (historySplit.ts); 1 (the default) is one walk. A history shorter than
   * SPLIT_MIN_COMMITS, or a partial clone missing objects, is read by one walk whatever this says.
   */
  processes?: number;
  /** The worker threads' program (dist/scanPool.js): a split history's ranges are then parsed beside their gits. */
  workerFile?: string;
}

export interface HistoryScan {
  /** Paths inside the repository. */
  findings: FileFinding[];
  /** What history holds that was not read (paths inside the repository; '' is the repository itself). */
  skipped: Skipped[];
  commits: number;
  cancelled: boolean;
}

// Defined beside the checks made before a scan, which throw it too.
export { HistoryError } from './historyGaps.ts';

/** How many commits a history scan will read (for a progress bar). */
export async function countCommits(root: string): Promise<number | undefined> {
  const result = await runGit(['rev-list', '--all', '--count'], root);
  return result.code === 0 ? Number(result.stdout.trim()) : undefined;
}

export async function scanHistory(
  root: string,
  options: ScanOptions = {},
  control: HistoryControl = {},
): Promise<HistoryScan> {
  const splitAsked = (control.processes ?? 1) > 1;
  // Three reads of the repository that do not wait on each other: asked at once, as each costs a git's start.
  const [short, absent, order] = await Promise.all([
    cutShort(root),
    notFetched(root),
    splitAsked ? commitOrder(root) : undefined,
  ]);
  const skipped = [...short, ...absent];
  // A partial clone's walk stops at its first missing blob (named below): read as one walk, as it always was.
  const commits = splitAsked && absent.length === 0 ? order : undefined;
  const parser =
    commits && commits.length >= SPLIT_MIN_COMMITS
      ? await readSplit(root, commits, HISTORY_LOG_ARGS, control.processes!, options, {
          ...(control.signal ? { signal: control.signal } : {}),
          ...(control.workerFile ? { workerFile: control.workerFile } : {}),
          onProgress: (done, bytes) => control.onProgress?.(done, bytes, commits.length),
        })
      : await readWalk(root, options, control, skipped, commits?.length);
  if (control.signal?.aborted) return { findings: parser.end(), skipped, commits: parser.commits, cancelled: true };
  parser.end();
  // UTF-16 files: read whole, through the file scan's decoding.
  const wide = await scanBlobs(root, parser.wideBlobs(), options, 'blobs in history');
  for (const { blob, finding } of wide.findings) parser.report(blob.path, finding, blob.commit, blob.subject);
  const unfetched = (blob: HistoryBlob) =>
    skipped.push({
      path: blob.path,
      reason: 'not-fetched',
      detail: `object ${blob.oid} of commit ${blob.commit.slice(0, 12)}`,
    });
  wide.missing.forEach(unfetched);
  await openArchives(root, parser, options, skipped, unfetched);
  return { findings: parser.end(), skipped, commits: parser.commits, cancelled: false };
}

/** The history as one `git log -p` walk, read as git writes it. */
async function readWalk(
  root: string,
  options: ScanOptions,
  control: HistoryControl,
  skipped: Skipped[],
  total: number | undefined,
): Promise<HistoryParser> {
  const parser = new HistoryParser(options);
  const git = gitStream(HISTORY_LOG_ARGS, root, {
    buffered: true,
    ...(control.signal ? { signal: control.signal } : {}),
  });
  let reported = 0;
  let bytes = 0;
  for await (const chunk of git.stdout as AsyncIterable<Buffer>) {
    parser.push(chunk);
    bytes += chunk.length;
    if (control.onProgress && parser.commits !== reported) {
      reported = parser.commits;
      control.onProgress(reported, bytes, total);
    }
  }
  const { code, stderr } = await git.done;
  if (code !== 0 && !control.signal?.aborted) {
    // git log stops at the first blob a partial clone lacks: what it read is reported, the rest named.
    if (!skipped.some((s) => s.reason === 'not-fetched'))
      throw new HistoryError(`git log failed (exit ${code}): ${gitMessage(stderr) || 'no message'}`);
    skipped.push({ path: '', reason: 'history-stopped', detail: gitMessage(stderr) || `git exit ${code}` });
  }
  return parser;
}

/**
 * Archives committed at any time, each version read whole and opened (blobArchives.ts), even one deleted since:
 * the patch's lines of a compressed file show nothing of its entries.
 */
async function openArchives(
  root: string,
  parser: HistoryParser,
  options: ScanOptions,
  skipped: Skipped[],
  unfetched: (blob: HistoryBlob) => void,
): Promise<void> {
  const read = await scanBlobsOpeningArchives(root, parser.wholeBlobs(), options, 'the files in history read whole');
  for (const { blob, path, finding } of read.findings) parser.report(path, finding, blob.commit, blob.subject);
  read.missing.forEach(unfetched);
  for (const { blob, skip } of read.skipped) {
    const where = `in commit ${blob.commit.slice(0, 12)}`;
    skipped.push({ ...skip, detail: skip.detail ? `${skip.detail}; ${where}` : where });
  }
}
