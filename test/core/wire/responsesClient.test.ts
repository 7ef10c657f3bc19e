// The direct-service client over HTTP against the emulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outputText } from '../../../src/core/wire/responsesClient.ts';
import { NO_RETRY } from '../../../src/core/retryPolicy.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { answerText } from '../../emulator/answers.ts';
import { directClient, recordingSleep, settle } from '../clientSupport.ts';

let bed: TestBed;
let key: string;
let orgId: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  key = bed.emulator.sandbox!.keys.direct;
  orgId = bed.emulator.sandbox!.directOrgId;
});

const expected = (prompt: string, tokens = 12) => answerText(prompt, { tokens });
const newKey = async (extra: Record<string, unknown>) =>
  (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId, ...extra })).key;

describe('direct client: answers', () => {
  it('streams deltas and a final result with the response id and usage', async () => {
    const stream = directClient(bed, key).respond({
      model: 'gpt-4o-mini',
      input: 'hello there',
      instructions: 'Be brief.',
    });
    let text = '';
    for await (const delta of stream) text += delta;
    const result = await stream.result;
    expect(text).toBe(expected('hello there'));
    expect(result).toMatchObject({
      service: 'direct',
      text,
      model: 'gpt-4o-mini',
      finishReason: 'stop',
      nativeFinishReason: 'completed',
      refusal: null,
      costUsd: null,
    });
    expect(result.id).toMatch(/^resp_/);
    expect(result.usage).toMatchObject({ outputTokens: 12 });
  });

  it('assembles the text from output[] without streaming', async () => {
    const result = await directClient(bed, key)
      .respond({ model: 'gpt-4o-mini', input: 'whole' }, { stream: false })
      .collect();
    expect(result.text).toBe(expected('whole'));
  });

  it('continues a conversation with previous_response_id and with an input list', async () => {
    const client = directClient(bed, key);
    const first = await client.respond({ model: 'gpt-4o-mini', input: 'first' }).collect();
    const second = await client
      .respond({ model: 'gpt-4o-mini', input: 'second', previousResponseId: first.id! })
      .collect();
    expect(second.text).toBe(expected('second'));
    expect(second.usage!.inputTokens).toBeGreaterThan(first.usage!.inputTokens);
    const listed = await client
      .respond({
        model: 'gpt-4o-mini',
        input: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
          { role: 'user', content: 'c' },
        ],
      })
      .collect();
    expect(listed.text).toBe(expected('c'));
  });

  it('reports an incomplete answer at max_output_tokens', async () => {
    await bed.admin('POST', '/config', { answerTokens: 30 });
    const result = await directClient(bed, key)
      .respond({ model: 'gpt-4o-mini', input: 'long', maxOutputTokens: 16 })
      .collect();
    expect(result).toMatchObject({ finishReason: 'length', nativeFinishReason: 'max_output_tokens' });
    expect(result.text).toBe(expected('long', 30).split(' ').slice(0, 16).join(' '));
  });

  it('lists models and keeps the rate-limit headers it saw', async () => {
    const client = directClient(bed, key);
    expect(await client.models()).toContain('gpt-5.4');
    await client.respond({ model: 'gpt-4o-mini', input: 'x' }).collect();
    expect(client.lastRateLimits).toMatchObject({ limitRequests: 500, remainingRequests: 499, limitTokens: 200_000 });
    expect(client.lastRateLimits!.resetRequestsSeconds).toBeGreaterThan(0);
  });

  it('computes output_text from message items only', () => {
    expect(
      outputText({
        output: [
          { type: 'reasoning', summary: [] },
          {
            type: 'message',
            content: [
              { type: 'output_text', text: 'a' },
              { type: 'refusal', refusal: 'no' },
            ],
          },
          { type: 'message', content: [{ type: 'output_text', text: 'b' }] },
        ],
      }),
    ).toBe('ab');
  });
});

describe('direct client: error kinds', () => {
  it('auth: a revoked key, with the echoed key masked', async () => {
    const { id, key: revoked } = await bed.admin<{ id: string; key: string }>('POST', '/direct/keys', { orgId });
    await bed.admin('DELETE', `/direct/keys/${id}`);
    const { error } = await settle(directClient(bed, revoked).respond({ model: 'gpt-4o-mini', input: 'x' }));
    expect(error).toMatchObject({ kind: 'auth', status: 401, code: 'invalid_api_key' });
    await expect(directClient(bed, revoked).models()).rejects.toMatchObject({ kind: 'auth' });
  });

  it('permission: "Missing scopes" as 401 and as 403', async () => {
    const restricted = await newKey({ permissions: 'Restricted', scopes: ['api.responses.write'] });
    await expect(directClient(bed, restricted).models()).rejects.toMatchObject({
      kind: 'permission',
      status: 401,
      code: 'api.model.read',
    });
    await bed.admin('POST', '/config', { missingScopesStatus: 403 });
    await expect(directClient(bed, restricted).models()).rejects.toMatchObject({ kind: 'permission', status: 403 });
    expect((await directClient(bed, restricted).respond({ model: 'gpt-4o-mini', input: 'x' }).collect()).text).toBe(
      expected('x'),
    );
    const readOnly = await newKey({ permissions: 'Read Only' });
    expect(
      (await settle(directClient(bed, readOnly).respond({ model: 'gpt-4o-mini', input: 'x' }))).error,
    ).toMatchObject({ kind: 'permission', code: 'api.responses.write' });
  });

  it('credit_exhausted, spend_limit and usage_limit: never retried', async () => {
    const { sleep, waits } = recordingSleep(bed);
    const client = directClient(bed, key, { sleep });
    const org = bed.emulator.direct.org(orgId);
    await bed.admin('POST', `/direct/orgs/${orgId}/spend`, { amount: bed.emulator.direct.balance(org) });
    expect((await settle(client.respond({ model: 'gpt-4o-mini', input: 'x' }))).error).toMatchObject({
      kind: 'credit_exhausted',
      status: 429,
      code: 'credit_balance_exhausted',
    });
    await bed.admin('POST', `/direct/orgs/${orgId}/purchase`, { amount: 10 });
    await bed.admin('PATCH', `/direct/orgs/${orgId}`, { spendLimit: 5 });
    expect((await settle(client.respond({ model: 'gpt-4o-mini', input: 'x' }))).error).toMatchObject({
      kind: 'spend_limit',
      code: 'organization_spend_limit_exceeded',
    });
    await bed.admin('PATCH', `/direct/orgs/${orgId}`, { spendLimit: null });
    await bed.admin('POST', `/direct/orgs/${orgId}/free-credits`, { amount: 600 });
    await bed.admin('POST', `/direct/orgs/${orgId}/spend`, { amount: 500 });
    expect((await settle(client.respond({ model: 'gpt-4o-mini', input: 'x' }))).error).toMatchObject({
      kind: 'usage_limit',
      code: 'organization_usage_limit_exceeded',
    });
    expect(waits).toEqual([]);
  });

  it('rate_limit: waits the Retry-After the service gave, then succeeds', async () => {
    const { id } = await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'free tier' });
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 5 });
    const freeKey = (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: id })).key;
    const { sleep, waits } = recordingSleep(bed);
    const client = directClient(bed, freeKey, { sleep });
    for (let i = 0; i < 3; i++) await client.respond({ model: 'gpt-4o-mini', input: 'x' }).collect();
    const notices: string[] = [];
    const result = await client
      .respond(
        { model: 'gpt-4o-mini', input: 'fourth' },
        { onRetry: (n) => notices.push(`${n.error.kind}:${n.error.retryAfterSeconds}`) },
      )
      .collect();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^rate_limit:\d+$/);
    expect(waits[0]).toBeGreaterThan(50_000);
    expect(result.text).toBe(expected('fourth'));
  });

  // An unknown previous response is its own kind since issue 21 item 7: the model id is not what to check.
  it('bad_request for an unknown model; response_chain_lost for an unknown previous response', async () => {
    expect((await settle(directClient(bed, key).respond({ model: 'gpt-0', input: 'x' }))).error).toMatchObject({
      kind: 'bad_request',
      status: 400,
      code: 'model_not_found',
    });
    expect(
      (
        await settle(
          directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'x', previousResponseId: 'resp_none' }),
        )
      ).error,
    ).toMatchObject({ kind: 'response_chain_lost', status: 400, code: 'previous_response_not_found' });
  });

  it('server: a 500 is retried; a 502 HTML page is reported', async () => {
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'direct', count: 1 });
    const { sleep, waits } = recordingSleep(bed);
    expect(
      (await directClient(bed, key, { sleep }).respond({ model: 'gpt-4o-mini', input: 'again' }).collect()).text,
    ).toBe(expected('again'));
    expect(waits).toEqual([500]);
    await bed.admin('POST', '/faults', { kind: 'http502_html', service: 'direct', count: 1 });
    expect(
      (await settle(directClient(bed, key, { retry: NO_RETRY }).respond({ model: 'gpt-4o-mini', input: 'x' }))).error,
    ).toMatchObject({ kind: 'server', status: 502 });
  });

  it.each(['nested', 'top'])(
    'error events (%s shape): server before text (retried), stream_interrupted after',
    async (shape) => {
      await bed.admin('POST', '/faults', { kind: 'error_event', service: 'direct', afterChunks: 2, shape, count: 1 });
      const { sleep, waits } = recordingSleep(bed);
      expect(
        (await directClient(bed, key, { sleep }).respond({ model: 'gpt-4o-mini', input: 'early' }).collect()).text,
      ).toBe(expected('early'));
      expect(waits).toHaveLength(1);
      await bed.admin('POST', '/faults', { kind: 'error_event', service: 'direct', afterChunks: 7, shape, count: 1 });
      const { text, error } = await settle(directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'late' }));
      expect(error).toMatchObject({ kind: 'stream_interrupted', code: 'server_error' });
      expect(error!.partialText).toBe(text);
      expect(text.split(' ')).toHaveLength(3);
    },
  );

  it('stream_interrupted: a reset after text; cancelled mid-stream keeps the text', async () => {
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'direct', afterChunks: 6, count: 1 });
    const broken = await settle(directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'reset' }));
    expect(broken.error).toMatchObject({ kind: 'stream_interrupted', partialText: broken.text });
    expect(broken.text.split(' ')).toHaveLength(2);

    await bed.admin('POST', '/config', { tokenDelayMs: 30 });
    const controller = new AbortController();
    let text = '';
    let error: unknown;
    try {
      for await (const delta of directClient(bed, key).respond(
        { model: 'gpt-4o-mini', input: 'cancel' },
        { signal: controller.signal },
      )) {
        text += delta;
        controller.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ kind: 'cancelled', partialText: text });
  });

  it('skips a malformed event, tolerates invalid UTF-8 and a long line', async () => {
    await bed.admin('POST', '/faults', { kind: 'malformed_sse', service: 'direct', afterChunks: 5, count: 1 });
    const malformed = await directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'm' }).collect();
    expect(malformed).toMatchObject({ text: expected('m'), skippedEvents: 1 });
    await bed.admin('POST', '/faults', { kind: 'invalid_utf8', service: 'direct', afterChunks: 5, count: 1 });
    expect((await directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'u' }).collect()).text).toContain(
      '\ufffd',
    );
    await bed.admin('POST', '/faults', { kind: 'long_line', service: 'direct', afterChunks: 5, count: 1 });
    expect(
      (await directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'l' }).collect()).text.length,
    ).toBeGreaterThan(512 * 1024);
  });
});
