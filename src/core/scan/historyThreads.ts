// The ranges of a split history walk (historySplit.ts) on worker threads as well as this one: each worker (the
// pool's program, scanPoolWorker.ts) starts the git of the range it is handed and parses git's output beside it, so
// parsing runs on as many threads as gits run, not all of it on this one while the gits wait on a full pipe. What
// each range found comes back as plain data and is joined in the ranges' order, as the parsers of one thread are:
// the findings are those of one walk, in its order (test/cli/scanHistorySplit.test.ts compares them).
import type { Worker } from 'node:worker_threads';
import { loadBuiltin } from '../builtin.ts';
import { HistoryError } from './historyGaps.ts';
import { HistoryParser, type ParsedRange } from './historyParser.ts';
import { type RangeAnswer, type RangeJob, type SplitControl, readRange } from './historyRange.ts';
import type { PoolSetup } from './scanPool.ts';
import type { ScanOptions } from './scanner.ts';

/** Reads `jobs` on this thread and `threads - 1` workers, a range at a time each; what each found, in their order. */
export function readRangesThreaded(
  jobs: readonly RangeJob[],
  threads: number,
  workerFile: string,
  options: ScanOptions,
  control: SplitControl,
): Promise<ParsedRange[]> {
  const { Worker: WorkerClass } = loadBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
  const { onKey, ...plain } = options;
  const setup: PoolSetup = { maxSize: 0, cwd: jobs[0]?.root ?? '', options: plain, wantKeys: onKey !== undefined };
  const results: ParsedRange[] = new Array<ParsedRange>(jobs.length);
  const commits = jobs.map(() => 0);
  const bytes = jobs.map(() => 0);
  const report = () =>
    control.onProgress?.(
      commits.reduce((a, b) => a + b, 0),
      bytes.reduce((a, b) => a + b, 0),
    );
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  return new Promise<ParsedRange[]>((resolve, reject) => {
    let over = false;
    const end = (error?: Error) => {
      if (over) return;
      over = true;
      for (const worker of workers) {
        worker.postMessage({ stop: true });
        void worker.terminate();
      }
      if (error) reject(error);
      else resolve(results);
    };
    const finished = (id: number, parsed: ParsedRange | undefined, failure: string | undefined) => {
      if (failure) return end(new HistoryError(failure));
      results[id] = parsed!;
      if (++done === jobs.length) end();
    };
    const handOut = (worker: Worker) => {
      if (over || control.signal?.aborted || next >= jobs.length) return;
      const id = next++;
      worker.postMessage({ id, range: jobs[id] });
    };
    const onAnswer = (worker: Worker, answer: RangeAnswer) => {
      if (answer.error !== undefined) return end(new HistoryError(`a history thread failed: ${answer.error}`));
      if (answer.progress) {
        commits[answer.id] = answer.progress.commits;
        bytes[answer.id] = answer.progress.bytes;
        return report();
      }
      if (onKey) for (const [fingerprint, key] of answer.keys ?? []) onKey(fingerprint, key);
      finished(answer.id, answer.parsed, answer.failure);
      handOut(worker);
    };
    control.signal?.addEventListener('abort', () => end(), { once: true });
    for (let i = 0; i < threads - 1 && i < jobs.length - 1; i++) {
      const worker = new WorkerClass(workerFile, { workerData: setup });
      workers.push(worker);
      worker.on('message', (answer: RangeAnswer) => onAnswer(worker, answer));
      worker.on('error', (error) => end(new HistoryError(`a history thread failed: ${error.message}`)));
      worker.on('exit', (code) =>
        end(new HistoryError(`a history thread ended before its range was read (exit ${code})`)),
      );
      handOut(worker);
    }
    void (async () => {
      while (!over && !control.signal?.aborted && next < jobs.length) {
        const id = next++;
        const parser = new HistoryParser(options);
        const failure = await readRange(jobs[id]!, parser, control.signal, (length) => {
          bytes[id]! += length;
          commits[id] = parser.commits;
          report();
        });
        finished(id, failure ? undefined : parser.parsed(), failure);
      }
    })().catch((error: unknown) => end(error instanceof Error ? error : new Error(String(error))));
  });
}
