// A long history read by several `git log -p` at once: git's diffs are most of a history scan's work, and one git
// uses one core. The commits, in the order one `git log --reverse --topo-order` walks them, are cut into ranges; each
// range is shown by a git of its own (`--no-walk=unsorted` and the range's commits on its stdin: the same commits,
// in the same order, each diffed as the walk diffs it) and read by a parser of its own; the parsers are then joined
// in the ranges' order (HistoryParser.absorb), so the findings are those of one walk, in its order, each once.
// Every git is run as git.ts runs it: config-driven programs off, no secret in its environment.
import { gitMessage, gitStream, runGit } from './git.ts';
import { HistoryError } from './historyGaps.ts';
import { HistoryParser } from './historyParser.ts';
import type { ScanOptions } from './scanner.ts';

/** A history shorter than this is read by one git: starting more costs more than it saves. */
export const SPLIT_MIN_COMMITS = 400;
/** Ranges per git process: a range of large commits then holds up one git, not the whole scan. */
const RANGES_PER_PROCESS = 4;

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

export interface SplitControl {
  signal?: AbortSignal;
  /** Commits and bytes of git's output read so far, over all ranges. */
  onProgress?: (commits: number, bytes: number) => void;
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
  const ranges = rangesOf(commits, processes * RANGES_PER_PROCESS);
  const parsers = ranges.map(() => new HistoryParser(options));
  const progress = { bytes: 0 };
  const report = () =>
    control.onProgress?.(
      parsers.reduce((n, p) => n + p.commits, 0),
      progress.bytes,
    );
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < ranges.length && failures.length === 0 && !control.signal?.aborted) {
      const id = next++;
      const parser = parsers[id]!;
      const git = gitStream(args, root, {
        input: `${ranges[id]!.join('\n')}\n`,
        ...(control.signal ? { signal: control.signal } : {}),
      });
      git.stdout.on('data', (chunk: Buffer) => {
        parser.push(chunk);
        progress.bytes += chunk.length;
        report();
      });
      const { code, stderr } = await git.done;
      if (code !== 0 && !control.signal?.aborted)
        failures.push(`git log failed (exit ${code}): ${gitMessage(stderr) || 'no message'}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(processes, ranges.length) }, worker));
  if (failures.length > 0) throw new HistoryError(failures[0]!);
  const [first, ...rest] = parsers;
  first!.end();
  for (const parser of rest) first!.absorb(parser);
  return first!;
}
