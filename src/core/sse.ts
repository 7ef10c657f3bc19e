// Server-sent events from a byte stream: any chunk boundary, CRLF, comments,
// split UTF-8 sequences. eventsource-parser does the framing.
// A line or an event may not grow without end: a broken or hostile server that
// never ends a line would otherwise fill memory (it took `keyward ask` past
// 1.5 GB in seconds). The caps are far above anything real (see SSE_LIMITS).
import { type EventSourceMessage, createParser } from 'eventsource-parser';

export type SseEvent = EventSourceMessage;

export interface SseLimits {
  /** Bytes one line may hold before its end. */
  maxLineBytes: number;
  /** Characters one event's data may hold (all its `data:` lines together). */
  maxEventChars: number;
}

/**
 * 8 MiB each. The largest real single event is the direct service's terminal
 * event repeating a whole answer (128k output tokens is about 0.5 MiB of text)
 * or an inline base64 image from an image model (a 4-megapixel PNG is about
 * 6 MiB); both fit with room, while memory stays at tens of MB.
 */
export const SSE_LIMITS: SseLimits = { maxLineBytes: 8 * 1024 * 1024, maxEventChars: 8 * 1024 * 1024 };

/** A stream went past a cap; the transport turns it into a `response_too_large` error for its service. */
export class SseLimitError extends Error {
  readonly limit: 'line' | 'event';
  readonly max: number;
  constructor(limit: 'line' | 'event', max: number) {
    super(`an SSE ${limit} over ${max} ${limit === 'line' ? 'bytes' : 'characters'}`);
    this.name = 'SseLimitError';
    this.limit = limit;
    this.max = max;
  }
}

const LF = 10;
const CR = 13;

/** Where the first and last line break of a chunk are (-1: none). */
function breaks(chunk: Uint8Array): { first: number; last: number } {
  const firstLf = chunk.indexOf(LF);
  const firstCr = chunk.indexOf(CR);
  const first = firstLf < 0 ? firstCr : firstCr < 0 ? firstLf : Math.min(firstLf, firstCr);
  return { first, last: Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR)) };
}

/**
 * Yields the events of each network chunk together: a burst of thousands of
 * small events then costs one async step per chunk, not one per event.
 */
export async function* sseEvents(
  body: AsyncIterable<Uint8Array>,
  limits: SseLimits = SSE_LIMITS,
): AsyncGenerator<SseEvent[]> {
  let pending: SseEvent[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (event) => pending.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize: limits.maxEventChars,
  });
  // Invalid UTF-8 becomes U+FFFD instead of breaking the stream.
  const decoder = new TextDecoder('utf-8', { fatal: false });
  // Bytes of the line still open at the end of the chunks seen so far.
  let openLine = 0;
  for await (const chunk of body) {
    const { first, last } = breaks(chunk);
    const longest = first < 0 ? openLine + chunk.length : Math.max(openLine + first, chunk.length - last - 1);
    openLine = last < 0 ? openLine + chunk.length : chunk.length - last - 1;
    // The chunk is fed either way (it is in memory already), so the events it completes before the fault are not lost.
    parser.feed(decoder.decode(chunk, { stream: true }));
    const failure =
      longest > limits.maxLineBytes
        ? new SseLimitError('line', limits.maxLineBytes)
        : overflow
          ? new SseLimitError('event', limits.maxEventChars)
          : undefined;
    if (pending.length > 0) {
      const ready = pending;
      pending = [];
      yield ready;
    }
    if (failure) throw failure;
  }
  const tail = decoder.decode();
  // A last event without its blank line still counts: some servers close right after it.
  parser.feed(tail.endsWith('\n') ? tail + '\n' : tail + '\n\n');
  if (pending.length > 0) yield pending;
}
