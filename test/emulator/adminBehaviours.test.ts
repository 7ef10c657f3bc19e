// Behaviours the emulator produces from account settings rather than faults,
// seen from a raw HTTP client.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed, userMessage } from './adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
});

describe("the routing account's privacy settings", () => {
  it('rule out every free endpoint with the live 404 text, whether or not the request asks', async () => {
    const { routerFreeAccountId } = bed.emulator.sandbox!;
    const key = bed.emulator.sandbox!.keys.routerFree;
    const ask = (provider?: unknown) =>
      bed.router('/chat/completions', key, {
        body: { model: 'openrouter/free', messages: userMessage('hi'), ...(provider ? { provider } : {}) },
      });
    expect((await ask()).status).toBe(200);
    expect(await bed.admin('PATCH', `/router/accounts/${routerFreeAccountId}`, { denyDataCollection: true })).toEqual({
      id: routerFreeAccountId,
      denyDataCollection: true,
    });
    const account = await ask();
    expect(account.status).toBe(404);
    expect(await account.json()).toMatchObject({
      error: {
        code: 404,
        message:
          'No endpoints found matching your data policy (Free model publication). Configure: https://openrouter.ai/settings/privacy',
        availability: { code: 'privacy_restricted' },
      },
    });
    const request = await ask({ data_collection: 'deny' });
    expect(request.status).toBe(404);
    expect(((await request.json()) as { error: { message: string } }).error.message).toMatch(
      /^No endpoints available matching your data policy\. Your data-policy preferences/,
    );
    await expect(
      bed.admin('PATCH', `/router/accounts/${routerFreeAccountId}`, { denyDataCollection: 'yes' }),
    ).rejects.toThrow(/true or false/);
  });
});

describe("the direct service's token budget", () => {
  it('answers a request larger than the tier\'s tokens per minute with "Request too large"', async () => {
    const { id } = await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'free tier' });
    await bed.admin('POST', `/direct/orgs/${id}/free-credits`, { amount: 5 });
    const key = (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: id })).key;
    const response = await bed.direct('/responses', key, {
      body: { model: 'gpt-4o-mini', input: 'x'.repeat(200_000) },
    });
    expect(response.status).toBe(429);
    const body = (await response.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('rate_limit_exceeded');
    expect(body.error.message).toMatch(
      /^Request too large for gpt-4o-mini in organization \S+ on tokens per min \(TPM\): Limit 40000, Requested 50001\./,
    );
    expect(response.headers.get('retry-after')).toBeNull();
  });
});
