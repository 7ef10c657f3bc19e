// The routing-service client over HTTP against the emulator: every error kind
// it can meet, the retry rules, cancellation, faults and the partial-text rule.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FreeModelGuard } from '../../../src/core/wire/freeGuard.ts';
import { NO_RETRY } from '../../../src/core/retryPolicy.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { answerText } from '../../emulator/answers.ts';
import { recordingSleep, routerClient, settle } from '../clientSupport.ts';
import { routerDescriptor } from '../../../src/core/services/routerDescriptor.ts';

let bed: TestBed;
let funded: string;
let free: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  ({ routerFunded: funded, routerFree: free } = bed.emulator.sandbox!.keys);
});

const ask = (prompt: string) => ({
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user' as const, content: prompt }],
  maxTokens: 64,
});
const expected = (prompt: string, tokens = 12) => answerText(prompt, { tokens });

describe('router client: answers', () => {
  it('streams deltas and a final result with model, usage and cost', async () => {
    const stream = routerClient(bed, funded).chat(ask('stream me'));
    const deltas: string[] = [];
    for await (const delta of stream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.join('')).toBe(expected('stream me'));
    const result = await stream.result;
    expect(result).toMatchObject({
      service: 'router',
      text: expected('stream me'),
      model: 'openai/gpt-4o-mini',
      finishReason: 'stop',
      skippedEvents: 0,
    });
    expect(result.usage!.outputTokens).toBe(12);
    expect(result.costUsd).toBeGreaterThan(0);
  });

  it('answers without streaming', async () => {
    const result = await routerClient(bed, funded).chat(ask('whole'), { stream: false }).collect();
    expect(result.text).toBe(expected('whole'));
    expect(result.costUsd).toBeGreaterThan(0);
  });

  it('names the model the free router picked', async () => {
    const result = await routerClient(bed, free)
      .chat({ model: 'openrouter/free', messages: [{ role: 'user', content: 'hi' }] })
      .collect();
    expect(result.model).toMatch(/:free$/);
    expect(result.costUsd).toBe(0);
  });

  it('sends provider.data_collection deny when asked, and reports the 404 as a bad request that says why', async () => {
    const { error } = await settle(
      routerClient(bed, free).chat({
        model: 'openrouter/free',
        messages: [{ role: 'user', content: 'hi' }],
        denyDataCollection: true,
      }),
    );
    expect(error).toMatchObject({ kind: 'bad_request', status: 404, code: 'privacy_restricted' });
    expect(error!.action).toMatch(/training opt-out/);
  });

  it('reads the key check, the model list and credits (null without a management key)', async () => {
    const client = routerClient(bed, funded);
    const info = await client.keyInfo();
    expect(info).toMatchObject({
      limit: 10,
      isFreeTier: false,
      freeModelDailyRequests: { used: 0, limit: 1000, remaining: 1000 },
    });
    expect(info.expiresAt).toMatch(/T/);
    const models = await client.models();
    const byId = new Map(models.map((m) => [m.id, m]));
    expect(byId.get('openrouter/free')).toMatchObject({ free: true, promptPrice: 0 });
    expect(byId.get('openrouter/auto')).toMatchObject({ free: false, promptPrice: null, completionPrice: null });
    expect(byId.get('google/gemma-3-27b-it:free')!.free).toBe(true);
    expect(byId.get('openai/gpt-4o')).toMatchObject({ free: false, promptPrice: 0.0000025 });
    expect(await client.credits()).toBeNull();
    const { key } = await bed.admin<{ key: string }>('POST', '/router/keys', {
      accountId: bed.emulator.sandbox!.routerFundedAccountId,
      name: 'm',
      management: true,
    });
    expect(await routerClient(bed, key).credits()).toEqual({ totalCredits: 20, totalUsage: 0, balance: 20 });
  });
});

describe('router client: error kinds', () => {
  it('auth: a deleted key', async () => {
    const { id, key } = await bed.admin<{ id: string; key: string }>('POST', '/router/keys', {
      accountId: bed.emulator.sandbox!.routerFundedAccountId,
      name: 'x',
    });
    await bed.admin('DELETE', `/router/keys/${id}`);
    const { error } = await settle(routerClient(bed, key).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    await expect(routerClient(bed, key).keyInfo()).rejects.toMatchObject({ kind: 'auth' });
  });

  it('insufficient_credits: negative balance, free models included; never retried', async () => {
    await bed.admin('POST', `/router/accounts/${bed.emulator.sandbox!.routerFundedAccountId}/spend`, { amount: 25 });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(
      routerClient(bed, funded, { sleep }).chat({
        model: 'openrouter/free',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ kind: 'insufficient_credits', status: 402, retryAfterSeconds: null });
    expect(waits).toEqual([]);
  });

  it('key_limit: a key at its limit; never retried', async () => {
    const { key } = await bed.admin<{ key: string }>('POST', '/router/keys', {
      accountId: bed.emulator.sandbox!.routerFundedAccountId,
      name: 'x',
      limit: 0,
    });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(routerClient(bed, key, { sleep }).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'key_limit', status: 402, code: 'openrouter_key_limit' });
    expect(waits).toEqual([]);
  });

  it('in_flight_budget: waits Retry-After and succeeds once the in-flight request settles', async () => {
    await bed.admin('POST', `/router/accounts/${bed.emulator.sandbox!.routerFundedAccountId}/spend`, { amount: 19.95 });
    await bed.admin('POST', '/config', { tokenDelayMs: 20, answerTokens: 10, inFlightRetryAfterSeconds: 1 });
    const request = { model: 'openai/gpt-4o', messages: [{ role: 'user' as const, content: 'big' }], maxTokens: 3000 };
    const first = routerClient(bed, funded).chat(request);
    const firstIterator = first[Symbol.asyncIterator]();
    await firstIterator.next();
    const notices: string[] = [];
    const second = routerClient(bed, funded).chat(request, {
      onRetry: (n) => notices.push(`${n.error.kind}:${n.delayMs}`),
    });
    const [secondResult] = await Promise.all([
      second.collect(),
      (async () => {
        while (!(await firstIterator.next()).done);
      })(),
    ]);
    expect(notices).toEqual(['in_flight_budget:1000']);
    expect(secondResult.text).toBe(expected('big', 10));
  });

  it('in_flight_budget: gives up after the capped number of waits', async () => {
    const { sleep, waits } = recordingSleep(bed);
    bed.emulator.router.account(bed.emulator.sandbox!.routerFundedAccountId).inFlight.set('stuck', 20);
    await bed.admin('POST', '/config', { inFlightRetryAfterSeconds: 3 });
    const { error } = await settle(routerClient(bed, funded, { sleep }).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'in_flight_budget', retryAfterSeconds: 3 });
    expect(waits).toEqual([3000, 3000, 3000, 3000, 3000]);
  });

  it('free_limit_minute: the guard waits out the window before sending instead of collecting a 429', async () => {
    const guard = new FreeModelGuard(() => bed.emulator.clock.now());
    const { sleep, waits } = recordingSleep(bed);
    const client = routerClient(bed, free, { freeGuard: guard, sleep });
    const waitsSeen: number[] = [];
    for (let i = 0; i < 21; i++) {
      const { error } = await settle(
        client.chat(
          { model: 'google/gemma-3-27b-it:free', messages: [{ role: 'user', content: `q${i}` }] },
          { onFreeWait: (ms) => waitsSeen.push(ms) },
        ),
      );
      expect(error).toBeUndefined();
    }
    expect(waitsSeen).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(55_000);
    expect(guard.status()).toMatchObject({ used: 21 });
  });

  it('free_limit_minute: without a guard, the 429 is retried after the window', async () => {
    await bed.admin('POST', `/router/accounts/${bed.emulator.sandbox!.routerFreeAccountId}/free-requests`, { used: 0 });
    for (let i = 0; i < 20; i++)
      await routerClient(bed, free)
        .chat({ model: 'google/gemma-3-27b-it:free', messages: [{ role: 'user', content: 'x' }] })
        .collect();
    const { sleep, waits } = recordingSleep(bed);
    const notices: string[] = [];
    const result = await routerClient(bed, free, { sleep })
      .chat(
        { model: 'google/gemma-3-27b-it:free', messages: [{ role: 'user', content: 'late' }] },
        { onRetry: (n) => notices.push(n.error.kind) },
      )
      .collect();
    expect(notices).toEqual(['free_limit_minute']);
    expect(waits[0]).toBeGreaterThan(50_000);
    expect(waits[0]).toBeLessThanOrEqual(61_000);
    expect(result.text).toBe(expected('late'));
  });

  it('free_limit_day: reports the reset and is never retried', async () => {
    await bed.admin('POST', `/router/accounts/${bed.emulator.sandbox!.routerFreeAccountId}/free-requests`, {
      used: 50,
    });
    const guard = new FreeModelGuard(() => bed.emulator.clock.now());
    guard.updateFromKeyCheck({ used: 49, limit: 50, remaining: 1 });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(
      routerClient(bed, free, { sleep, freeGuard: guard }).chat({
        model: 'meta-llama/llama-3.3-70b-instruct:free',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error).toMatchObject({ kind: 'free_limit_day', status: 429, code: 'openrouter_free_tier_daily' });
    expect(error!.retryAfterSeconds).toBeGreaterThan(0);
    expect(error!.retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect(waits).toEqual([]);
    expect(guard.status()).toMatchObject({ used: 50, remaining: 0 });
  });

  it('bad_request: an unknown model; never retried', async () => {
    const { error } = await settle(routerClient(bed, funded).chat({ ...ask('x'), model: 'no/such-model' }));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
  });

  it('server: a 500 is retried with backoff and then succeeds; a lasting one gives up after 3 retries', async () => {
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'router', count: 1 });
    const once = recordingSleep(bed);
    expect((await routerClient(bed, funded, { sleep: once.sleep }).chat(ask('after 500')).collect()).text).toBe(
      expected('after 500'),
    );
    expect(once.waits).toEqual([500]);
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'router', count: 10 });
    const lasting = recordingSleep(bed);
    const { error } = await settle(routerClient(bed, funded, { sleep: lasting.sleep }).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(lasting.waits).toEqual([500, 1000, 2000]);
  });

  it('server: a 502 with an HTML body', async () => {
    await bed.admin('POST', '/faults', { kind: 'http502_html', count: 10 });
    const { error } = await settle(routerClient(bed, funded, { retry: NO_RETRY }).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'server', status: 502 });
    expect(error!.message).toMatch(/502 Bad Gateway/);
  });

  it('server: HTTP 200 with an error body, retried', async () => {
    await bed.admin('POST', '/faults', { kind: 'error_in_200', count: 1 });
    const { sleep, waits } = recordingSleep(bed);
    const result = await routerClient(bed, funded, { sleep }).chat(ask('200 error'), { stream: false }).collect();
    expect(waits).toHaveLength(1);
    expect(result.text).toBe(expected('200 error'));
  });

  it('network: a connection reset before headers is retried', async () => {
    await bed.admin('POST', '/faults', { kind: 'reset', beforeHeaders: true, count: 1 });
    const { sleep, waits } = recordingSleep(bed);
    expect((await routerClient(bed, funded, { sleep }).chat(ask('after reset')).collect()).text).toBe(
      expected('after reset'),
    );
    expect(waits).toHaveLength(1);
  });

  it('network: nothing listening', async () => {
    const { error } = await settle(
      new (await import('../../../src/core/wire/chatCompletionsClient.ts')).ChatCompletionsClient({
        baseUrl: 'http://127.0.0.1:9/api/v1',
        profile: routerDescriptor,
        key: funded,
        connectTimeoutMs: 1000,
        idleTimeoutMs: 1000,
        retry: NO_RETRY,
      }).chat(ask('x')),
    );
    expect(error).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
    expect(error!.message).not.toContain(funded);
  });

  it('timeout: no headers within the idle timeout', async () => {
    await bed.admin('POST', '/faults', { kind: 'stall', beforeHeaders: true, count: 1 });
    const { error } = await settle(routerClient(bed, funded, { idleTimeoutMs: 300, retry: NO_RETRY }).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('stream_interrupted: a stall after text keeps the text and is not retried', async () => {
    await bed.admin('POST', '/faults', { kind: 'stall', afterChunks: 4, count: 1 });
    const { sleep, waits } = recordingSleep(bed);
    const { text, error } = await settle(routerClient(bed, funded, { idleTimeoutMs: 300, sleep }).chat(ask('stall')));
    expect(error).toMatchObject({ kind: 'stream_interrupted', code: 'UND_ERR_BODY_TIMEOUT' });
    expect(error!.partialText).toBe(text);
    expect(text).toBe(expected('stall').split(' ').slice(0, 4).join(' '));
    expect(waits).toEqual([]);
  });

  it('stream_interrupted: a reset mid-stream keeps the text', async () => {
    await bed.admin('POST', '/faults', { kind: 'reset', afterChunks: 5, count: 1 });
    const { text, error } = await settle(routerClient(bed, funded).chat(ask('reset mid')));
    expect(error).toMatchObject({ kind: 'stream_interrupted' });
    expect(error!.partialText).toBe(text);
    expect(text.length).toBeGreaterThan(0);
    expect(expected('reset mid').startsWith(text)).toBe(true);
  });

  it('stream_interrupted: a mid-stream error event after text', async () => {
    await bed.admin('POST', '/faults', { kind: 'error_event', afterChunks: 3, count: 1 });
    const { text, error } = await settle(routerClient(bed, funded).chat(ask('mid error')));
    expect(error).toMatchObject({ kind: 'stream_interrupted', status: 502 });
    expect(error!.partialText).toBe(text);
    expect(text.split(' ')).toHaveLength(3);
  });

  it('a mid-stream error event before any text is retried as a server error', async () => {
    await bed.admin('POST', '/faults', { kind: 'error_event', afterChunks: 0, count: 1 });
    const { sleep, waits } = recordingSleep(bed);
    const result = await routerClient(bed, funded, { sleep }).chat(ask('early error')).collect();
    expect(waits).toHaveLength(1);
    expect(result.text).toBe(expected('early error'));
  });

  it('cancelled: before headers and mid-stream, keeping what arrived', async () => {
    const before = new AbortController();
    before.abort();
    expect((await settle(routerClient(bed, funded).chat(ask('x'), { signal: before.signal }))).error).toMatchObject({
      kind: 'cancelled',
    });

    await bed.admin('POST', '/faults', { kind: 'stall', beforeHeaders: true, count: 1 });
    const waiting = new AbortController();
    setTimeout(() => waiting.abort(), 100);
    expect((await settle(routerClient(bed, funded).chat(ask('x'), { signal: waiting.signal }))).error).toMatchObject({
      kind: 'cancelled',
    });

    await bed.admin('POST', '/config', { tokenDelayMs: 30 });
    const mid = new AbortController();
    const stream = routerClient(bed, funded).chat(ask('cancel mid'), { signal: mid.signal });
    let text = '';
    let error: unknown;
    try {
      for await (const delta of stream) {
        text += delta;
        if (text.split(' ').length === 3) mid.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ kind: 'cancelled', partialText: text });
  });

  it('cancelled: while waiting to retry', async () => {
    await bed.admin('POST', '/faults', { kind: 'http500', count: 5 });
    const controller = new AbortController();
    const stream = routerClient(bed, funded).chat(ask('x'), {
      signal: controller.signal,
      onRetry: () => controller.abort(),
    });
    expect((await settle(stream)).error).toMatchObject({ kind: 'cancelled' });
  });

  it('insecure_url: refuses plain http to a remote host before sending anything', async () => {
    const client = new (await import('../../../src/core/wire/chatCompletionsClient.ts')).ChatCompletionsClient({
      baseUrl: 'http://api.example.com/v1',
      profile: routerDescriptor,
      key: funded,
      connectTimeoutMs: 100,
      idleTimeoutMs: 100,
    });
    const { error } = await settle(client.chat(ask('x')));
    expect(error).toMatchObject({ kind: 'insecure_url' });
    await expect(client.keyInfo()).rejects.toMatchObject({ kind: 'insecure_url' });
  });
});

describe('router client: faults in the stream', () => {
  it('skips a malformed data line and keeps the text whole', async () => {
    await bed.admin('POST', '/faults', { kind: 'malformed_sse', afterChunks: 2, count: 1 });
    const result = await routerClient(bed, funded).chat(ask('malformed')).collect();
    expect(result.text).toBe(expected('malformed'));
    expect(result.skippedEvents).toBe(1);
  });

  it('takes a very long line', async () => {
    await bed.admin('POST', '/faults', { kind: 'long_line', afterChunks: 1, count: 1 });
    const result = await routerClient(bed, funded).chat(ask('long')).collect();
    expect(result.text.length).toBe(expected('long').length + 512 * 1024);
  });

  it('turns bytes that are not UTF-8 into replacement characters', async () => {
    await bed.admin('POST', '/faults', { kind: 'invalid_utf8', afterChunks: 1, count: 1 });
    const result = await routerClient(bed, funded).chat(ask('bytes')).collect();
    expect(result.text).toContain('\ufffd');
    expect(result.text.replace(/\ufffd+/, '')).toBe(expected('bytes'));
  });

  it('masks a key the server echoes back', async () => {
    await bed.admin('POST', '/faults', { kind: 'echo_key', count: 1 });
    const { error } = await settle(routerClient(bed, funded).chat(ask('x')));
    expect(error).toMatchObject({ kind: 'auth' });
    expect(JSON.stringify(error!.toData())).not.toContain(funded);
    expect(error!.message).toContain(funded.slice(-4));
  });
});
