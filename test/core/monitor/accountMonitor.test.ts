// What the account monitor (and so the status bar) learns from key checks and
// prompts, over HTTP against the emulator: restricted keys, a negative balance,
// the free count and the advice for a used-up day.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { directSnapshot, routerSnapshot } from './monitorState.ts';
import { directStatusView, routerStatusView } from '../../../src/core/account/accountStatus.ts';
import { DEFAULT_CONFIG, type KeywardConfig } from '../../../src/core/config.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { KeyStore, type SecretPort, type StatePort } from '../../../src/core/keys/keyStore.ts';
import { runPrompt } from '../../../src/core/chat/promptRunner.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

async function monitorWith(keys: { router?: string; direct?: string }) {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const secretPort: SecretPort = {
    get: async (n) => secrets.get(n),
    store: async (n, v) => {
      secrets.set(n, v);
    },
    delete: async (n) => {
      secrets.delete(n);
    },
  };
  const statePort: StatePort = {
    get: <T>(n: string) => state.get(n) as T | undefined,
    update: async (n, v) => {
      state.set(n, v);
    },
  };
  const store = new KeyStore(secretPort, statePort);
  if (keys.router) await store.setKey('router', keys.router);
  if (keys.direct) await store.setKey('direct', keys.direct);
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    router: { ...DEFAULT_CONFIG.router, baseUrl: bed.emulator.routerBaseUrl },
    direct: { ...DEFAULT_CONFIG.direct, baseUrl: bed.emulator.directBaseUrl },
    network: { ...DEFAULT_CONFIG.network, connectTimeoutMs: 2_000, idleTimeoutMs: 5_000 },
  };
  const monitor = new AccountMonitor({
    keys: store,
    config: () => config,
    tier: () => 'Build',
    now: () => bed.emulator.clock.now(),
  });
  const now = () => bed.emulator.clock.now();
  return {
    monitor,
    router: () => routerStatusView(routerSnapshot(monitor), store.metadata('router'), now()),
    direct: () => directStatusView(directSnapshot(monitor), store.metadata('direct'), now()),
  };
}

const prompt = (service: 'router' | 'direct', model: string, text = 'hello') => ({
  service,
  model,
  turns: [{ role: 'user' as const, content: text }],
});
async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

describe('a restricted direct key', () => {
  it.each([401, 403] as const)(
    'missing api.responses.write (%s): Verify cannot see it, the first prompt records it, the status bar keeps it',
    async (status) => {
      await bed.admin('POST', '/config', { missingScopesStatus: status });
      const orgId = bed.emulator.sandbox!.directOrgId;
      const { id, key } = await bed.admin<{ id: string; key: string }>('POST', '/direct/keys', {
        orgId,
        permissions: 'Restricted',
        scopes: ['api.model.read'],
      });
      const m = await monitorWith({ direct: key });

      // Listing models works: the check can only say so, and that it did not check responses.
      expect(await m.monitor.verify('direct')).toMatchObject({
        ok: true,
        restricted: false,
        canListModels: true,
        missingScopes: [],
      });
      expect(m.direct().text).toBe('$(key) direct: ok');
      expect(m.direct().tooltip).toContain('Creating responses: not checked yet');

      const error = await failure(runPrompt(m.monitor, prompt('direct', 'gpt-4o-mini')));
      expect(error).toMatchObject({ kind: 'permission', status });
      expect(directSnapshot(m.monitor).missingScopes).toEqual(['api.responses.write']);
      expect(m.direct()).toMatchObject({
        text: '$(key) direct: restricted · needs api.responses.write',
        severity: 'warning',
      });

      // A later key check lists models again; that does not prove the key may prompt.
      expect(await m.monitor.verify('direct')).toMatchObject({
        ok: true,
        restricted: true,
        canListModels: true,
        missingScopes: ['api.responses.write'],
      });
      expect(m.direct().text).toBe('$(key) direct: restricted · needs api.responses.write');

      // Granted on the keys page: the next prompt works and the restriction goes.
      await bed.admin('PATCH', `/direct/keys/${id}`, { scopes: ['api.model.read', 'api.responses.write'] });
      await runPrompt(m.monitor, prompt('direct', 'gpt-4o-mini'));
      expect(m.direct().text).toBe('$(key) direct: ok');
      expect(m.direct().tooltip).toMatch(/Creating responses: works \(last prompt \d+s ago\)/);
    },
  );

  it('missing api.model.read only: restricted, and it may still prompt', async () => {
    const { key } = await bed.admin<{ key: string }>('POST', '/direct/keys', {
      orgId: bed.emulator.sandbox!.directOrgId,
      permissions: 'Restricted',
      scopes: ['api.responses.write'],
    });
    const m = await monitorWith({ direct: key });
    expect(await m.monitor.verify('direct')).toMatchObject({
      ok: true,
      restricted: true,
      canListModels: false,
      missingScopes: ['api.model.read'],
    });
    expect(m.direct()).toMatchObject({ text: '$(key) direct: restricted', severity: 'normal' });
    await runPrompt(m.monitor, prompt('direct', 'gpt-4o-mini'));
    expect(m.direct().text).toBe('$(key) direct: restricted');
  });
});

describe('a negative router balance', () => {
  it('shows "balance below zero", not the key\'s remaining limit, and keeps it through key checks', async () => {
    const { routerFundedAccountId } = bed.emulator.sandbox!;
    const m = await monitorWith({ router: bed.emulator.sandbox!.keys.routerFunded });
    await m.monitor.verify('router');
    expect(m.router().text).toBe('$(key) $10.00 · free 0/1000');
    // $20 bought, $25 spent elsewhere: the balance is -$5, the key's own limit still has $10 left.
    await bed.admin('POST', `/router/accounts/${routerFundedAccountId}/spend`, { amount: 25 });
    const error = await failure(runPrompt(m.monitor, prompt('router', 'openai/gpt-4o-mini')));
    expect(error).toMatchObject({ kind: 'insufficient_credits', status: 402 });
    expect(m.router()).toMatchObject({ text: '$(warning) balance below zero · calls fail', severity: 'warning' });
    await m.monitor.verify('router');
    expect(m.router().text).toBe('$(warning) balance below zero · calls fail');
  });

  it('with a key that may read credits, shows the negative figure', async () => {
    const { routerFundedAccountId } = bed.emulator.sandbox!;
    const { key } = await bed.admin<{ key: string }>('POST', '/router/keys', {
      accountId: routerFundedAccountId,
      name: 'mgmt',
      management: true,
      limit: 10,
    });
    await bed.admin('POST', `/router/accounts/${routerFundedAccountId}/spend`, { amount: 25 });
    const m = await monitorWith({ router: key });
    await failure(runPrompt(m.monitor, prompt('router', 'openai/gpt-4o-mini')));
    await m.monitor.verify('router');
    expect(m.router().text).toBe('$(warning) \u2212$5.00 · calls fail');
    expect(m.router().tooltip).toContain('add at least $5.00 of credits');
  });
});

describe('free-model limits', () => {
  it('the status bar never shows more used than the day allows', async () => {
    const { routerFundedAccountId, keys } = bed.emulator.sandbox!;
    await bed.admin('POST', `/router/accounts/${routerFundedAccountId}/free-requests`, { used: 1001 });
    const m = await monitorWith({ router: keys.routerFunded });
    await m.monitor.verify('router');
    expect(m.router().text).toBe('$(key) $10.00 · free 1000/1000');
  });

  it('a used-up day on the 1,000 tier is not told to buy 10 credits for 1,000; the 50 tier is', async () => {
    const { routerFundedAccountId, routerFreeAccountId, keys } = bed.emulator.sandbox!;
    await bed.admin('POST', `/router/accounts/${routerFundedAccountId}/free-requests`, { used: 1000 });
    const funded = await monitorWith({ router: keys.routerFunded });
    const high = await failure(runPrompt(funded.monitor, prompt('router', 'openrouter/free')));
    expect(high.kind).toBe('free_limit_day');
    expect(high.action).not.toMatch(/buy 10 credits/i);
    expect(high.action).toMatch(/highest free allowance/);
    // The 429 said the day is over: the count shown is the limit.
    expect(funded.monitor.freeGuard.status()).toMatchObject({ used: 1000, limit: 1000 });

    await bed.admin('POST', `/router/accounts/${routerFreeAccountId}/free-requests`, { used: 50 });
    const unfunded = await monitorWith({ router: keys.routerFree });
    const low = await failure(runPrompt(unfunded.monitor, prompt('router', 'openrouter/free')));
    expect(low.action).toMatch(/buy 10 credits to raise the allowance to 1,000 a day/);
  });
});

// Issue 31: "(18s ago)" and "the last check failed" said nothing of why; the item now says its figures are stale
// because the check failed, and the tooltip names the failure's kind and what to do.
describe('a key check that fails after one that worked', () => {
  it.each(['router', 'direct'] as const)(
    'the %s item says the check failed, its kind and its advice',
    async (service) => {
      const { keys } = bed.emulator.sandbox!;
      const m = await monitorWith(service === 'router' ? { router: keys.routerFunded } : { direct: keys.direct });
      expect((await m.monitor.verify(service)).ok).toBe(true);
      await bed.admin('POST', '/faults', { kind: 'http500', service, count: 100 });
      bed.emulator.clock.advance(18_000);
      const result = await m.monitor.verify(service);
      expect(result.ok).toBe(false);
      const error = (result as { error: ServiceError }).error;
      expect(error.kind).toBe('server');
      const view = m[service]();
      expect(view.text).toMatch(/\(18s ago, check failed\)$/);
      expect(view.tooltip).toContain('**The last check failed: Service error.**');
      expect(view.tooltip).toContain(error.message);
      expect(view.tooltip).toContain(`To do: ${error.action}`);
      expect(view.accessibility).toContain('the last check failed: Service error');

      // A check that works again clears it.
      await bed.admin('DELETE', '/faults');
      expect((await m.monitor.verify(service)).ok).toBe(true);
      expect(m[service]().text).not.toMatch(/check failed/);
      expect(m[service]().tooltip).not.toContain('The last check failed');
    },
  );
});
