// A streamed answer: an async iterable of text deltas (the deltas of one network
// chunk arrive joined), then a final result.
// Retries happen only before the first delta; a stream that breaks after text
// arrived becomes stream_interrupted and keeps that text.
import type { ServiceId } from '../shared/errorKinds.ts';
import { ServiceError } from './errors.ts';
import { type RetryHistory, type RetryPolicy, emptyHistory, recordRetry, retryDelayMs } from './retryPolicy.ts';
import { transportError } from './transport.ts';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface CompletionResult {
  service: ServiceId;
  text: string;
  /** The model that actually answered (the free router names the one it picked). */
  model: string;
  usage: Usage | null;
  /** Dollars, where the service reports it. */
  costUsd: number | null;
  /** Generation id (routing) or response id (direct, for previous_response_id). */
  id: string | null;
  finishReason: string | null;
  /** SSE events that could not be parsed and were skipped. */
  skippedEvents: number;
}

export interface RetryNotice {
  error: ServiceError;
  attempt: number;
  delayMs: number;
}

export interface StreamOptions {
  signal?: AbortSignal | undefined;
  retry: RetryPolicy;
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** One attempt: yields deltas, returns the result. */
export type Attempt = () => AsyncGenerator<string, CompletionResult>;

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class TextStream implements AsyncIterable<string> {
  /** Settles when the stream has been read to its end (or failed). */
  readonly result: Promise<CompletionResult>;
  private settle!: { resolve(result: CompletionResult): void; reject(error: unknown): void };
  private readonly generator: AsyncGenerator<string, CompletionResult>;
  private started = false;
  private received = '';
  private readonly service: ServiceId;

  constructor(service: ServiceId, attempt: Attempt, options: StreamOptions) {
    this.service = service;
    this.result = new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
    // A caller that only iterates must not see an unhandled rejection here.
    this.result.catch(() => undefined);
    this.generator = this.run(service, attempt, options);
  }

  /** Text received so far. */
  get text(): string {
    return this.received;
  }

  private async *run(service: ServiceId, attempt: Attempt, options: StreamOptions): AsyncGenerator<string, CompletionResult> {
    const history: RetryHistory = emptyHistory();
    const sleep = options.sleep ?? abortableSleep;
    for (let attemptNumber = 1; ; attemptNumber++) {
      try {
        const inner = attempt();
        for (;;) {
          const step = await inner.next();
          if (step.done) return step.value;
          this.received += step.value;
          yield step.value;
        }
      } catch (thrown) {
        const error = transportError(thrown, service, options.signal, 'the stream');
        if (this.received.length > 0) throw interrupted(error, service, this.received);
        const delay = retryDelayMs(error, history, options.retry);
        if (delay === undefined || options.signal?.aborted) throw error;
        options.onRetry?.({ error, attempt: attemptNumber, delayMs: delay });
        try {
          await sleep(delay, options.signal);
        } catch {
          throw new ServiceError({ kind: 'cancelled', service, message: 'The request was cancelled while waiting to retry.' });
        }
        recordRetry(error, history, delay);
      }
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    if (this.started) throw new Error('a TextStream can be read once');
    this.started = true;
    const generator = this.generator;
    const settle = this.settle;
    return {
      next: async () => {
        try {
          const step = await generator.next();
          if (step.done) {
            settle.resolve(step.value);
            return { done: true, value: undefined };
          }
          return step;
        } catch (error) {
          settle.reject(error);
          throw error;
        }
      },
      return: async () => {
        await generator.return(undefined as never).catch(() => undefined);
        settle.reject(new ServiceError({ kind: 'cancelled', service: this.service, message: 'The stream was not read to its end.', partialText: this.received }));
        return { done: true, value: undefined };
      },
    };
  }

  /** Reads the whole stream, calling onDelta for each piece, and returns the result. */
  async collect(onDelta?: (delta: string) => void): Promise<CompletionResult> {
    for await (const delta of this) onDelta?.(delta);
    return this.result;
  }
}

function interrupted(error: ServiceError, service: ServiceId, text: string): ServiceError {
  if (error.kind === 'cancelled') return error.withPartialText(text);
  return new ServiceError({
    kind: 'stream_interrupted', service, status: error.status, code: error.code ?? error.kind,
    message: `The answer broke off: ${error.message}`, partialText: text, cause: error,
  });
}
