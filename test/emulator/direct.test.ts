// The direct model service seed, row by row, over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';
import { answerText } from './answers.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', {}));

async function org(purchase?: number) {
  const created = await bed.admin<{ id: string; defaultProjectId: string }>('POST', '/direct/orgs', { name: 'test' });
  if (purchase !== undefined) await bed.admin('POST', `/direct/orgs/${created.id}/purchase`, { amount: purchase });
  return created;
}

async function key(orgId: string, extra: Record<string, unknown> = {}) {
  return bed.admin<{ id: string; key: string }>('POST', '/direct/keys', { orgId, ...extra });
}

const respond = (k: string, extra: Record<string, unknown> = {}) =>
  bed.direct('/responses', k, { body: { model: 'gpt-4o-mini', input: 'hello', ...extra } });

async function errorOf(response: Response) {
  return (
    (await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } }
  ).error;
}

const tierOf = (orgId: string) => bed.emulator.direct.tier(bed.emulator.direct.org(orgId)).tier;

describe('state: usage tiers by cumulative purchases', () => {
  it('starts at Free and upgrades automatically to Build at $5, Launch at $100 and Grow at $500', async () => {
    const { id } = await org();
    expect(tierOf(id)).toBe('Free');
    const steps: [number, string, number][] = [
      [5, 'Build', 500],
      [90, 'Build', 500],
      [5, 'Launch', 5000],
      [395, 'Launch', 5000],
      [5, 'Grow', 200000],
    ];
    for (const [amount, tier, monthlyLimit] of steps) {
      const result = await bed.admin<{ tier: string; monthlyLimit: number }>('POST', `/direct/orgs/${id}/purchase`, {
        amount,
      });
      expect(result).toMatchObject({ tier, monthlyLimit });
    }
  });

  it('enforces the monthly usage limit of each tier, and lifts it with the upgrade', async () => {
    const { id } = await org(5);
    const { key: k } = await key(id);
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 1000 });
    await bed.admin('POST', `/direct/orgs/${id}/spend`, { amount: 500 });
    const limited = await respond(k);
    expect(limited.status).toBe(429);
    expect(await errorOf(limited)).toMatchObject({
      type: 'insufficient_quota',
      code: 'organization_usage_limit_exceeded',
    });
    await bed.admin('POST', `/direct/orgs/${id}/purchase`, { amount: 95 });
    expect(tierOf(id)).toBe('Launch');
    expect((await respond(k)).status).toBe(200);
  });

  it('holds the Free tier to $100 a month, and resets the month', async () => {
    await bed.emulator.clock.set(Date.parse('2026-11-15T00:00:00Z'));
    const { id } = await org();
    const { key: k } = await key(id);
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 300 });
    await bed.admin('POST', `/direct/orgs/${id}/spend`, { amount: 100 });
    expect((await errorOf(await respond(k))).code).toBe('organization_usage_limit_exceeded');
    await bed.emulator.clock.set(Date.parse('2026-12-01T00:00:01Z'));
    expect((await respond(k)).status).toBe(200);
  });

  it('gives higher tiers higher rate limits', async () => {
    const { id } = await org();
    const { key: k } = await key(id);
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 10 });
    for (let i = 0; i < 3; i++) expect((await respond(k)).status).toBe(200);
    expect((await respond(k)).status).toBe(429);
    await bed.admin('POST', `/direct/orgs/${id}/purchase`, { amount: 5 });
    for (let i = 0; i < 5; i++) expect((await respond(k)).status).toBe(200);
  });
});

describe('state: balance above zero -> balance exhausted', () => {
  it('fails requests with 429 credit_balance_exhausted once the balance reaches zero', async () => {
    const { id } = await org(5);
    const { key: k } = await key(id);
    expect((await respond(k)).status).toBe(200);
    const balance = bed.emulator.direct.balance(bed.emulator.direct.org(id));
    await bed.admin('POST', `/direct/orgs/${id}/spend`, { amount: balance });
    const response = await respond(k);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBeNull();
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: 'insufficient_quota', code: 'credit_balance_exhausted', param: null });
    expect(error.message).toMatch(/no credits remaining/);
  });

  it('fails with credit_balance_exhausted for an organisation that never bought credit', async () => {
    const { id } = await org();
    const { key: k } = await key(id);
    expect((await errorOf(await respond(k))).code).toBe('credit_balance_exhausted');
  });

  it('uses free credits before purchased ones', async () => {
    const { id } = await org(10);
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 2 });
    await bed.admin('POST', `/direct/orgs/${id}/spend`, { amount: 1.5 });
    const state = bed.emulator.direct.org(id);
    expect(state.freeLots[0]!.remaining).toBe(0.5);
    expect(state.paidLots[0]!.remaining).toBe(10);
  });

  it('reloads automatically when enabled, at least $5 a time', async () => {
    const { id } = await org(10);
    await expect(
      bed.admin('PATCH', `/direct/orgs/${id}`, { autoReload: { enabled: true, threshold: 5, amount: 4 } }),
    ).rejects.toThrow(/minimum auto-reload/);
    await bed.admin('PATCH', `/direct/orgs/${id}`, { autoReload: { enabled: true, threshold: 5, amount: 10 } });
    await bed.admin('POST', `/direct/orgs/${id}/spend`, { amount: 6 });
    expect(bed.emulator.direct.balance(bed.emulator.direct.org(id))).toBe(14);
  });
});

describe('state: key active -> key revoked or disabled', () => {
  it('stops a deleted key at once', async () => {
    const { id } = await org(10);
    const { id: keyId, key: k } = await key(id);
    expect((await respond(k)).status).toBe(200);
    await bed.admin('DELETE', `/direct/keys/${keyId}`);
    const response = await respond(k);
    expect(response.status).toBe(401);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toContain(`****...${k.slice(-4)}`);
    expect(error.message).not.toContain(k);
    expect((await bed.direct('/models', k)).status).toBe(401);
  });

  it('disables a key found in public code', async () => {
    const { id } = await org(10);
    const { id: keyId, key: k } = await key(id);
    await bed.admin('POST', `/direct/keys/${keyId}/disable`, {});
    const response = await respond(k);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/public code/);
  });

  it('stops a key past its expiration date', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id, { expiresIn: '7d' });
    await bed.admin('POST', '/clock', { advance: '8d' });
    expect((await respond(k)).status).toBe(401);
  });
});

describe('errors: 429 family', () => {
  it('answers 429 project_spend_limit_exceeded and organization_spend_limit_exceeded at a spend limit', async () => {
    const { id, defaultProjectId } = await org(50);
    const { key: k } = await key(id);
    await bed.admin('PATCH', `/direct/orgs/${id}/projects/${defaultProjectId}`, { spendLimit: 1 });
    await bed.admin('POST', `/direct/orgs/${id}/spend`, { amount: 1 });
    expect(await errorOf(await respond(k))).toMatchObject({
      type: 'insufficient_quota',
      code: 'project_spend_limit_exceeded',
    });
    const other = await bed.admin<{ id: string }>('POST', `/direct/orgs/${id}/projects`, { name: 'Other' });
    const { key: otherKey } = await key(id, { projectId: other.id });
    expect((await respond(otherKey)).status).toBe(200);
    await bed.admin('PATCH', `/direct/orgs/${id}`, { spendLimit: 1 });
    expect(await errorOf(await respond(otherKey))).toMatchObject({ code: 'organization_spend_limit_exceeded' });
  });

  it('answers 429 rate_limit_exceeded with x-ratelimit headers and Retry-After past the tier RPM, per project', async () => {
    const { id } = await org();
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 10 });
    const { key: k } = await key(id);
    const ok = await respond(k);
    expect(ok.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(ok.headers.get('x-ratelimit-remaining-requests')).toBe('2');
    expect(ok.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(ms|s|m\d+s)$/);
    expect(ok.headers.get('x-ratelimit-limit-tokens')).toBe('40000');
    await respond(k);
    await respond(k);
    const limited = await respond(k);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const error = await errorOf(limited);
    expect(error).toMatchObject({ code: 'rate_limit_exceeded', type: 'requests' });
    expect(error.message).toMatch(/requests per min \(RPM\): Limit 3, Used 3, Requested 1/);
    const other = await bed.admin<{ id: string }>('POST', `/direct/orgs/${id}/projects`, { name: 'Other' });
    expect((await respond((await key(id, { projectId: other.id })).key)).status).toBe(200);
    await bed.admin('POST', '/clock', { advance: '61s' });
    expect((await respond(k)).status).toBe(200);
  });
});

describe('errors: permissions', () => {
  it('lets a Restricted key without Models read fail to list models with "Missing scopes: api.model.read" (401, or 403 when set)', async () => {
    const { id } = await org(10);
    const { id: keyId, key: k } = await key(id, { permissions: 'Restricted', scopes: ['api.responses.write'] });
    const refused = await bed.direct('/models', k);
    expect(refused.status).toBe(401);
    expect(await errorOf(refused)).toMatchObject({ type: 'invalid_request_error', code: null });
    expect((await errorOf(await bed.direct('/models', k))).message).toMatch(/Missing scopes: api\.model\.read/);
    expect((await respond(k)).status).toBe(200);
    await bed.admin('POST', '/config', { missingScopesStatus: 403 });
    expect((await bed.direct('/models', k)).status).toBe(403);
    await bed.admin('PATCH', `/direct/keys/${keyId}`, { scopes: ['api.responses.write', 'api.model.read'] });
    expect((await bed.direct('/models', k)).status).toBe(200);
  });

  it('lets a Read Only key list models but not create responses', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id, { permissions: 'Read Only' });
    expect((await bed.direct('/models', k)).status).toBe(200);
    const refused = await respond(k);
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).message).toMatch(/Missing scopes: api\.responses\.write/);
  });
});

describe('limits and billing', () => {
  it('refuses a purchase under the $5 minimum', async () => {
    const { id } = await org();
    await expect(bed.admin('POST', `/direct/orgs/${id}/purchase`, { amount: 4.99 })).rejects.toThrow(
      /minimum purchase is 5/,
    );
    const result = await bed.admin<{ balance: number }>('POST', `/direct/orgs/${id}/purchase`, {});
    expect(result.balance).toBe(10);
  });

  it('lets purchased credits expire one year after purchase', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id);
    await bed.admin('POST', '/clock', { advance: '365d1s' });
    expect((await errorOf(await respond(k))).code).toBe('credit_balance_exhausted');
  });
});

describe('endpoints', () => {
  it('GET /models is free: it uses no tokens and works at a zero balance', async () => {
    const { id } = await org();
    const { key: k } = await key(id);
    const response = await bed.direct('/models', k);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await response.json()) as {
      object: string;
      data: { id: string; object: string; owned_by: string; created: number }[];
    };
    expect(body.object).toBe('list');
    expect(body.data[0]).toMatchObject({ object: 'model', owned_by: 'openai' });
    expect(bed.emulator.direct.org(id).monthlySpend.size).toBe(0);
  });

  it('POST /responses answers with output[] message items and usage, and charges the balance', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id);
    const response = await respond(k, { instructions: 'Be brief.' });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await response.json()) as Record<string, any>;
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
    });
    expect(body.output_text).toBeUndefined();
    expect(body.output[0].content[0]).toMatchObject({ type: 'output_text', text: answerText('hello', { tokens: 12 }) });
    expect(body.usage.output_tokens).toBe(12);
    expect(body.usage.total_tokens).toBe(body.usage.input_tokens + 12);
    expect(bed.emulator.direct.balance(bed.emulator.direct.org(id))).toBeLessThan(10);
  });

  it('streams named events with sequence numbers, ending at response.completed without [DONE]', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id);
    const response = await respond(k, { stream: true });
    const text = await response.text();
    expect(text).not.toContain('[DONE]');
    const frames = text
      .trim()
      .split('\n\n')
      .map((frame) => {
        const [eventLine, dataLine] = frame.split('\n') as [string, string];
        return { event: eventLine.slice(7), data: JSON.parse(dataLine.slice(6)) as Record<string, any> };
      });
    expect(frames.map((f) => f.event).filter((e) => e !== 'response.output_text.delta')).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    frames.forEach((frame, i) => {
      expect(frame.data.type).toBe(frame.event);
      expect(frame.data.sequence_number).toBe(i);
    });
    expect(
      frames
        .filter((f) => f.event === 'response.output_text.delta')
        .map((f) => f.data.delta)
        .join(''),
    ).toBe(answerText('hello', { tokens: 12 }));
    expect(frames.at(-1)!.data.response.usage.output_tokens).toBe(12);
  });

  it('continues a conversation with previous_response_id, and refuses an unknown one', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id);
    const first = (await (await respond(k, { input: 'first question' })).json()) as {
      id: string;
      usage: { input_tokens: number };
    };
    const second = (await (await respond(k, { input: 'second question', previous_response_id: first.id })).json()) as {
      previous_response_id: string;
      usage: { input_tokens: number };
      output: any[];
    };
    expect(second.previous_response_id).toBe(first.id);
    expect(second.usage.input_tokens).toBeGreaterThan(first.usage.input_tokens);
    expect(second.output[0].content[0].text).toBe(answerText('second question', { tokens: 12 }));
    const unknown = await respond(k, { previous_response_id: 'resp_nothing' });
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatchObject({
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  });

  it('accepts input as an array of message items', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id);
    const response = await respond(k, {
      input: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: [{ type: 'input_text', text: 'three' }] },
      ],
    });
    const body = (await response.json()) as { output: any[] };
    expect(body.output[0].content[0].text).toBe(answerText('three', { tokens: 12 }));
  });

  it('stops at max_output_tokens with status incomplete', async () => {
    const { id } = await org(10);
    const { key: k } = await key(id);
    await bed.admin('POST', '/config', { answerTokens: 40 });
    const body = (await (await respond(k, { max_output_tokens: 16 })).json()) as Record<string, any>;
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(body.usage.output_tokens).toBe(16);
  });

  it('sends x-request-id on errors too', async () => {
    const response = await respond('nope');
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
