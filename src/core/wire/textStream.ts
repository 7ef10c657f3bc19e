// A streamed answer: an async iterable of text deltas (the deltas of one network
// chunk arrive joined), then a final result. A refusal and the usage the
// service reported travel beside the text, so neither is mistaken for it.
// Retries happen only before the first delta; a stream that breaks after text
// arrived becomes stream_interrupted and keeps that text.
import type { FinishReason } from '../../shared/answerEnd.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import { type RetryHistory, type RetryPolicy, emptyHistory, recordRetry, retryDelayMs } from '../retryPolicy.ts';
import { transportError } from '../transport.ts';
import type { ToolCall } from '../lm/messages.ts';

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
  /** Why the answer ended, in the shared words; null when the service did not say. */
  finishReason: FinishReason | null;
  /** The service's (or the provider's) own word for it: native_finish_reason, or status / incomplete_details.reason. */
  nativeFinishReason: string | null;
  /** The model declined: its explanation, which is the answer and not answer text. */
  refusal: string | null;
  /** SSE events that could not be parsed and were skipped. */
  skippedEvents: number;
  /** The tools the model called (only when the request offered tools), in the order it called them. */
  toolCalls?: ToolCall[];
}

/** Tokens and cost as the service reported them, possibly before the answer failed. */
export interface ReportedUsage {
  usage: Usage | null;
  costUsd: number | null;
}

/** What an attempt yields: answer text, refusal text, or usage the service reported. */
export type Piece = string | { refusal: string } | { reported: ReportedUsage } | { toolCall: ToolCall };

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

/** One attempt: yields pieces, returns the result. */
export type Attempt = () => AsyncGenerator<Piece, CompletionResult>;

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
  private refused = '';
  private reportedUsage: ReportedUsage | null = null;
  private calls: ToolCall[] = [];
  private readonly service: ServiceId;

  constructor(service: ServiceId, attempt: Attempt, options: StreamOptions) {
    this.service = service;
    this.result = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // A caller that only iterates must not see an unhandled rejection here.
    this.result.catch(() => undefined);
    this.generator = this.run(service, attempt, options);
  }

  /** Text received so far. */
  get text(): string {
    return this.received;
  }

  /** Refusal text received so far. */
  get refusal(): string {
    return this.refused;
  }

  /** Usage the service reported in this attempt, even when the answer then failed or was stopped. */
  get reported(): ReportedUsage | null {
    return this.reportedUsage;
  }

  private async *run(
    service: ServiceId,
    attempt: Attempt,
    options: StreamOptions,
  ): AsyncGenerator<string, CompletionResult> {
    const history: RetryHistory = emptyHistory();
    const sleep = options.sleep ?? abortableSleep;
    for (let attemptNumber = 1; ; attemptNumber++) {
      try {
        const inner = attempt();
        for (;;) {
          const step = await inner.next();
          if (step.done) return this.calls.length > 0 ? { ...step.value, toolCalls: this.calls } : step.value;
          const piece = step.value;
          if (typeof piece === 'string') {
            this.received += piece;
            yield piece;
          } else if ('refusal' in piece) this.refused += piece.refusal;
          else if ('toolCall' in piece) this.calls.push(piece.toolCall);
          else this.reportedUsage = piece.reported;
        }
      } catch (thrown) {
        const error = transportError(thrown, service, options.signal, 'the stream');
        // A refusal under way is an answer too: sending again would be charged again.
        if (this.received.length > 0 || this.refused.length > 0)
          throw interrupted(error, service, this.received || this.refused);
        const delay = retryDelayMs(error, history, options.retry);
        if (delay === undefined || options.signal?.aborted) throw error;
        options.onRetry?.({ error, attempt: attemptNumber, delayMs: delay });
        try {
          await sleep(delay, options.signal);
        } catch {
          throw new ServiceError({
            kind: 'cancelled',
            service,
            message: 'The request was cancelled while waiting to retry.',
          });
        }
        recordRetry(error, history, delay);
        this.reportedUsage = null;
        this.calls = [];
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
        settle.reject(
          new ServiceError({
            kind: 'cancelled',
            service: this.service,
            message: 'The stream was not read to its end.',
            partialText: this.received,
          }),
        );
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
    kind: 'stream_interrupted',
    service,
    status: error.status,
    code: error.code ?? error.kind,
    message: `The answer broke off: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`,
    partialText: text,
    cause: error,
  });
}

const BROKEN: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_CLOSED: 'the connection was closed',
};

/**
 * A failure while reading a body the service had begun to send. The service
 * was reached: "could not reach" would send the person to check a network and
 * a base URL that both worked.
 */
export function afterAnswerBegan(thrown: unknown, service: ServiceId, signal: AbortSignal | undefined): ServiceError {
  const error = transportError(thrown, service, signal, 'the stream');
  if (error.kind !== 'network') return error;
  const what = (error.code && BROKEN[error.code]) ?? 'the connection broke';
  return new ServiceError({
    kind: 'network',
    service,
    status: error.status,
    code: error.code,
    cause: error,
    message: `The ${SERVICE_NAMES[service]} started answering, then ${what}${error.code ? ` (${error.code})` : ''}.`,
    action: 'The service was reached and the connection dropped while the answer was on its way; send again.',
  });
}

/** A response body whose read failures say the service was reached. */
export async function* answerBody(
  body: AsyncIterable<Uint8Array>,
  service: ServiceId,
  signal: AbortSignal | undefined,
): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (thrown) {
    throw afterAnswerBegan(thrown, service, signal);
  }
}
