// Create a Key for This Workspace…, over the fake vscode API and real HTTP to the emulator: limited from the start
// (the defaults offered: the workspace's name, $10 monthly, 90 days; no limit is not an answer), stored straight
// into SecretStorage and verified, never shown.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { RouterKeysApi } from '../../../src/core/keys/routerKeysApi.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { createWorkspaceKey } from '../../../src/host/keys/workspaceKey.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

let parts: { keys: KeyStore; monitor: AccountMonitor; configuration: Configuration; log: Log };
beforeEach(async () => {
  parts?.monitor.dispose();
  parts?.configuration.dispose();
  await bed.admin('POST', '/reset', {});
  for (const list of [fake.state.messages, fake.state.inputs, fake.state.inputBoxes, fake.state.picks]) list.length = 0;
  Object.assign(fake.state.settings, { 'keyward.router.baseUrl': bed.emulator.routerBaseUrl });
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  parts = {
    keys,
    monitor: new AccountMonitor({ keys, config: () => configuration.value, tier: () => null }),
    configuration,
    log,
  };
});

describe('Create a Key for This Workspace', () => {
  it('creates a limited, expiring key with the defaults offered, stores and verifies it, and never shows it', async () => {
    const accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
    await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
    const manager = (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, management: true })).key;
    await parts.keys.setAccountKey('router', manager);
    fake.state.inputs.push('my-app', '10', '90');
    fake.state.picks.push('monthly');
    expect(await createWorkspaceKey(parts)).toBe(true);
    const [name, limit, days] = fake.state.inputBoxes;
    expect([limit!.value, days!.value]).toEqual(['10', '90']);
    expect(name!.value).toBeTruthy();
    // No limit, or none at all, is not accepted.
    for (const bad of ['0', '', 'none', '-5']) expect(limit!.validateInput!(bad)).toBeTruthy();
    const stored = (await parts.keys.getKey('router'))!;
    const api = new RouterKeysApi({
      baseUrl: bed.emulator.routerBaseUrl,
      managementKey: manager,
      connectTimeoutMs: 5000,
      idleTimeoutMs: 5000,
    });
    const [record] = await api.list();
    await api.close();
    expect(record).toMatchObject({ name: 'my-app', limit: 10, limitReset: 'monthly', disabled: false });
    expect(record!.expiresAtMs! - Date.now()).toBeGreaterThan(89 * 86_400_000);
    expect(parts.keys.metadata('router')).toMatchObject({
      label: 'my-app',
      expiresAt: expect.stringMatching(/^20\d\d-/),
    });
    const texts = fake.state.messages.map((m) => m.text).join('\n');
    expect(texts).toMatch(
      /^my-app created with a \$10\.00 monthly limit, expiring in 90 days, and stored in Keyward \(sk-or-v1-\w{3}\.{3}\w{4}\)\.$/m,
    );
    expect(texts).not.toContain(stored);
    expect(texts).not.toContain(manager);
  });

  it('asks for a management key first when none is stored, and creates nothing', async () => {
    expect(await createWorkspaceKey(parts)).toBe(false);
    expect(fake.state.messages.at(-1)!.text).toMatch(/needs the routing service management key/);
    expect(fake.state.inputBoxes).toEqual([]);
  });
});
