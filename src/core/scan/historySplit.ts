// A long history read by several `git log -p` at once: git's diffs are most of a history scan's work, and one git
// uses one core. The commits, in the order one `git log --reverse --topo-order` walks them, are cut into ranges; each
// range is shown by a git of its own (`--no-walk=unsorted` and the range's commits on its stdin: the same commits,
// in the same order, each diffed as the walk diffs it) and read by a parser of its own; the parsers are then joined
// in the ranges' order (HistoryParser.absorb), so the findings are those of one walk, in its order, each once.
// Every git is run as git.ts runs it: config-driven programs off, no secret in its environment.
import { existsSync } from 'node:fs';
import { runGit } from './git.ts';
import { HistoryError } from './historyGaps.ts';
import { HistoryParser, type ParsedRange } from './historyParser.ts';
import { type RangeJob, type SplitControl, readRange } from './historyRange.ts';
import { readRangesThreaded } from './historyThreads.ts';
import type { ScanOptions } from './scanner.ts';

/** A history shorter than this is read by one git: starting more costs more than it saves. */
export const SPLIT_MIN_COMMITS = 400;
/** Ranges per git process: a range of large commits then holds up one git, not the whole scan. */
const RANGES_PER_PROCESS = 4;

/**
 * From this many gits at once, each range is parsed on a worker thread beside its git (historyThreads.ts). With two,
 * this thread keeps up with both: on 2 cores a worker's start and its own warm-up (about 140 ms of CPU on the
 * bench's 3,000-commit history) cost more than the parse it takes off this thread, and every core is busy already.
 */
export const THREADS_FROM = 3;

/** The options of history.ts's walk that choose and order commits: left out when the commits are given. */
const WALK_ONLY = new Set(['--all', '--full-history', '--reverse', '--topo-order']);

/**
 * Every commit `git log --all --reverse --topo-order` shows, in its order; undefined when git cannot list them (the
 * one walk then runs, and names git's failure as it always did).
 */
export async function commitOrder(root: string): Promise<string[] | undefined> {
  const result = await runGit(['rev-list', '--all', '--full-history', '--reverse', '--topo-order'], root);
  return result.code === 0 ? result.stdout.split('\n').filter(Boolean) : undefined;
}

/** The commits cut into `count` runs of about equal length, in order. */
export function rangesOf(commits: readonly string[], count: number): string[][] {
  const ranges: string[][] = [];
  const size = Math.ceil(commits.length / count);
  for (let at = 0; at < commits.length; at += size) ranges.push(commits.slice(at, at + size));
  return ranges;
}

/**
 * Reads `commits` (in walk order) with `logArgs` (history.ts's walk) through up to `processes` gits at once; the
 * parser of them all. A git that fails fails the scan with its message, as the one walk's would.
 */
export async function readSplit(
  root: string,
  commits: readonly string[],
  logArgs: readonly string[],
  processes: number,
  options: ScanOptions,
  control: SplitControl = {},
): Promise<HistoryParser> {
  const args = [...logArgs.filter((arg) => !WALK_ONLY.has(arg)), '--no-walk=unsorted', '--stdin'];
  const jobs = rangesOf(commits, processes * RANGES_PER_PROCESS).map((range) => ({ root, args, commits: range }));
  const threaded = processes >= THREADS_FROM && control.workerFile !== undefined && existsSync(control.workerFile);
  const parsed = threaded
    ? await readRangesThreaded(jobs, processes, control.workerFile!, options, control)
    : await readRangesHere(jobs, processes, options, control);
  // Joined in the ranges' order; a cancelled scan's unread ranges are holes.
  const joined = new HistoryParser(options);
  for (const range of parsed) if (range) joined.absorb(range);
  return joined;
}

/** The ranges read on this thread, `processes` gits at once. */
async function readRangesHere(
  jobs: readonly RangeJob[],
  processes: number,
  options: ScanOptions,
  control: SplitControl,
): Promise<ParsedRange[]> {
  const parsers = jobs.map(() => new HistoryParser(options));
  const progress = { bytes: 0 };
  const report = () =>
    control.onProgress?.(
      parsers.reduce((n, p) => n + p.commits, 0),
      progress.bytes,
    );
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < jobs.length && failures.length === 0 && !control.signal?.aborted) {
      const id = next++;
      const failure = await readRange(jobs[id]!, parsers[id]!, control.signal, (bytes) => {
        progress.bytes += bytes;
        report();
      });
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: Math.min(processes, jobs.length) }, worker));
  if (failures.length > 0) throw new HistoryError(failures[0]!);
  return parsers.map((parser) => parser.parsed());
}
