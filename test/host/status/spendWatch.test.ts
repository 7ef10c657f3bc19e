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
});
