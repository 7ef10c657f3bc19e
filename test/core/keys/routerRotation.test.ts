// Rotating the routing key with a management key, against the emulator: the new key takes the old one's name,
// limit and reset, works before the old one is disabled, and a failure at any step leaves a working key stored.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RouterKeysApi } from '../../../src/core/keys/routerKeysApi.ts';
import { type RotationPorts, type RotationStep, rotateRouterKey } from '../../../src/core/keys/routerRotation.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FAST } from '../clientSupport.ts';

let bed: TestBed;
let accountId: string;
let manager: string;
let oldKey: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', {});
  accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
  await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
  const make = async (extra: Record<string, unknown>) =>
    (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, ...extra })).key;
  manager = await make({ name: 'manager', management: true });
  oldKey = await make({ name: 'laptop', limit: 12, limitReset: 'weekly' });
});

const answers = async (key: string) =>
  (
    await bed.router('/chat/completions', key, {
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    })
  ).status === 200;

/** Ports over the real API, with `broken` made to fail; `stored` is what SecretStorage would hold. */
function ports(broken?: RotationStep, deleteOld = true) {
  const real = new RouterKeysApi({ baseUrl: bed.emulator.routerBaseUrl, managementKey: manager, ...FAST });
  const boom = (step: RotationStep) => {
    if (broken === step) throw new ServiceError({ kind: 'server', service: 'router', message: `${step} broke` });
  };
  const state = { stored: oldKey, env: `OPENROUTER_API_KEY=${oldKey}\n` };
  const p: RotationPorts = {
    api: {
      list: async () => (boom('find'), real.list()),
      create: async (key) => (boom('create'), real.create(key)),
      change: async (hash, change) => (boom('disable'), real.change(hash, change)),
      delete: async (hash) => (boom('delete'), real.delete(hash)),
    },
    oldKey,
    store: async (key) => {
      boom('store');
      state.stored = key;
    },
    restore: async () => {
      state.stored = oldKey;
    },
    verify: async () => {
      if (broken === 'verify') return new ServiceError({ kind: 'auth', service: 'router', message: 'verify broke' });
      return (await answers(state.stored)) ? null : new ServiceError({ kind: 'auth', service: 'router', message: '?' });
    },
    updateEnv: async (from, to) => {
      boom('env');
      const lines = state.env.split(from).length - 1;
      state.env = state.env.replaceAll(from, to);
      return lines;
    },
    confirmDelete: async () => deleteOld,
    now: () => Date.parse('2026-11-20T12:00:00Z'),
  };
  return { p, state, real };
}

describe('rotating the routing key with a management key', () => {
  it('creates the successor with the old settings, stores it, updates .env, disables then deletes the old', async () => {
    const { p, state, real } = ports();
    const outcome = await rotateRouterKey(p);
    expect(outcome.failedAt).toBeUndefined();
    expect(outcome).toMatchObject({ envLines: 1, deleted: true });
    expect(outcome.created).toMatchObject({ name: 'laptop', limit: 12, limitReset: 'weekly' });
    expect(outcome.created!.expiresAtMs).toBe(Date.parse('2027-02-18T12:00:00Z'));
    expect(state.stored).not.toBe(oldKey);
    expect(state.env).toBe(`OPENROUTER_API_KEY=${state.stored}\n`);
    expect(await answers(state.stored)).toBe(true);
    expect(await answers(oldKey)).toBe(false);
    expect((await real.list()).map((k) => k.name)).toEqual(['laptop']);
  });

  it('keeps the old key disabled, not deleted, when the person declines the delete', async () => {
    const { p, real } = ports(undefined, false);
    const outcome = await rotateRouterKey(p);
    expect([outcome.failedAt, outcome.deleted]).toEqual([undefined, false]);
    expect((await real.list()).map((k) => [k.name, k.disabled])).toEqual([
      ['laptop', true],
      ['laptop', false],
    ]);
  });

  it.each<RotationStep>(['find', 'create', 'store', 'verify'])(
    'a failure at %s leaves the old key stored and working, and no second key behind',
    async (step) => {
      const { p, state, real } = ports(step);
      const outcome = await rotateRouterKey(p);
      expect(outcome.failedAt).toBe(step);
      expect(outcome.reason).toMatch(/broke/);
      expect(state.stored).toBe(oldKey);
      expect(await answers(oldKey)).toBe(true);
      expect((await real.list()).filter((k) => !k.disabled).map((k) => k.name)).toEqual(['laptop']);
    },
  );

  it.each<RotationStep>(['env', 'disable', 'delete'])(
    'a failure at %s leaves the new key stored and working, and says the step',
    async (step) => {
      const { p, state } = ports(step);
      const outcome = await rotateRouterKey(p);
      expect(outcome.failedAt).toBe(step);
      expect(state.stored).not.toBe(oldKey);
      expect(await answers(state.stored)).toBe(true);
      // The old key is never disabled before the new one works; after a failed disable it still works.
      if (step !== 'delete') expect(await answers(oldKey)).toBe(true);
    },
  );

  it('refuses to guess when the stored key is not one this management key manages', async () => {
    const stranger = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'other' })).id;
    const foreign = (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId: stranger })).key;
    const { p } = ports();
    const outcome = await rotateRouterKey({ ...p, oldKey: foreign });
    expect(outcome).toMatchObject({ failedAt: 'find', reason: expect.stringMatching(/not among the keys/) });
  });
});
