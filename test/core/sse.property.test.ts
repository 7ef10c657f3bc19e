// Any split of a valid SSE byte stream into chunks yields the same events.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sseEvents } from '../../src/core/sse.ts';

async function collect(chunks: Uint8Array[]): Promise<{ event?: string; data: string }[]> {
  const out: { event?: string; data: string }[] = [];
  async function* body() {
    yield* chunks;
  }
  for await (const batch of sseEvents(body()))
    for (const e of batch) out.push(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });
  return out;
}

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const p of points) {
    chunks.push(bytes.slice(start, p));
    start = p;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '"', '{', '}', ' ', ':', 'z', '中') });
const frame = fc.record({
  event: fc.option(fc.constantFrom('response.output_text.delta', 'error', 'message'), { nil: undefined }),
  data: text,
  comment: fc.boolean(),
});

describe('SSE framing', () => {
  it('gives the same events however the bytes are cut, with LF or CRLF', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        async (frames, cuts, crlf) => {
          const eol = crlf ? '\r\n' : '\n';
          const source = frames
            .map(
              (f) =>
                `${f.comment ? `: OPENROUTER PROCESSING${eol}${eol}` : ''}${f.event ? `event: ${f.event}${eol}` : ''}data: ${f.data}${eol}${eol}`,
            )
            .join('');
          const bytes = new TextEncoder().encode(source);
          const expected = frames.map((f) => (f.event ? { event: f.event, data: f.data } : { data: f.data }));
          expect(await collect([bytes])).toEqual(expected);
          expect(await collect(split(bytes, cuts))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a last event that has no blank line after it', async () => {
    expect(await collect([new TextEncoder().encode('data: {"a":1}\n\ndata: [DONE]')])).toEqual([
      { data: '{"a":1}' },
      { data: '[DONE]' },
    ]);
  });
});
