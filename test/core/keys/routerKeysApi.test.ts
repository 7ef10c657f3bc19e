// The routing service's key management client over HTTP against the emulator's /keys API (the spec's paths and
// shapes): only a management key is let in, every page is read, a new key's plaintext comes once and wrapped, and
// disabling a key is refused at the model as the service refuses it.
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RouterKeysApi } from '../../../src/core/keys/routerKeysApi.ts';
import { keysMatching } from '../../../src/core/keys/redactedMatch.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { PAGE_SIZE } from '../../emulator/routerKeysApi.ts';
import { FAST } from '../clientSupport.ts';

let bed: TestBed;
let accountId: string;
let manager: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', {});
  accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
  await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
  manager = await newKey({ name: 'manager', management: true });
});

const newKey = async (extra: Record<string, unknown> = {}) =>
  (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, ...extra })).key;
const client = (key = manager) =>
  new RouterKeysApi({ baseUrl: bed.emulator.routerBaseUrl, managementKey: key, ...FAST });
const ask = (key: string) =>
  bed.router('/chat/completions', key, {
    body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
  });

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('RouterKeysApi', () => {
  it('creates a limited key whose plaintext comes once, wrapped, and which then answers prompts', async () => {
    const api = client();
    const expires = Date.parse('2027-03-01T00:00:00Z');
    const made = await api.create({ name: 'workspace', limit: 10, limitReset: 'monthly', expiresAtMs: expires });
    expect(made.record).toMatchObject({
      name: 'workspace',
      limit: 10,
      limitRemaining: 10,
      limitReset: 'monthly',
      disabled: false,
      expiresAtMs: expires,
    });
    expect(made.record.hash).toMatch(/^[0-9a-f]{64}$/);
    const key = made.key.reveal();
    expect(inspect(made) + JSON.stringify(made)).not.toContain(key);
    expect(keysMatching(key, [{ redactedValue: made.record.label }])).toHaveLength(1);
    expect((await ask(key)).status).toBe(200);
  });

  it('lists every key over all pages, disabled ones included, with usage as spent', async () => {
    const api = client();
    for (let i = 0; i < PAGE_SIZE + 3; i++) await newKey({ name: `k${i}` });
    const spender = await newKey({ name: 'spender' });
    await bed.admin('POST', `/router/accounts/${accountId}/spend`, { amount: 1.25, key: spender });
    const listed = await api.list();
    expect(listed).toHaveLength(PAGE_SIZE + 4);
    expect(listed.find((k) => k.name === 'spender')).toMatchObject({
      usage: 1.25,
      usageDaily: 1.25,
      usageMonthly: 1.25,
    });
    expect(JSON.stringify(listed)).not.toContain(spender);
  });

  it('disables a key (refused at once with 401, as a deleted one), enables it again, changes its limit, deletes it', async () => {
    const api = client();
    const key = await newKey({ name: 'laptop' });
    const [record] = keysMatching(
      key,
      (await api.list()).map((r) => ({ ...r, redactedValue: r.label })),
    );
    expect((await api.change(record!.hash, { disabled: true })).disabled).toBe(true);
    const refused = await ask(key);
    expect([refused.status, (await refused.json()).error.message]).toEqual([401, 'User not found.']);
    expect((await api.change(record!.hash, { disabled: false, limit: 2.5, limitReset: 'daily' })).limit).toBe(2.5);
    expect((await ask(key)).status).toBe(200);
    await api.delete(record!.hash);
    expect((await ask(key)).status).toBe(401);
    expect((await failure(api.get(record!.hash))).status).toBe(404);
  });

  it('is refused, with what to do, for a key that is no management key; a management key calls no model', async () => {
    const ordinary = await newKey({ name: 'plain' });
    const error = await failure(client(ordinary).list());
    expect([error.kind, error.status]).toEqual(['permission', 403]);
    expect(error.action).toMatch(/not a management key/);
    expect(error.message + error.action).not.toContain(ordinary);
    expect((await ask(manager)).status).toBe(401);
  });

  it('refuses an expiry outside UTC and a bad reset with the spec 400, saying which field', async () => {
    const raw = (body: unknown) => bed.router('/keys', manager, { body });
    const local = await raw({ name: 'x', expires_at: '2027-03-01T00:00:00+02:00' });
    expect(local.status).toBe(400);
    expect((await local.json()).error.message).toMatch(/expires_at/);
    expect((await raw({ name: 'x', limit_reset: 'yearly' })).status).toBe(400);
  });
});
