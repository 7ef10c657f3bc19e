// The scanner thread for the editor's large documents (core/scan/scanThread.ts), whose code loads from
// dist/scanThread.js with the first of them: many sessions open none, and the first one starts a thread that reads
// dist/scanWorker.js anyway. Scans asked for while it loads reach the thread in the order they were asked.
import type { Finding, ScanOptions } from '../../core/scan/scanner.ts';
import type { ScanThread } from '../../core/scan/scanThread.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';

export class ScanThreadOnDemand extends Disposable implements Pick<ScanThread, 'scan'> {
  private thread: Promise<ScanThread> | undefined;
  /** The worker's script, beside the bundle. */
  private readonly file: string;

  constructor(file: string) {
    super();
    this.file = file;
    this._register(toDisposable(() => void this.thread?.then((thread) => thread.dispose())));
  }

  async scan(key: string, text: string, options: ScanOptions): Promise<Finding[] | undefined> {
    if (this.isDisposed) return undefined;
    this.thread ??= import('../../core/scan/scanThread.ts').then(({ ScanThread }) => new ScanThread(this.file));
    // Disposed while it loaded: the thread was disposed too, and answers undefined.
    return (await this.thread).scan(key, text, options);
  }
}
