// One range of a split history walk (historySplit.ts): its commits shown by a `git log` of its own and read by a
// parser of its own, on this thread or on a worker thread (historyThreads.ts), as git writes it.
import { gitMessage, gitStream } from './git.ts';
import { HistoryParser, type ParsedRange } from './historyParser.ts';
import type { ScanOptions } from './scanner.ts';

export interface SplitControl {
  signal?: AbortSignal;
  /** The worker threads' program (scanPool.ts's): each range is then parsed on the thread its git is read on. */
  workerFile?: string;
  /** Commits and bytes of git's output read so far, over all ranges. */
  onProgress?: (commits: number, bytes: number) => void;
}

/** A range to read: the repository, the log's arguments (commits on stdin) and the range's commits, in order. */
export interface RangeJob {
  root: string;
  args: readonly string[];
  commits: readonly string[];
}

/**
 * Feeds `parser` the range's log; `onChunk` after each piece, with its length. Git's failure is returned as the
 * message the scan fails with (undefined when git succeeded or the read was cancelled).
 */
export async function readRange(
  job: RangeJob,
  parser: HistoryParser,
  signal: AbortSignal | undefined,
  onChunk: (bytes: number) => void,
): Promise<string | undefined> {
  const input = `${job.commits.join('\n')}\n`;
  const git = gitStream(job.args, job.root, { input, buffered: true, ...(signal ? { signal } : {}) });
  git.stdout.on('data', (chunk: Buffer) => {
    parser.push(chunk);
    onChunk(chunk.length);
  });
  const { code, stderr } = await git.done;
  if (code === 0 || signal?.aborted) return undefined;
  return `git log failed (exit ${code}): ${gitMessage(stderr) || 'no message'}`;
}

/** What a worker thread answers for a range: progress as it reads, then its findings or git's failure. */
export interface RangeAnswer {
  id: number;
  progress?: { commits: number; bytes: number };
  parsed?: ParsedRange;
  /** Keys found, when the scan asked for them (--verify, in this process). */
  keys?: [string, string][];
  failure?: string;
  /** The thread itself failed (an exception): the scan fails with it. */
  error?: string;
}

/** Bytes of a range read between two progress answers: a message per megabyte, not per piece of git's output. */
const PROGRESS_EVERY = 1 << 20;

/** A worker thread's part (scanPoolWorker.ts): reads the range it is handed, answering through `post`. */
export async function answerRange(
  id: number,
  job: RangeJob,
  options: ScanOptions,
  wantKeys: boolean,
  signal: AbortSignal,
  post: (answer: RangeAnswer) => void,
): Promise<void> {
  const keys: [string, string][] = [];
  const parser = new HistoryParser(wantKeys ? { ...options, onKey: (f, key) => keys.push([f, key]) } : options);
  let bytes = 0;
  let told = 0;
  const failure = await readRange(job, parser, signal, (length) => {
    bytes += length;
    if (bytes - told < PROGRESS_EVERY) return;
    told = bytes;
    post({ id, progress: { commits: parser.commits, bytes } });
  });
  post({ id, progress: { commits: parser.commits, bytes } });
  post(failure ? { id, failure } : { id, parsed: parser.parsed(), ...(wantKeys ? { keys } : {}) });
}
