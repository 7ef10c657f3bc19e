// Scans a large listing on several threads: the listing is cut into batches of files, handed out in order to this
// thread and to worker threads (scanPoolWorker.ts, the program dist/scanPool.js) as each asks for more, and what
// each batch found is joined in the batches' order, so findings, skipped and omitted files come out exactly as one
// thread reports them (test/cli/scanThreads.test.ts compares both). A small listing stays on this thread: starting a
// thread costs more than it saves there, and a small scan keeps its start time.
import { existsSync, statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { loadBuiltin } from '../builtin.ts';
import { bytesRead } from './fileScan.ts';
import { type ScanWatch, scanFiles } from './listedScan.ts';
import type { FileFinding, Omitted, Skipped } from './report.ts';
import type { ScanOptions } from './scanner.ts';
import { type FolderFiles, type Listed, countFiles, isFolderFiles } from './targets.ts';

/** A listing of at least this many files is worth more threads, whatever their size. */
export const POOL_MIN_FILES = 1500;
/** A smaller listing is, when its files hold at least this many bytes. */
export const POOL_MIN_BYTES = 24 << 20;
/** Files per batch: small enough that the threads finish together, large enough that handing out costs little. */
const BATCH_FILES = 48;
/** Batches each worker holds at once: the next is there when it finishes one, while this thread scans its own. */
const IN_FLIGHT = 2;

export interface PoolOptions {
  /** At most this many threads, this one included; 1 scans on this thread alone; undefined: availableCores(). */
  threads: number | undefined;
  /** The worker's program; undefined (or missing) scans on this thread alone. */
  workerFile: string | undefined;
  /** Follows the scan: counts files, reads bytes from `bytesDone`. */
  watch?: PoolWatch;
}

/** A progress line's view of a scan on several threads. */
export interface PoolWatch extends ScanWatch {
  /** Bytes the other threads have read (this thread's are in fileScan.ts's bytesRead). */
  otherBytes: number;
}

/** What the worker is told once, at its start. */
export interface PoolSetup {
  maxSize: number;
  cwd: string;
  options: ScanOptions;
  /** Hand back each key found, for --verify in this process (keys never leave it). */
  wantKeys: boolean;
}

/** One batch's answer: what it found, in its files' order. */
export interface BatchResult {
  out: FileFinding[];
  skipped: Skipped[];
  omitted: Omitted[];
  keys: [string, string][];
  files: number;
  bytes: number;
}

/** The cores this process may use (a container's limit included); asked only of a scan large enough. */
export function availableCores(): number {
  const os = loadBuiltin<typeof import('node:os')>('node:os');
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/**
 * The threads a large listing gets when --threads does not say: one fewer than the cores. A scan on one thread
 * already keeps another core busy with the JavaScript engine's own compiler and collector threads (a quarter of its
 * CPU, in a profile of the bench's corpus), and each worker brings its own. On 2 cores a worker only competed with
 * them: 0.31 s against 0.27 s on one thread for the bench's 52 MB, 0.45 against 0.40 s for 105 MB (medians of 7
 * and 5 runs, Node 24).
 */
export function defaultThreads(cores: number): number {
  return Math.max(1, cores - 1);
}

/**
 * How many threads a listing is worth, up to `requested` (undefined: defaultThreads of the cores available): one
 * for a small one.
 */
export function threadsFor(
  files: readonly (Listed | FolderFiles)[],
  requested: number | undefined,
  cores: () => number = availableCores,
): number {
  if (requested !== undefined && requested <= 1) return 1;
  const count = countFiles(files);
  const batches = Math.ceil(count / BATCH_FILES);
  if (batches < 2) return 1;
  if (count >= POOL_MIN_FILES || bytesReach(files, POOL_MIN_BYTES))
    return Math.min(requested ?? defaultThreads(cores()), batches);
  return 1;
}

/** Whether the files hold at least `bytes` (a few large files are worth threads too); stops counting there. */
function bytesReach(files: readonly (Listed | FolderFiles)[], bytes: number): boolean {
  let total = 0;
  const add = (path: string) => {
    try {
      total += statSync(path).size;
    } catch {
      // Named when it is read; a size is only a guess at the work here.
    }
    return total >= bytes;
  };
  for (const item of files) {
    if (!isFolderFiles(item)) {
      if (add(item.path)) return true;
      continue;
    }
    for (const name of item.names) if (add(item.prefix + name)) return true;
  }
  return false;
}

/** The listing cut into runs of at most `size` files, in its order. */
export function batchesOf(files: readonly (Listed | FolderFiles)[], size: number): (Listed | FolderFiles)[][] {
  const batches: (Listed | FolderFiles)[][] = [];
  let batch: (Listed | FolderFiles)[] = [];
  let count = 0;
  const close = () => {
    batches.push(batch);
    batch = [];
    count = 0;
  };
  for (const item of files) {
    if (!isFolderFiles(item)) {
      batch.push(item);
      if (++count === size) close();
      continue;
    }
    for (let at = 0; at < item.names.length;) {
      const take = Math.min(size - count, item.names.length - at);
      batch.push({ ...item, names: item.names.slice(at, at + take) });
      at += take;
      count += take;
      if (count === size) close();
    }
  }
  if (count > 0) close();
  return batches;
}

/**
 * scanFiles (listedScan.ts) on as many threads as the listing is worth, up to `pool.threads`; the same reports, in
 * the same order. A thread that fails fails the scan (its message names it), never a batch quietly lost.
 */
export async function scanFilesPooled(
  files: readonly (Listed | FolderFiles)[],
  maxSize: number,
  cwd: string,
  found: { out: FileFinding[]; skipped: Skipped[]; omitted: Omitted[] },
  options: ScanOptions,
  pool: PoolOptions,
): Promise<void> {
  const wanted = pool.workerFile ? threadsFor(files, pool.threads) : 1;
  const threads = wanted > 1 && existsSync(pool.workerFile!) ? wanted : 1;
  if (threads <= 1) {
    await scanFiles(files, maxSize, cwd, found.out, found.skipped, found.omitted, options, pool.watch);
    return;
  }
  const batches = batchesOf(files, BATCH_FILES);
  const { onKey, ...plain } = options;
  const setup: PoolSetup = { maxSize, cwd, options: plain, wantKeys: onKey !== undefined };
  const results = await runBatches(batches, threads - 1, pool.workerFile!, setup, options, pool.watch);
  for (const result of results) {
    for (const finding of result.out) found.out.push(finding);
    for (const skip of result.skipped) found.skipped.push(skip);
    for (const o of result.omitted) found.omitted.push(o);
    if (onKey) for (const [fingerprint, key] of result.keys) onKey(fingerprint, key);
  }
}

/** One batch on this thread, between turns of the event loop (the workers' answers come in then). */
async function scanHere(
  batch: (Listed | FolderFiles)[],
  setup: PoolSetup,
  options: ScanOptions,
  watch: PoolWatch | undefined,
): Promise<BatchResult> {
  const result: BatchResult = { out: [], skipped: [], omitted: [], keys: [], files: countFiles(batch), bytes: 0 };
  const before = bytesRead.total;
  // This thread's keys go straight to the caller's onKey: no need to carry them. Its files count as it goes.
  await scanFiles(batch, setup.maxSize, setup.cwd, result.out, result.skipped, result.omitted, options, watch);
  result.bytes = bytesRead.total - before;
  return result;
}

function runBatches(
  batches: (Listed | FolderFiles)[][],
  workerCount: number,
  workerFile: string,
  setup: PoolSetup,
  options: ScanOptions,
  watch: PoolWatch | undefined,
): Promise<BatchResult[]> {
  const { Worker: WorkerClass } = loadBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
  const results: BatchResult[] = new Array<BatchResult>(batches.length);
  let next = 0;
  let done = 0;
  const workers: Worker[] = [];
  return new Promise<BatchResult[]>((resolve, reject) => {
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const worker of workers) void worker.terminate();
      reject(error);
    };
    const finish = (id: number, result: BatchResult, here: boolean) => {
      results[id] = result;
      done++;
      if (watch && !here) {
        watch.files += result.files;
        watch.otherBytes += result.bytes;
        watch.tick();
      }
      if (done === batches.length && !failed) {
        for (const worker of workers) void worker.terminate();
        resolve(results);
      }
    };
    const feed = (worker: Worker, inFlight: { count: number }) => {
      while (!failed && inFlight.count < IN_FLIGHT && next < batches.length) {
        const id = next++;
        inFlight.count++;
        worker.postMessage({ id, items: batches[id] });
      }
    };
    for (let i = 0; i < workerCount; i++) {
      const worker = new WorkerClass(workerFile, { workerData: setup });
      const inFlight = { count: 0 };
      workers.push(worker);
      worker.on('message', (answer: { id: number; result?: BatchResult; error?: string }) => {
        if (answer.result === undefined) return fail(new Error(answer.error ?? 'a scanner thread gave no answer'));
        inFlight.count--;
        finish(answer.id, answer.result, false);
        feed(worker, inFlight);
      });
      worker.on('error', (error) => fail(new Error(`a scanner thread failed: ${error.message}`)));
      worker.on('exit', (code) => {
        if (done < batches.length)
          fail(new Error(`a scanner thread ended before its files were scanned (exit ${code})`));
      });
      feed(worker, inFlight);
    }
    void (async () => {
      while (!failed && next < batches.length) {
        const id = next++;
        const result = await scanHere(batches[id]!, setup, options, watch);
        finish(id, result, true);
        // A turn of the event loop: the workers' answers, and their next batches, wait for it.
        await new Promise<void>((resume) => setImmediate(resume));
      }
    })().catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
  });
}
