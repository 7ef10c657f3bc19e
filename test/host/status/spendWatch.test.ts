// The status tooltip with a management or admin key stored, over the fake vscode API and real HTTP to the emulator:
// the direct service's costs this month beside the tier's monthly limit, and nothing of the admin key anywhere.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { StatusBar } from '../../../src/host/status/statusBar.ts';
import { SpendWatch } from '../../../src/host/status/spendWatch.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
let orgId: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

let dispose: () => void = () => undefined;
beforeEach(async () => {
  dispose();
  await bed.admin('POST', '/reset', {});
  orgId = (await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'org' })).id;
  await bed.admin('POST', `/direct/orgs/${orgId}/purchase`, { amount: 20 });
  fake.state.messages.length = 0;
  fake.state.statusItems.length = 0;
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.direct.usageTier': 'Build',
    'keyward.status.refreshMinutes': 0,
  });
});

function setup() {
  const log = new Log();
  const configuration = new Configuration(log);
  const memento = new FakeMemento();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
  const monitor = new AccountMonitor({ keys, config: () => configuration.value, tier: () => 'Build' });
  const loads: string[] = [];
  const statusBar = new StatusBar(monitor, keys, configuration, undefined, async () => {
    loads.push('watch');
    return new SpendWatch({ keys, configuration, log, state: statePort(memento as never) });
  });
  dispose = () => {
    statusBar.dispose();
    monitor.dispose();
    configuration.dispose();
  };
  return { keys, statusBar, loads };
}

const newKey = async (kind: string) => (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId, kind })).key;

describe('status with an admin key', () => {
  it("shows the organization's costs this month beside the tier's monthly limit", async () => {
    const s = setup();
    await s.keys.setKey('direct', await newKey('proj'));
    await s.statusBar.refresh();
    expect(s.loads).toEqual([]);
    expect(s.statusBar.view('direct')!.tooltip).not.toMatch(/Organization costs/);
    await bed.admin('POST', `/direct/orgs/${orgId}/spend`, { amount: 3.25 });
    const admin = await newKey('admin');
    await s.keys.setAccountKey('direct', admin);
    await s.statusBar.refresh();
    expect(s.loads).toEqual(['watch']);
    expect(s.statusBar.view('direct')!.tooltip).toMatch(
      /Organization costs this month: \$3\.25 of the Build tier’s \$500\.00 monthly limit/,
    );
    expect(JSON.stringify(fake.state.statusItems) + JSON.stringify(fake.state.messages)).not.toContain(admin);
  });

  it("alerts once when a key passes the day's spend alert, and Disable This Key disables it at once", async () => {
    const s = setup();
    const accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
    await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 50 });
    const make = async (name: string, management = false) =>
      (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, name, management })).key;
    const [manager, used, leaked] = [await make('manager', true), await make('laptop'), await make('ci')];
    await s.keys.setKey('router', used);
    await s.keys.setAccountKey('router', manager);
    await bed.admin('POST', `/router/accounts/${accountId}/spend`, { amount: 6, key: leaked });
    await bed.admin('POST', `/router/accounts/${accountId}/spend`, { amount: 0.4, key: used });
    fake.state.answers.push('Disable This Key');
    await s.statusBar.refresh();
    const alerts = () => fake.state.messages.filter((m) => m.level === 'warning');
    for (let i = 0; i < 50 && !fake.state.messages.some((m) => /^Disabled ci/.test(m.text)); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alerts().map((m) => [m.text, m.items])).toEqual([
      [
        expect.stringMatching(
          /^Routing service key ci \(sk-or-v1-\w{3}\.{3}\w{4}\) has spent \$6\.00 today, past your alert at \$5\.00\. If that is not you, disable it now\.$/,
        ),
        ['Disable This Key', 'Raise the Limit…', 'Ignore Today'],
      ],
    ]);
    const refused = await bed.router('/chat/completions', leaked, {
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(refused.status).toBe(401);
    expect(s.statusBar.view('router')!.tooltip).toMatch(/- ci: \$6\.00 today, \$6\.00 this month \\\(disabled\\\)/);
    expect(s.statusBar.view('router')!.tooltip).toMatch(/- laptop: \$0\.40 today/);
    // The next refresh says nothing again today.
    await s.statusBar.refresh();
    expect(alerts()).toHaveLength(1);
    const shown = JSON.stringify(fake.state.statusItems) + JSON.stringify(fake.state.messages);
    for (const key of [manager, used, leaked]) expect(shown).not.toContain(key);
  });
});
