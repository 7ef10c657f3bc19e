// What the transport does with a slow, redirecting, endless or key-echoing
// server: both clients over HTTP against the emulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../src/shared/errorKinds.ts';
import { ServiceError } from '../../src/core/errors.ts';
import { NO_RETRY } from '../../src/core/retryPolicy.ts';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { answerText } from '../emulator/answers.ts';
import { ROUTER_KEY_PREFIX } from '../emulator/keyFactory.ts';
import { directClient, recordingSleep, routerClient, settle } from './clientSupport.ts';

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

const chat = (prompt: string) => ({
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user' as const, content: prompt }],
  maxTokens: 64,
});
const expected = (prompt: string) => answerText(prompt, { tokens: 12 });

describe('timeouts: a long wait for an answer that is not streamed, a short one for a silent stream', () => {
  it('a non-streamed answer may take longer than the idle timeout to start', async () => {
    await bed.admin('POST', '/faults', { kind: 'slow_headers', delayMs: 1500, count: 2 });
    const router = await routerClient(bed, routerKey, { idleTimeoutMs: 300, retry: NO_RETRY })
      .chat(chat('thinking'), { stream: false })
      .collect();
    expect(router.text).toBe(expected('thinking'));
    const direct = await directClient(bed, directKey, { idleTimeoutMs: 300, retry: NO_RETRY })
      .respond({ model: 'o3', input: 'thinking' }, { stream: false })
      .collect();
    expect(direct.text).toBe(expected('thinking'));
  });

  it('a stream that does not start within the idle timeout times out, naming that timeout', async () => {
    await bed.admin('POST', '/faults', { kind: 'slow_headers', delayMs: 1500, count: 1 });
    const { error } = await settle(
      routerClient(bed, routerKey, { idleTimeoutMs: 300, retry: NO_RETRY }).chat(chat('x')),
    );
    expect(error).toMatchObject({ kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(error!.message).toMatch(
      /had not started its answer after 300 ms \(the idle timeout: keyward\.network\.idleTimeoutMs, or --idle-timeout\)/,
    );
  });

  it('a non-streamed answer past the request timeout times out, naming that timeout', async () => {
    await bed.admin('POST', '/faults', { kind: 'slow_headers', delayMs: 1500, count: 1 });
    const { error } = await settle(
      directClient(bed, directKey, { idleTimeoutMs: 5000, requestTimeoutMs: 300, retry: NO_RETRY }).respond(
        { model: 'o3', input: 'x' },
        { stream: false },
      ),
    );
    expect(error).toMatchObject({ kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(error!.message).toMatch(
      /after 300 ms \(the request timeout: keyward\.network\.requestTimeoutMs, or --timeout\)/,
    );
  });
});

describe('redirects', () => {
  it('a 307 on POST is reported once, plainly, with the location stripped of what could carry a secret', async () => {
    await bed.admin('POST', '/faults', {
      kind: 'redirect',
      status: 307,
      location: `https://elsewhere.example.invalid/v1/chat/completions?token=${routerKey}`,
      count: 5,
    });
    const { sleep, waits } = recordingSleep(bed);
    const { text, error } = await settle(routerClient(bed, routerKey, { sleep }).chat(chat('x')));
    expect(text).toBe('');
    expect(error).toMatchObject({ kind: 'redirected', status: 307 });
    expect(error!.message).toBe(
      'The routing service redirected to https://elsewhere.example.invalid/v1/chat/completions?… (HTTP 307); Keyward does not follow redirects with your key.',
    );
    expect(error!.action).toMatch(/does not follow redirects/);
    expect(waits).toEqual([]);
    expect(bed.emulator.faults.pending()[0]!.remaining).toBe(4);
  });

  it('a redirect of a key check is reported the same way', async () => {
    await bed.admin('POST', '/faults', { kind: 'redirect', status: 301, service: 'router', path: '/key', count: 1 });
    await expect(routerClient(bed, routerKey).keyInfo()).rejects.toMatchObject({
      kind: 'redirected',
      status: 301,
      message: expect.stringMatching(/redirected to https:\/\/moved\.example\.invalid\/router\/api\/v1\/key /),
    });
  });
});

describe('size caps: a line, an event or a body that never ends stops with response_too_large', () => {
  it.each([
    ['endless_line', 'sse_line_too_long'],
    ['endless_event', 'sse_event_too_large'],
  ])('%s before any text', async (kind, code) => {
    await bed.admin('POST', '/faults', { kind, afterChunks: 0, count: 5 });
    const started = Date.now();
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(routerClient(bed, routerKey, { sleep }).chat(chat('x')));
    expect(error).toMatchObject({ kind: 'response_too_large', code });
    expect(error!.message).toMatch(
      /^The routing service sent a stream (line|event) longer than 8 MiB; Keyward stopped reading it\.$/,
    );
    expect(waits).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('an endless line after text keeps the text as an interrupted answer', async () => {
    await bed.admin('POST', '/faults', { kind: 'endless_line', service: 'direct', afterChunks: 6, count: 1 });
    const { text, error } = await settle(
      directClient(bed, directKey).respond({ model: 'gpt-4o-mini', input: 'endless' }),
    );
    expect(text.length).toBeGreaterThan(0);
    expect(expected('endless').startsWith(text)).toBe(true);
    expect(error).toMatchObject({ kind: 'stream_interrupted', code: 'sse_line_too_long', partialText: text });
  });

  it('an endless error body', async () => {
    await bed.admin('POST', '/faults', { kind: 'endless_body', status: 500, count: 5 });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(
      directClient(bed, directKey, { sleep }).respond({ model: 'gpt-4o-mini', input: 'x' }, { stream: false }),
    );
    expect(error).toMatchObject({ kind: 'response_too_large', code: 'body_too_large', status: 500 });
    expect(error!.message).toMatch(/body over 8 MiB \(HTTP 500\)/);
    expect(waits).toEqual([]);
  });

  it('a long line under the cap (512 KiB) still arrives whole', async () => {
    await bed.admin('POST', '/faults', { kind: 'long_line', afterChunks: 1, count: 1 });
    const result = await routerClient(bed, routerKey).chat(chat('long')).collect();
    expect(result.text.length).toBeGreaterThan(512 * 1024);
  });
});

describe('a key echoed in any field never leaves the error', () => {
  // Anything key-shaped, built in pieces so no key shape is written in the repository.
  const keyShaped = new RegExp(`${ROUTER_KEY_PREFIX}[0-9a-f]{8}|sk-proj-[A-Za-z0-9_-]{12}`);

  function expectNoKey(error: ServiceError | undefined, key: string): void {
    expect(error).toBeInstanceOf(ServiceError);
    const out = JSON.stringify({ data: error!.toData(), partial: error!.partialText ?? '', name: error!.name });
    expect(out).not.toContain(key);
    expect(out).not.toMatch(keyShaped);
    // The echoed field did reach the error (masked), so the check above is not vacuous.
    expect(out).toContain('…' + key.slice(-4));
  }

  it.each(['message', 'code', 'reason', 'raw', 'provider', 'title', 'stream'])('routing service, %s', async (field) => {
    await bed.admin('POST', '/faults', { kind: 'echo_key', service: 'router', field, count: 5 });
    const { error } = await settle(routerClient(bed, routerKey, { retry: NO_RETRY }).chat(chat('x')));
    expectNoKey(error, routerKey);
  });

  it.each(['message', 'code', 'title', 'stream'])('direct service, %s', async (field) => {
    await bed.admin('POST', '/faults', { kind: 'echo_key', service: 'direct', field, count: 5 });
    const { error } = await settle(
      directClient(bed, directKey, { retry: NO_RETRY }).respond({ model: 'gpt-4o-mini', input: 'x' }),
    );
    expectNoKey(error, directKey);
  });

  it('whatever builds the error: the constructor redacts message, code and action', () => {
    for (const kind of ERROR_KINDS) {
      const error = new ServiceError({
        kind,
        service: 'router',
        message: `m ${routerKey}`,
        code: routerKey,
        action: `a ${routerKey}`,
        secrets: [routerKey],
      });
      expect(JSON.stringify(error.toData())).not.toContain(routerKey);
    }
    expect(
      new ServiceError({ kind: 'server', service: 'router', message: 'x'.repeat(100_000) }).message.length,
    ).toBeLessThanOrEqual(1000);
  });
});
