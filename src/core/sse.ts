// Server-sent events from a byte stream: any chunk boundary, CRLF, comments,
// split UTF-8 sequences. eventsource-parser does the framing.
import { type EventSourceMessage, createParser } from 'eventsource-parser';

export type SseEvent = EventSourceMessage;

/**
 * Yields the events of each network chunk together: a burst of thousands of
 * small events then costs one async step per chunk, not one per event.
 */
export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent[]> {
  let pending: SseEvent[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  // Invalid UTF-8 becomes U+FFFD instead of breaking the stream.
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (pending.length > 0) {
      const ready = pending;
      pending = [];
      yield ready;
    }
  }
  const tail = decoder.decode();
  // A last event without its blank line still counts: some servers close right after it.
  parser.feed(tail.endsWith('\n') ? tail + '\n' : tail + '\n\n');
  if (pending.length > 0) yield pending;
}
