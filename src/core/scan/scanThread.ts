// Scans texts on a thread of their own (scanWorker.ts), one at a time: the caller's event loop only sends the text
// and takes the findings. A text asked for again before its scan began replaces the one waiting, whose caller is
// told it was superseded, so typing into a large document never queues a scan per keystroke.
import { Worker } from 'node:worker_threads';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import type { Finding, ScanOptions } from './scanner.ts';

interface Waiting {
  text: string;
  options: ScanOptions;
  resolve: (findings: Finding[] | undefined) => void;
  reject: (error: Error) => void;
}

export class ScanThread extends Disposable {
  private worker: Worker | undefined;
  private readonly file: string;
  private nextId = 0;
  /** The scan on the thread now, by the key it was asked for. */
  private running: { id: number; key: string; done: Waiting } | undefined;
  /** The latest text asked for per key, in the order asked. */
  private readonly queue = new Map<string, Waiting>();

  /** `file`: the worker's script (dist/scanWorker.js, or scanWorker.ts where Node reads TypeScript). */
  constructor(file: string) {
    super();
    this.file = file;
    this._register(toDisposable(() => this.stop()));
  }

  /** The findings of `text`, or undefined when a newer text for `key` replaced it before its scan began. */
  scan(key: string, text: string, options: ScanOptions): Promise<Finding[] | undefined> {
    if (this.isDisposed) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      // A function cannot cross to the thread; the editor's scans hand no key back.
      const { onKey: _onKey, ...plain } = options;
      this.queue.get(key)?.resolve(undefined);
      this.queue.delete(key);
      this.queue.set(key, { text, options: plain, resolve, reject });
      this.pump();
    });
  }

  private stop(): void {
    for (const waiting of this.queue.values()) waiting.resolve(undefined);
    this.queue.clear();
    this.running?.done.resolve(undefined);
    this.running = undefined;
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private pump(): void {
    if (this.running || this.queue.size === 0) return;
    const [key, done] = this.queue.entries().next().value!;
    this.queue.delete(key);
    const id = ++this.nextId;
    this.running = { id, key, done };
    this.thread().postMessage({ id, text: done.text, options: done.options });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file);
    // An idle thread keeps no process alive (the CLI's tests, a host shutting down).
    worker.unref();
    worker.on('message', (answer: { id: number; findings?: Finding[]; error?: string }) => {
      if (answer.id !== this.running?.id) return;
      const { done } = this.running;
      this.running = undefined;
      if (answer.findings) done.resolve(answer.findings);
      else done.reject(new Error(answer.error ?? 'the scanner thread gave no answer'));
      this.pump();
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.running?.done.reject(error);
      this.running = undefined;
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the scanner thread ended (exit ${code})`)));
    this.worker = worker;
    return worker;
  }
}
