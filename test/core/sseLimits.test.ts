// The SSE caps: a line or an event past its limit stops the stream, whatever the
// chunking; anything under them, and any number of keep-alive comments, passes.
import { describe, expect, it } from 'vitest';
import { SSE_LIMITS, SseLimitError, sseEvents } from '../../src/core/sse.ts';

const limits = { maxLineBytes: 1000, maxEventChars: 3000 };
const bytes = (text: string) => new TextEncoder().encode(text);

async function run(chunks: Uint8Array[], caps = limits): Promise<{ data: string[]; error?: unknown }> {
  const data: string[] = [];
  async function* body() {
    yield* chunks;
  }
  try {
    for await (const batch of sseEvents(body(), caps)) for (const event of batch) data.push(event.data);
    return { data };
  } catch (error) {
    return { data, error };
  }
}

function slices(text: string, size: number): Uint8Array[] {
  const all = bytes(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

describe('SSE limits', () => {
  it('are 8 MiB for a line and for an event', () => {
    expect(SSE_LIMITS).toEqual({ maxLineBytes: 8 * 1024 * 1024, maxEventChars: 8 * 1024 * 1024 });
  });

  it.each([1, 7, 64, 5000])('stops a line that goes past the cap, in chunks of %i bytes', async (size) => {
    const { data, error } = await run(slices(`data: first\n\ndata: ${'x'.repeat(2000)}`, size));
    expect(data).toEqual(['first']);
    expect(error).toBeInstanceOf(SseLimitError);
    expect(error).toMatchObject({ limit: 'line', max: 1000 });
  });

  it('stops an event whose data lines never end it', async () => {
    const { error } = await run(slices(`data: ${'y'.repeat(900)}\n`.repeat(10), 100));
    expect(error).toMatchObject({ limit: 'event', max: 3000 });
  });

  it('passes lines and events just under the caps, and endless keep-alives', async () => {
    const line = `data: ${'z'.repeat(990)}\n`;
    const keepAlives = ': OPENROUTER PROCESSING\n\n'.repeat(500);
    const { data, error } = await run(slices(`${keepAlives}${line}${line}\n${keepAlives}data: end\r\n\r\n`, 333));
    expect(error).toBeUndefined();
    expect(data).toEqual([`${'z'.repeat(990)}\n${'z'.repeat(990)}`, 'end']);
  });
});
