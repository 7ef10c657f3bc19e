// A worker of scanPool.ts (dist/scanPool.js): scans the batches of files it is sent, one after another, with the
// options it was started with, and answers each with what it found in its files' order. Keys go back only when
// --verify asked for them, to the same process. A split history scan's workers (historyThreads.ts) are sent ranges
// of commits instead, each read by a git of its own here.
import { parentPort, workerData } from 'node:worker_threads';
import { bytesRead } from './fileScan.ts';
import { type RangeJob, answerRange } from './historyRange.ts';
import { scanFiles } from './listedScan.ts';
import type { BatchResult, PoolSetup } from './scanPool.ts';
import type { FolderFiles, Listed } from './targets.ts';

const setup = workerData as PoolSetup;
// One batch at a time: an archive's scan awaits, and the next batch waits for it.
const queue = { last: Promise.resolve() };

async function scanBatch(items: (Listed | FolderFiles)[], files: number): Promise<BatchResult> {
  const result: BatchResult = { out: [], skipped: [], omitted: [], keys: [], files, bytes: 0 };
  const options = setup.wantKeys
    ? { ...setup.options, onKey: (fingerprint: string, key: string) => result.keys.push([fingerprint, key]) }
    : setup.options;
  const before = bytesRead.total;
  await scanFiles(items, setup.maxSize, setup.cwd, result.out, result.skipped, result.omitted, options);
  result.bytes = bytesRead.total - before;
  return result;
}

/** The range being read, when this worker reads a split history's ranges (historyThreads.ts). */
const reading = { stop: new AbortController() };

function readHistoryRange(id: number, job: RangeJob): void {
  reading.stop = new AbortController();
  queue.last = queue.last.then(async () => {
    try {
      await answerRange(id, job, setup.options, setup.wantKeys, reading.stop.signal, (a) => parentPort!.postMessage(a));
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

type Message = { id: number; items: (Listed | FolderFiles)[] } | { id: number; range: RangeJob } | { stop: true };

parentPort?.on('message', (message: Message) => {
  if ('stop' in message) return reading.stop.abort();
  if ('range' in message) return readHistoryRange(message.id, message.range);
  const { id, items } = message;
  queue.last = queue.last.then(async () => {
    try {
      const files = items.reduce((n, item) => n + ('names' in item ? item.names.length : 1), 0);
      parentPort!.postMessage({ id, result: await scanBatch(items, files) });
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
