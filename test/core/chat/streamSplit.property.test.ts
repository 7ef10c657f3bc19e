// Any split of a valid stream into network chunks gives the client the same
// answer: a small server writes the bytes cut where fast-check says, over real HTTP.
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesClient } from '../../../src/core/wire/responsesClient.ts';
import { ChatCompletionsClient } from '../../../src/core/wire/chatCompletionsClient.ts';
import { routerDescriptor } from '../../../src/core/services/routerDescriptor.ts';
import { directDescriptor } from '../../../src/core/services/directDescriptor.ts';

let server: Server;
let base = '';
let chunks: Buffer[] = [];

beforeAll(async () => {
  server = createServer(async (_req, res) => {
    _req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) {
      res.write(chunk);
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function cut(bytes: Buffer, points: number[]): Buffer[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let start = 0;
  for (const p of sorted) {
    if (p > start) out.push(bytes.subarray(start, p));
    start = Math.max(start, p);
  }
  out.push(bytes.subarray(start));
  return out;
}

const deltas = fc.array(
  fc.string({
    unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\n', '"', '\\', 'z', '中'),
    minLength: 1,
    maxLength: 6,
  }),
  { minLength: 1, maxLength: 12 },
);

describe('any split of a valid SSE stream yields the same answer', () => {
  it('routing service (data: lines, comments, [DONE], LF or CRLF)', async () => {
    const client = new ChatCompletionsClient({
      baseUrl: base,
      profile: routerDescriptor,
      key: 'test-key-not-a-secret',
      connectTimeoutMs: 2000,
      idleTimeoutMs: 5000,
    });
    await fc.assert(
      fc.asyncProperty(deltas, fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), async (parts, points, crlf) => {
        const eol = crlf ? '\r\n' : '\n';
        const frames = [
          `: OPENROUTER PROCESSING${eol}${eol}`,
          ...parts.map(
            (p) =>
              `data: ${JSON.stringify({ id: 'g', model: 'm/x', choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })}${eol}${eol}`,
          ),
          `data: ${JSON.stringify({ id: 'g', model: 'm/x', choices: [], usage: { prompt_tokens: 1, completion_tokens: parts.length, total_tokens: parts.length + 1, cost: 0.5 } })}${eol}${eol}`,
          `data: [DONE]${eol}${eol}`,
        ];
        chunks = cut(Buffer.from(frames.join('')), points);
        const result = await client.chat({ model: 'm/x', messages: [{ role: 'user', content: 'x' }] }).collect();
        expect(result.text).toBe(parts.join(''));
        expect(result).toMatchObject({ model: 'm/x', costUsd: 0.5, skippedEvents: 0 });
      }),
      { numRuns: 60 },
    );
    await client.close();
  });

  it('direct service (event: + data: lines, no [DONE])', async () => {
    const client = new ResponsesClient({
      baseUrl: base,
      profile: directDescriptor,
      key: 'test-key-not-a-secret',
      connectTimeoutMs: 2000,
      idleTimeoutMs: 5000,
    });
    await fc.assert(
      fc.asyncProperty(deltas, fc.array(fc.nat(), { maxLength: 10 }), async (parts, points) => {
        let n = 0;
        const frame = (type: string, fields: object) =>
          `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: n++ })}\n\n`;
        const frames = [
          frame('response.created', { response: { id: 'resp_1' } }),
          ...parts.map((delta) => frame('response.output_text.delta', { delta })),
          frame('response.completed', {
            response: {
              id: 'resp_1',
              model: 'gpt-x',
              status: 'completed',
              usage: { input_tokens: 1, output_tokens: parts.length, total_tokens: parts.length + 1 },
            },
          }),
        ];
        chunks = cut(Buffer.from(frames.join('')), points);
        const result = await client.respond({ model: 'gpt-x', input: 'x' }).collect();
        expect(result.text).toBe(parts.join(''));
        expect(result).toMatchObject({ id: 'resp_1', model: 'gpt-x' });
      }),
      { numRuns: 60 },
    );
    await client.close();
  });
});
