// Writes a server-sent event stream and applies a stream fault at its chunk.
import type { ServerResponse } from 'node:http';
import type { FaultSpec } from './faults.ts';
import { pump } from './faultsEarly.ts';
import { sleep } from './http.ts';

export interface SseFaultFrames {
  /** The service's mid-stream error, as complete SSE frames. */
  errorEvent(): string;
  /** A valid data frame whose delta is the given text. */
  deltaFrame(text: string): string;
}

export class SseWriter {
  private sent = 0;
  private ended = false;
  private readonly res: ServerResponse;
  private readonly fault: FaultSpec | undefined;
  private readonly frames: SseFaultFrames;
  private readonly signal: AbortSignal;

  constructor(res: ServerResponse, fault: FaultSpec | undefined, frames: SseFaultFrames, signal: AbortSignal) {
    this.res = res;
    this.fault = fault;
    this.frames = frames;
    this.signal = signal;
  }

  open(headers: Record<string, string>): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    this.res.flushHeaders();
  }

  /** True when the stream can go on; false once the client left or a fault ended it. */
  get live(): boolean {
    return !this.ended && !this.signal.aborted && !this.res.destroyed;
  }

  comment(text: string): void {
    if (this.live) this.res.write(`: ${text}\n\n`);
  }

  /** Sends one data frame (already framed), striking the fault when its chunk comes. */
  async frame(text: string): Promise<void> {
    if (!this.live) return;
    if (this.fault && this.sent === (this.fault.afterChunks ?? 2)) await this.strike(this.fault);
    if (!this.live) return;
    this.res.write(text);
    this.sent += 1;
  }

  end(): void {
    if (this.live) this.res.end();
    this.ended = true;
  }

  private async strike(fault: FaultSpec): Promise<void> {
    switch (fault.kind) {
      case 'reset':
        // Let the chunks already written reach the client: an RST discards what it has not read.
        await sleep(25, this.signal);
        this.ended = true;
        this.res.socket?.resetAndDestroy();
        return;
      case 'stall':
        await new Promise<void>((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
        this.ended = true;
        return;
      case 'malformed_sse':
        this.res.write('data: {"id":"broken","choices":[{"delta":{"content":\n\n');
        return;
      case 'error_event':
        this.res.write(this.frames.errorEvent());
        this.end();
        return;
      case 'long_line':
        this.res.write(this.frames.deltaFrame('x'.repeat(512 * 1024)));
        return;
      case 'endless_line': {
        // A delta whose line never ends.
        const frame = this.frames.deltaFrame('@@CUT@@');
        this.res.write(frame.slice(0, frame.indexOf('@@CUT@@')));
        await pump(this.res, 'x'.repeat(64 * 1024), this.signal);
        this.ended = true;
        return;
      }
      case 'endless_event':
        // Short data lines, none of them followed by the blank line that ends an event.
        await pump(this.res, `data: ${'x'.repeat(1023)}\n`.repeat(64), this.signal);
        this.ended = true;
        return;
      case 'invalid_utf8': {
        const frame = this.frames.deltaFrame('@@BAD@@');
        const [before, after] = frame.split('@@BAD@@') as [string, string];
        this.res.write(Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(after)]));
        return;
      }
      default:
        return;
    }
  }
}

export async function paced(delayMs: number, signal: AbortSignal): Promise<void> {
  await sleep(delayMs, signal);
}

/**
 * Applies a reset or stall to a request that gets one plain JSON answer.
 * Returns true when the fault took the response over.
 */
export async function strikeBeforeResponse(
  fault: FaultSpec | undefined,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<boolean> {
  if (fault?.kind === 'reset') {
    res.socket?.resetAndDestroy();
    return true;
  }
  if (fault?.kind === 'stall') {
    if (!signal.aborted)
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    return true;
  }
  return false;
}
