// Refusals that must be told apart by their body, not their status, and retry
// advice the service gives itself: both clients over HTTP against the emulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { answerText } from '../../emulator/answers.ts';
import { directClient, recordingSleep, routerClient, settle } from '../clientSupport.ts';

let bed: TestBed;
let routerKey: string;
let freeKey: string;
let directKey: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  ({ routerFunded: routerKey, routerFree: freeKey, direct: directKey } = bed.emulator.sandbox!.keys);
});

const chat = (prompt: string, model = 'openai/gpt-4o-mini') => ({
  model,
  messages: [{ role: 'user' as const, content: prompt }],
  maxTokens: 64,
});

describe('403 from the body', () => {
  it('a moderation flag is moderation, says by whom, and is not retried', async () => {
    await bed.admin('POST', '/faults', { kind: 'moderation', service: 'router', count: 5 });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(routerClient(bed, routerKey, { sleep }).chat(chat('something flagged')));
    expect(error).toMatchObject({ kind: 'moderation', status: 403 });
    expect(error!.message).toMatch(
      /^The prompt was flagged by OpenAI's moderation for violence \(model openai\/gpt-4o-mini\)/,
    );
    expect(error!.action).not.toMatch(/permission|key/i);
    expect(waits).toEqual([]);
    expect(bed.emulator.faults.pending()[0]!.remaining).toBe(4);
  });

  it('a region refusal is region, says the service is not offered there, and is not retried', async () => {
    await bed.admin('POST', '/faults', { kind: 'region', service: 'direct', count: 5 });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(
      directClient(bed, directKey, { sleep }).respond({ model: 'gpt-4o-mini', input: 'x' }),
    );
    expect(error).toMatchObject({
      kind: 'region',
      status: 403,
      code: 'unsupported_country_region_territory',
      message: 'Country, region, or territory not supported',
    });
    expect(error!.action).toMatch(/not offered in the country, region or territory.*may get the account blocked/);
    expect(waits).toEqual([]);
  });

  it('a permission 403 stays permission', async () => {
    await bed.admin('POST', '/config', { missingScopesStatus: 403 });
    const restricted = (
      await bed.admin<{ key: string }>('POST', '/direct/keys', {
        orgId: bed.emulator.sandbox!.directOrgId,
        permissions: 'Restricted',
        scopes: ['api.model.read'],
      })
    ).key;
    const { error } = await settle(directClient(bed, restricted).respond({ model: 'gpt-4o-mini', input: 'x' }));
    expect(error).toMatchObject({ kind: 'permission', status: 403, code: 'api.responses.write' });
  });
});

describe('404 "no endpoints matching your data policy"', () => {
  it("blames Keyward's setting only when the request carried it, else the account's privacy settings", async () => {
    await bed.admin('PATCH', `/router/accounts/${bed.emulator.sandbox!.routerFreeAccountId}`, {
      denyDataCollection: true,
    });
    const account = (await settle(routerClient(bed, freeKey).chat(chat('hi', 'openrouter/free')))).error;
    expect(account).toMatchObject({ kind: 'bad_request', status: 404, code: 'privacy_restricted' });
    expect(account!.action).toMatch(/did not carry Keyward's training opt-out, so the account's own privacy settings/);
    expect(account!.action).toContain('https://openrouter.ai/settings/privacy');
    expect(account!.action).not.toContain('keyward.router.denyDataCollection');

    const setting = (
      await settle(routerClient(bed, freeKey).chat({ ...chat('hi', 'openrouter/free'), denyDataCollection: true }))
    ).error;
    expect(setting).toMatchObject({ kind: 'bad_request', status: 404, code: 'privacy_restricted' });
    expect(setting!.action).toMatch(/carried Keyward's training opt-out \(keyward\.router\.denyDataCollection\)/);
  });
});

describe('retrying only what can succeed', () => {
  it('x-should-retry: false stops the retry of a 500', async () => {
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'router', shouldRetry: false, count: 5 });
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(routerClient(bed, routerKey, { sleep }).chat(chat('x')));
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(waits).toEqual([]);
  });

  it('x-should-retry: true retries what Keyward would not, within the same bounds', async () => {
    // The service's own 400 for an unknown model, twice with `x-should-retry: true`, then without.
    await bed.admin('POST', '/faults', { kind: 'should_retry', service: 'direct', shouldRetry: true, count: 2 });
    const { sleep, waits } = recordingSleep(bed);
    const first = await settle(directClient(bed, directKey, { sleep }).respond({ model: 'gpt-0', input: 'x' }));
    expect(first.error).toMatchObject({ kind: 'bad_request', code: 'model_not_found' });
    expect(waits).toHaveLength(2);
  });

  it("a request larger than the rate limit's token budget is reported at once, not retried", async () => {
    const { id } = await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'free tier' });
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 5 });
    const key = (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: id })).key;
    const { sleep, waits } = recordingSleep(bed);
    const { error } = await settle(
      directClient(bed, key, { sleep }).respond({ model: 'gpt-4o-mini', input: 'word '.repeat(33_000) }),
    );
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, code: 'rate_limit_exceeded', shouldRetry: false });
    expect(error!.message).toMatch(/^Request too large for gpt-4o-mini .*Limit 40000, Requested 4\d{4}\./);
    expect(error!.action).toMatch(/waiting will not help/);
    expect(waits).toEqual([]);
    expect((await directClient(bed, key).respond({ model: 'gpt-4o-mini', input: 'small' }).collect()).text).toBe(
      answerText('small', { tokens: 12 }),
    );
  });
});
