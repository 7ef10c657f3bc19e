// Standard output and error written straight to their file descriptors. process.stdout is a stream,
// and its first touch loads Node's stream and net modules (some twenty of them, 3-4 ms of every start,
// more than a scan of an empty folder takes otherwise); the CLI only ever writes whole texts. A write
// here is out when it returns, so the process can end right after the last one.
import { writeSync } from 'node:fs';

/** Waits `ms` without spinning: a descriptor the parent left non-blocking may refuse a write for a moment. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** What went wrong writing, once: a reader that went away (EPIPE) is not a failure of the command. */
export interface WriteTrouble {
  code: string;
  /** The reader stopped reading (`keyward scan | head`): the rest is not wanted. */
  readerGone: boolean;
}

export class FdOutput {
  /** The first error a write met; later writes are dropped. */
  trouble: WriteTrouble | undefined;

  private readonly fd: number;

  constructor(fd: number) {
    this.fd = fd;
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void), done?: () => void): boolean {
    const callback = typeof encoding === 'function' ? encoding : done;
    if (this.trouble === undefined) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      for (let at = 0; at < bytes.length;) {
        try {
          at += writeSync(this.fd, bytes, at, bytes.length - at);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? 'error';
          if (code === 'EAGAIN') {
            pause(1);
            continue;
          }
          this.trouble = { code, readerGone: code === 'EPIPE' };
          break;
        }
      }
    }
    callback?.();
    return true;
  }
}
