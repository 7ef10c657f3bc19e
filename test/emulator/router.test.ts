// The routing service seed, row by row, over HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, sseData, startTestBed, userMessage } from './adminClient.ts';
import { answerText } from './answers.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', {}));

async function account(purchase?: { amount: number; method?: 'card' | 'crypto' }) {
  const { id } = await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'test' });
  if (purchase) await bed.admin('POST', `/router/accounts/${id}/purchase`, purchase);
  return id;
}

async function key(accountId: string, extra: Record<string, unknown> = {}) {
  return bed.admin<{ id: string; key: string }>('POST', '/router/keys', { accountId, name: 'k', ...extra });
}

const FREE = 'meta-llama/llama-3.3-70b-instruct:free';
const PAID = 'openai/gpt-4o';

async function chat(k: string, model: string, extra: Record<string, unknown> = {}) {
  return bed.router('/chat/completions', k, { body: { model, messages: userMessage('hello'), ...extra } });
}

async function keyCheck(k: string) {
  const response = await bed.router('/key', k);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, any> }).data;
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: number; message: string; metadata?: Record<string, any> } })
    .error;
}

describe('state: free-model daily allowance by credits bought', () => {
  it('stays at 50 below 9 credits and becomes 1,000 once purchases reach 9', async () => {
    const id = await account();
    const { key: k } = await key(id);
    expect((await keyCheck(k)).free_model_daily_requests).toEqual({ used: 0, limit: 50, remaining: 50 });
    await bed.admin('POST', `/router/accounts/${id}/purchase`, { amount: 5 });
    await bed.admin('POST', `/router/accounts/${id}/purchase`, { amount: 3.99 });
    expect((await keyCheck(k)).free_model_daily_requests.limit).toBe(50);
    const result = await bed.admin<{ freeDailyLimit: number }>('POST', `/router/accounts/${id}/purchase`, {
      amount: 0.01,
    });
    expect(result.freeDailyLimit).toBe(1000);
    expect((await keyCheck(k)).free_model_daily_requests).toEqual({ used: 0, limit: 1000, remaining: 1000 });
  });
});

describe('state: balance at or above zero -> negative balance', () => {
  it('fails every call with 402, free models included, while the balance is below zero', async () => {
    const id = await account({ amount: 1 });
    const { key: k } = await key(id);
    expect((await chat(k, FREE)).status).toBe(200);
    await bed.admin('POST', `/router/accounts/${id}/spend`, { amount: 1.5 });
    const free = await chat(k, FREE);
    expect(free.status).toBe(402);
    expect((await errorOf(free)).message).toMatch(/negative/);
    expect((await chat(k, PAID, { max_tokens: 16 })).status).toBe(402);
  });
});

describe('state: negative balance -> credit purchase', () => {
  it('accepts calls again once a purchase brings the balance to zero or above', async () => {
    const id = await account({ amount: 1 });
    const { key: k } = await key(id);
    await bed.admin('POST', `/router/accounts/${id}/spend`, { amount: 3 });
    expect((await chat(k, FREE)).status).toBe(402);
    await bed.admin('POST', `/router/accounts/${id}/purchase`, { amount: 1 });
    expect((await chat(k, FREE)).status).toBe(402);
    const { balance } = await bed.admin<{ balance: number }>('POST', `/router/accounts/${id}/purchase`, { amount: 1 });
    expect(balance).toBe(0);
    expect((await chat(k, FREE)).status).toBe(200);
  });
});

describe('state: key within its credit limit -> key at limit -> limit raised', () => {
  it('fails with 402 at the key limit and accepts calls again after the owner raises it', async () => {
    const id = await account({ amount: 20 });
    const { id: keyId, key: k } = await key(id, { limit: 0.0003 });
    expect((await chat(k, PAID, { max_tokens: 16 })).status).toBe(200);
    expect((await chat(k, PAID, { max_tokens: 16 })).status).toBe(200);
    const check = await keyCheck(k);
    expect(check.usage).toBeGreaterThan(0.0002);
    expect(check.limit_remaining).toBeCloseTo(0.0003 - check.usage, 10);
    const blocked = await chat(k, PAID, { max_tokens: 16 });
    expect(blocked.status).toBe(402);
    const error = await errorOf(blocked);
    expect(error.metadata?.limit_source).toBe('openrouter_key_limit');
    expect(error.message).toMatch(/settings\/keys/);

    await bed.admin('PATCH', `/router/keys/${keyId}`, { limit: 0.0002 });
    const exhausted = await chat(k, PAID, { max_tokens: 16 });
    expect(exhausted.status).toBe(402);
    expect((await errorOf(exhausted)).message).toMatch(/Key limit exceeded/);
    expect((await keyCheck(k)).limit_remaining).toBe(0);

    await bed.admin('PATCH', `/router/keys/${keyId}`, { limit: 1 });
    expect((await chat(k, PAID, { max_tokens: 16 })).status).toBe(200);
  });

  it('does not block free models at the key limit', async () => {
    const id = await account({ amount: 20 });
    const { key: k } = await key(id, { limit: 0 });
    expect((await chat(k, PAID, { max_tokens: 16 })).status).toBe(402);
    expect((await chat(k, FREE)).status).toBe(200);
  });
});

describe('state: key active -> key deleted', () => {
  it('answers 401 for every call with a deleted key', async () => {
    const id = await account({ amount: 20 });
    const { id: keyId, key: k } = await key(id);
    expect((await bed.router('/key', k)).status).toBe(200);
    await bed.admin('DELETE', `/router/keys/${keyId}`);
    for (const response of [await bed.router('/key', k), await chat(k, FREE), await chat(k, PAID)]) {
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toEqual({ code: 401, message: 'User not found.' });
    }
  });

  it('answers 401 once a key is past its expiry, and refuses to change an expiry', async () => {
    const id = await account({ amount: 20 });
    const { id: keyId, key: k } = await key(id, { expiresIn: '2d' });
    expect((await keyCheck(k)).expires_at).toMatch(/T/);
    await expect(bed.admin('PATCH', `/router/keys/${keyId}`, { expiresIn: '30d' })).rejects.toThrow(
      /only when the key is created/,
    );
    await bed.admin('POST', '/clock', { advance: '2d1s' });
    expect((await bed.router('/key', k)).status).toBe(401);
  });

  it('answers 401 without an Authorization header or with an unknown key', async () => {
    const missing = await bed.router('/key', undefined);
    expect(missing.status).toBe(401);
    expect(await errorOf(missing)).toEqual({ code: 401, message: 'Missing Authentication header' });
    expect((await bed.router('/key', 'not-a-key')).status).toBe(401);
  });
});

describe('errors: 402 insufficient credits', () => {
  it('refuses paid models when the balance has run out, but serves free ones', async () => {
    const id = await account({ amount: 1 });
    const { key: k } = await key(id);
    await bed.admin('POST', `/router/accounts/${id}/spend`, { amount: 1 });
    const response = await chat(k, PAID, { max_tokens: 16 });
    expect(response.status).toBe(402);
    const error = await errorOf(response);
    expect(error.code).toBe(402);
    expect(error.message).toMatch(/Insufficient credits/);
    expect(error.metadata?.limit_source).toBe('openrouter_credits');
    expect((await chat(k, FREE)).status).toBe(200);
  });

  it('refuses a request whose max_tokens ceiling costs more than the balance', async () => {
    const id = await account({ amount: 1 });
    const { key: k } = await key(id);
    const response = await chat(k, 'anthropic/claude-sonnet-4.5', { max_tokens: 100_000 });
    expect(response.status).toBe(402);
    expect((await errorOf(response)).message).toMatch(/requires more credits, or fewer max_tokens/);
  });
});

describe('errors: 402 in_flight_budget_exhausted', () => {
  it('refuses a paid request that in-flight requests would push past the balance, with Retry-After, and accepts it once they settle', async () => {
    const id = await account({ amount: 1 });
    const { key: k } = await key(id);
    await bed.admin('POST', `/router/accounts/${id}/spend`, { amount: 0.95 });
    await bed.admin('POST', '/config', { tokenDelayMs: 15, answerTokens: 20, inFlightRetryAfterSeconds: 3 });
    const first = chat(k, PAID, { max_tokens: 3000, stream: true });
    const firstResponse = await first;
    expect(firstResponse.status).toBe(200);
    const second = await chat(k, PAID, { max_tokens: 3000 });
    expect(second.status).toBe(402);
    expect(second.headers.get('retry-after')).toBe('3');
    const error = await errorOf(second);
    expect(error.metadata).toMatchObject({
      reason: 'in_flight_budget_exhausted',
      limit_source: 'openrouter_in_flight_budget',
    });
    await firstResponse.text();
    expect((await chat(k, PAID, { max_tokens: 3000 })).status).toBe(200);
  });
});

describe('limits: free models', () => {
  it('allows 20 free requests a minute per account, across keys, then 429 free-models-per-min until the window passes', async () => {
    const id = await account();
    const a = await key(id);
    const b = await key(id);
    for (let i = 0; i < 20; i++) expect((await chat(i % 2 ? a.key : b.key, FREE)).status).toBe(200);
    const limited = await chat(a.key, 'google/gemma-3-27b-it:free');
    expect(limited.status).toBe(429);
    const error = await errorOf(limited);
    expect(error.message).toMatch(/free-models-per-min/);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('20');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now());
    expect(reset).toBeLessThanOrEqual(bed.emulator.clock.now() + 60_000);
    expect(error.metadata?.headers).toMatchObject({ 'X-RateLimit-Limit': '20' });
    await bed.admin('POST', '/clock', { advance: '61s' });
    expect((await chat(b.key, FREE)).status).toBe(200);
  });

  it('allows 50 free requests a UTC day below 9 credits, then 429 free-models-per-day with the reset at UTC midnight', async () => {
    await bed.emulator.clock.set(Date.parse('2026-11-21T10:00:00Z'));
    const id = await account();
    const { key: k } = await key(id);
    for (let i = 0; i < 50; i++) {
      if (i > 0 && i % 20 === 0) await bed.admin('POST', '/clock', { advance: '61s' });
      expect((await chat(k, FREE)).status).toBe(200);
    }
    expect((await keyCheck(k)).free_model_daily_requests).toEqual({ used: 50, limit: 50, remaining: 0 });
    await bed.admin('POST', '/clock', { advance: '61s' });
    const limited = await chat(k, FREE);
    expect(limited.status).toBe(429);
    const error = await errorOf(limited);
    expect(error.message).toMatch(/free-models-per-day\. Add 10 credits/);
    expect(error.metadata?.limit_source).toBe('openrouter_free_tier_daily');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-22T00:00:00Z')));
    expect(limited.headers.get('retry-after')).toBeNull();
    await bed.emulator.clock.set(Date.parse('2026-11-22T00:00:01Z'));
    expect((await keyCheck(k)).free_model_daily_requests).toEqual({ used: 0, limit: 50, remaining: 50 });
    expect((await chat(k, FREE)).status).toBe(200);
  });

  it('allows 1,000 free requests a day once 10 credits are bought, and names the high-balance limit', async () => {
    const id = await account({ amount: 10 });
    const { key: k } = await key(id);
    await bed.admin('POST', `/router/accounts/${id}/free-requests`, { used: 999 });
    expect((await chat(k, FREE)).status).toBe(200);
    const limited = await chat(k, FREE);
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).message).toMatch(/free-models-per-day-high-balance/);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  it('counts the free router model against the free limits and names the model it picked', async () => {
    const id = await account();
    const { key: k } = await key(id);
    const response = await chat(k, 'openrouter/free');
    const body = (await response.json()) as { model: string; usage: { cost: number } };
    expect(body.model).toMatch(/:free$/);
    expect(body.usage.cost).toBe(0);
    expect((await keyCheck(k)).free_model_daily_requests.used).toBe(1);
  });

  it('finds no free endpoint when the request opts out of data collection (404)', async () => {
    const id = await account();
    const { key: k } = await key(id);
    const response = await chat(k, 'openrouter/free', { provider: { data_collection: 'deny' } });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { availability: { code: string } } };
    expect(body.error.availability.code).toBe('privacy_restricted');
    expect(
      (await chat(k, 'openai/gpt-4o-mini', { provider: { data_collection: 'deny' }, max_tokens: 16 })).status,
    ).toBe(402);
  });
});

describe('limits: credit purchases', () => {
  it('charges card purchases 5.5% with a minimum fee of $0.80, and crypto 5%', async () => {
    const id = await account();
    const small = await bed.admin<{ purchase: { fee: number; charged: number } }>(
      'POST',
      `/router/accounts/${id}/purchase`,
      { amount: 10, method: 'card' },
    );
    expect(small.purchase).toMatchObject({ fee: 0.8, charged: 10.8 });
    const large = await bed.admin<{ purchase: { fee: number } }>('POST', `/router/accounts/${id}/purchase`, {
      amount: 100,
      method: 'card',
    });
    expect(large.purchase.fee).toBeCloseTo(5.5, 10);
    const crypto = await bed.admin<{ purchase: { fee: number }; balance: number }>(
      'POST',
      `/router/accounts/${id}/purchase`,
      { amount: 100, method: 'crypto' },
    );
    expect(crypto.purchase.fee).toBeCloseTo(5, 10);
    expect(crypto.balance).toBe(210);
  });

  it('lets unused credits expire one year after purchase', async () => {
    const id = await account({ amount: 10 });
    const { key: k } = await key(id);
    await bed.admin('POST', '/clock', { advance: '364d' });
    expect(bed.emulator.router.balance(bed.emulator.router.account(id))).toBe(10);
    await bed.admin('POST', '/clock', { advance: '1d1s' });
    expect(bed.emulator.router.balance(bed.emulator.router.account(id))).toBe(0);
    expect((await chat(k, PAID, { max_tokens: 16 })).status).toBe(402);
  });
});

describe('endpoints', () => {
  it('GET /key reports the key check fields of the real service', async () => {
    const id = await account({ amount: 20 });
    const { key: k } = await key(id, { limit: 5, expiresIn: '30d' });
    await chat(k, PAID, { max_tokens: 16 });
    await chat(k, FREE);
    const data = await keyCheck(k);
    expect(data.label).toMatch(/^sk-or-v1-[0-9a-f]{2}\.\.\.[0-9a-f]{3}$/);
    expect(data.label).not.toContain(k.slice(12, -3));
    expect(data).toMatchObject({
      limit: 5,
      is_free_tier: false,
      is_management_key: false,
      limit_reset: null,
      include_byok_in_limit: false,
    });
    expect(data.usage).toBeGreaterThan(0);
    expect(data.usage_daily).toBe(data.usage);
    expect(data.limit_remaining).toBeCloseTo(5 - data.usage, 10);
    expect(data.free_model_daily_requests).toEqual({ used: 1, limit: 1000, remaining: 999 });
    expect(data.rate_limit.requests).toBe(-1);
    const legacy = await bed.router('/auth/key', k);
    expect(legacy.status).toBe(200);
  });

  it('GET /key marks a key without limit or expiry with nulls, and a never-funded account as free tier', async () => {
    const id = await account();
    const { key: k } = await key(id);
    expect(await keyCheck(k)).toMatchObject({
      limit: null,
      limit_remaining: null,
      expires_at: null,
      is_free_tier: true,
    });
  });

  it('GET /credits answers management keys only (403 otherwise)', async () => {
    const id = await account({ amount: 20 });
    const { key: k } = await key(id);
    const { key: management } = await key(id, { management: true });
    const refused = await bed.router('/credits', k);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({ code: 403, message: 'Only management keys can perform this operation' });
    const ok = await bed.router('/credits', management);
    expect(await ok.json()).toEqual({ data: { total_credits: 20, total_usage: 0 } });
  });

  it('GET /models lists per-token price strings, :free models, the free router at zero and dynamic routers at -1', async () => {
    const response = await bed.router('/models', undefined);
    const body = (await response.json()) as {
      data: { id: string; pricing: { prompt: string; completion: string } }[];
      total_count: number;
    };
    expect(body.total_count).toBe(body.data.length);
    const byId = new Map(body.data.map((m) => [m.id, m]));
    expect(byId.get('openrouter/free')!.pricing).toMatchObject({ prompt: '0', completion: '0' });
    expect(byId.get('openrouter/auto')!.pricing).toMatchObject({ prompt: '-1', completion: '-1' });
    expect(body.data.filter((m) => m.id.endsWith(':free')).length).toBeGreaterThanOrEqual(2);
    expect(typeof byId.get(PAID)!.pricing.prompt).toBe('string');
  });

  it('POST /chat/completions answers deterministically with usage and cost, and charges when finished', async () => {
    const id = await account({ amount: 20 });
    const { key: k } = await key(id);
    const response = await chat(k, PAID, { max_tokens: 64 });
    expect(response.headers.get('x-generation-id')).toMatch(/^gen-/);
    const body = (await response.json()) as {
      model: string;
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost: number };
    };
    expect(body.model).toBe(PAID);
    expect(body.choices[0]!.message.content).toBe(answerText('hello', { tokens: 12 }));
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.usage.completion_tokens).toBe(12);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + 12);
    expect(body.usage.cost).toBeCloseTo(body.usage.prompt_tokens * 0.0000025 + 12 * 0.00001, 12);
    expect(bed.emulator.router.balance(bed.emulator.router.account(id))).toBeCloseTo(20 - body.usage.cost, 10);
  });

  it('streams SSE with a processing comment, deltas, usage with cost in the last chunk and [DONE]', async () => {
    const id = await account({ amount: 20 });
    const { key: k } = await key(id);
    const response = await chat(k, PAID, { max_tokens: 64, stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text.startsWith(': OPENROUTER PROCESSING\n\n')).toBe(true);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = sseData(text) as {
      choices: { delta?: { content?: string }; finish_reason: string | null }[];
      usage?: { cost: number };
    }[];
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta?.content ?? '')).join('');
    expect(deltas).toBe(answerText('hello', { tokens: 12 }));
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.cost).toBeGreaterThan(0);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('rejects an unknown model with 400', async () => {
    const id = await account({ amount: 20 });
    const { key: k } = await key(id);
    const response = await chat(k, 'nobody/nothing');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe('nobody/nothing is not a valid model ID');
  });
});
