// Every fault the emulator can inject, seen from a raw HTTP client.
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, sseData, startTestBed, userMessage } from './adminClient.ts';

let bed: TestBed;
let routerKey: string;
let directKey: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  ({ routerFunded: routerKey, direct: directKey } = bed.emulator.sandbox!.keys);
});

const routerStream = (headers: Record<string, string> = {}) =>
  bed.router('/chat/completions', routerKey, {
    body: { model: 'openai/gpt-4o-mini', messages: userMessage('fault'), stream: true, max_tokens: 64 },
    headers,
  });
const directStream = (headers: Record<string, string> = {}) =>
  bed.direct('/responses', directKey, { body: { model: 'gpt-4o-mini', input: 'fault', stream: true }, headers });

/** Raw bytes of a response (redirects not followed), with how it ended. */
function rawStream(
  url: string,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer; ended: 'end' | 'error' }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const req = request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers } },
      (res) => {
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks), ended: 'end' }),
        );
        res.on('error', () =>
          resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks), ended: 'error' }),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {}, bytes: Buffer.concat(chunks), ended: 'error' }));
    req.end(JSON.stringify(body));
  });
}

describe('faults', () => {
  it('queues a fault for the next N matching requests only', async () => {
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'router', count: 2 });
    expect((await bed.direct('/models', directKey)).status).toBe(200);
    expect((await routerStream()).status).toBe(500);
    expect((await routerStream()).status).toBe(500);
    expect((await routerStream()).status).toBe(200);
  });

  it("500 carries each service's own error body", async () => {
    const router = await routerStream({ 'x-emulator-fault': 'http500' });
    expect(await router.json()).toEqual({ error: { code: 500, message: 'Internal Server Error' } });
    const direct = await directStream({ 'x-emulator-fault': 'http500' });
    expect(((await direct.json()) as { error: { type: string } }).error.type).toBe('server_error');
  });

  it('502 comes with an HTML body', async () => {
    const response = await routerStream({ 'x-emulator-fault': 'http502_html' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toContain('<h1>502 Bad Gateway</h1>');
  });

  it('resets the connection before headers, or mid-stream after N chunks', async () => {
    await expect(routerStream({ 'x-emulator-fault': 'reset;beforeHeaders' })).rejects.toThrow();
    await bed.admin('POST', '/faults', { kind: 'reset', afterChunks: 3 });
    const result = await rawStream(`${bed.emulator.routerBaseUrl}/chat/completions`, routerKey, {
      model: 'openai/gpt-4o-mini',
      messages: userMessage('fault'),
      stream: true,
    });
    expect(result.ended).toBe('error');
    expect(sseData(result.bytes.toString().split('\n\n').slice(0, -1).join('\n\n') + '\n\n')).toHaveLength(3);
  });

  it('stalls mid-stream until the client gives up', async () => {
    const controller = new AbortController();
    const response = await bed.router('/chat/completions', routerKey, {
      body: { model: 'openai/gpt-4o-mini', messages: userMessage('stall'), stream: true, max_tokens: 64 },
      headers: { 'x-emulator-fault': 'stall;afterChunks=2' },
    });
    const reader = response.body!.getReader();
    let text = '';
    const read = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += Buffer.from(value).toString();
      }
    })().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 150));
    expect(sseData(text)).toHaveLength(2);
    controller.abort();
    await reader.cancel();
    await read;
  });

  it('sends a malformed data line and then goes on', async () => {
    const text = await (await routerStream({ 'x-emulator-fault': 'malformed_sse;afterChunks=1' })).text();
    expect(text).toContain('data: {"id":"broken"');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it("sends a mid-stream error event in the routing service's shape and ends", async () => {
    const text = await (await routerStream({ 'x-emulator-fault': 'error_event;afterChunks=2' })).text();
    const chunks = sseData(text) as {
      error?: { code: number; metadata: { error_type: string } };
      choices: { finish_reason: string | null }[];
    }[];
    expect(chunks).toHaveLength(3);
    expect(chunks[2]!.error).toMatchObject({ code: 502, metadata: { error_type: 'provider_unavailable' } });
    expect(chunks[2]!.choices[0]!.finish_reason).toBe('error');
    expect(text).not.toContain('[DONE]');
  });

  it("sends the direct service's error event nested (as recorded) or top-level (as specified), then response.failed", async () => {
    const nested = await (await directStream({ 'x-emulator-fault': 'error_event;afterChunks=5' })).text();
    const events = nested
      .trim()
      .split('\n\n')
      .map((f) => f.split('\n')[0]!.slice(7));
    expect(events.slice(-2)).toEqual(['error', 'response.failed']);
    expect(nested).toMatch(/"type":"error","error":\{"type":"server_error","code":"server_error"/);
    const top = await (await directStream({ 'x-emulator-fault': 'error_event;afterChunks=5;shape=top' })).text();
    expect(top).toMatch(/"type":"error","code":"server_error","message"/);
  });

  it('sends one very long line', async () => {
    const text = await (await routerStream({ 'x-emulator-fault': 'long_line;afterChunks=1' })).text();
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeGreaterThan(512 * 1024);
  });

  it('sends bytes that are not UTF-8', async () => {
    const result = await rawStream(`${bed.emulator.directBaseUrl}/responses`, directKey, {
      model: 'gpt-4o-mini',
      input: 'x',
      stream: true,
    });
    expect(result.bytes.includes(Buffer.from([0xff, 0xfe]))).toBe(false);
    await bed.admin('POST', '/faults', { kind: 'invalid_utf8', service: 'direct', afterChunks: 5 });
    const broken = await rawStream(`${bed.emulator.directBaseUrl}/responses`, directKey, {
      model: 'gpt-4o-mini',
      input: 'x',
      stream: true,
    });
    expect(broken.bytes.includes(Buffer.from([0xff, 0xfe]))).toBe(true);
  });

  it('answers HTTP 200 with an error body', async () => {
    const response = await bed.router('/chat/completions', routerKey, {
      body: { model: 'openai/gpt-4o-mini', messages: userMessage('x'), max_tokens: 16 },
      headers: { 'x-emulator-fault': 'error_in_200' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ error: { code: 500, message: 'Internal Server Error' } });
  });

  it('echoes the full key in a 401, as real servers sometimes do', async () => {
    const response = await bed.direct('/models', directKey, { headers: { 'x-emulator-fault': 'echo_key' } });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(directKey);
  });

  it.each(['message', 'code', 'reason', 'raw', 'provider', 'title', 'stream'])(
    "echoes the key in the routing service's %s field",
    async (field) => {
      const response = await routerStream({
        'x-emulator-fault': `echo_key;field=${field}`,
        accept: 'text/event-stream',
      });
      expect(await response.text()).toContain(routerKey);
    },
  );

  it.each(['message', 'code', 'title', 'stream'])("echoes the key in the direct service's %s field", async (field) => {
    const response = await directStream({ 'x-emulator-fault': `echo_key;field=${field}`, accept: 'text/event-stream' });
    expect(await response.text()).toContain(directKey);
  });

  it("sends the routing service's moderation 403 with the documented metadata", async () => {
    const response = await routerStream({ 'x-emulator-fault': 'moderation' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: {
        code: 403,
        message:
          'openai/gpt-4o-mini requires moderation on OpenAI. Your input was flagged for "violence". No credits were charged.',
        metadata: {
          reasons: ['violence'],
          flagged_input: 'fault',
          provider_name: 'OpenAI',
          model_slug: 'openai/gpt-4o-mini',
        },
      },
    });
  });

  it("sends the direct service's region 403", async () => {
    const response = await directStream({ 'x-emulator-fault': 'region' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: {
        message: 'Country, region, or territory not supported',
        type: 'request_forbidden',
        param: null,
        code: 'unsupported_country_region_territory',
      },
    });
  });

  it('redirects with the status and location asked for, and never follows up itself', async () => {
    const result = await rawStream(
      `${bed.emulator.routerBaseUrl}/chat/completions`,
      routerKey,
      { model: 'openai/gpt-4o-mini', messages: userMessage('x') },
      { 'x-emulator-fault': 'redirect;status=308;location=https://moved.example.invalid/v1' },
    );
    expect(result).toMatchObject({ status: 308, headers: { location: 'https://moved.example.invalid/v1' } });
    const fallback = await rawStream(
      `${bed.emulator.directBaseUrl}/responses`,
      directKey,
      { model: 'gpt-4o-mini', input: 'x' },
      { 'x-emulator-fault': 'redirect' },
    );
    expect(fallback).toMatchObject({
      status: 307,
      headers: { location: 'https://moved.example.invalid/direct/v1/responses' },
    });
  });

  it('holds the headers for delayMs, then answers as usual', async () => {
    const started = Date.now();
    const response = await routerStream({ 'x-emulator-fault': 'slow_headers;delayMs=400' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('data: [DONE]');
  });

  it.each([
    ['endless_line;afterChunks=1', (text: string) => text.split('\n').at(-1)!.length],
    ['endless_event;afterChunks=0', (text: string) => text.split('\n\n').at(-1)!.length],
    ['endless_body;status=502', (text: string) => text.length],
  ])('%s keeps sending while the client reads', async (fault, openPart) => {
    const response = await routerStream({ 'x-emulator-fault': fault });
    const reader = response.body!.getReader();
    let text = '';
    while (text.length < 12 * 1024 * 1024) text += Buffer.from((await reader.read()).value!).toString();
    await reader.cancel();
    expect(openPart(text)).toBeGreaterThan(10 * 1024 * 1024);
    if (fault.startsWith('endless_body')) expect(response.status).toBe(502);
  });

  it("sends x-should-retry with a fault, or on the service's own answer", async () => {
    expect(
      (await routerStream({ 'x-emulator-fault': 'http500;shouldRetry=false' })).headers.get('x-should-retry'),
    ).toBe('false');
    const own = await bed.direct('/responses', directKey, {
      body: { model: 'gpt-0', input: 'x' },
      headers: { 'x-emulator-fault': 'should_retry;shouldRetry=true' },
    });
    expect(own.status).toBe(400);
    expect(own.headers.get('x-should-retry')).toBe('true');
  });

  it('rejects an unknown fault kind with a clear admin error', async () => {
    await expect(bed.admin('POST', '/faults', { kind: 'meteor' })).rejects.toThrow(/unknown fault kind "meteor"/);
  });
});

describe('clock', () => {
  it('moves by durations and can be set and reset', async () => {
    const before = bed.emulator.clock.now();
    const { epochMs } = await bed.admin<{ epochMs: number }>('POST', '/clock', { advance: '1d' });
    expect(epochMs - before).toBeGreaterThanOrEqual(86_400_000);
    await bed.admin('POST', '/clock', { set: '2030-01-01T00:00:00Z' });
    expect(new Date(bed.emulator.clock.now()).getUTCFullYear()).toBe(2030);
    await expect(bed.admin('POST', '/clock', { advance: 'soon' })).rejects.toThrow(/duration/);
  });
});
