// Rotate with an admin key (the direct service, whose API cannot make a person's key), through the Rotate command's
// own path (KeyCommands.rotate) over the fake vscode API and real HTTP to the emulator: the stored key's project
// found by its redacted form, the successor from that project's keys page or a service account made there, stored
// and verified, and the old key deleted only once the person confirms.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeyCommands } from '../../../src/host/keys/keyCommands.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
let orgId: string;
let projectId: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

let s: { keys: KeyStore; commands: KeyCommands; dispose(): void };
beforeEach(async () => {
  s?.dispose();
  await bed.admin('POST', '/reset', {});
  const org = await bed.admin<{ id: string; defaultProjectId: string }>('POST', '/direct/orgs', { name: 'org' });
  [orgId, projectId] = [org.id, org.defaultProjectId];
  await bed.admin('POST', `/direct/orgs/${orgId}/purchase`, { amount: 10 });
  for (const list of [fake.state.messages, fake.state.answers, fake.state.inputs, fake.state.opened, fake.state.picks])
    list.length = 0;
  fake.state.quickPicks.length = 0;
  Object.assign(fake.state.settings, {
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.status.refreshMinutes': 0,
  });
  const log = new Log();
  const configuration = new Configuration(log);
  const memento = new FakeMemento();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
  const monitor = new AccountMonitor({ keys, config: () => configuration.value, tier: () => null });
  const commands = new KeyCommands(keys, monitor, configuration, log, memento as never);
  s = { keys, commands, dispose: () => (monitor.dispose(), configuration.dispose()) };
});

const newKey = async (kind: string, name: string) =>
  (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId, kind, name })).key;
const works = async (key: string) => (await bed.direct('/models', key)).status === 200;
const said = () => fake.state.messages.map((m) => m.text).join('\n');

async function stored(): Promise<{ admin: string; old: string }> {
  const admin = await newKey('admin', 'ops');
  const old = await newKey('proj', 'laptop');
  await s.keys.setKey('direct', old);
  await s.keys.setAccountKey('direct', admin);
  return { admin, old };
}

describe('Rotate with an admin key', () => {
  it("makes a service account key in the stored key's project, stores it verified, and deletes the old one once confirmed", async () => {
    const { admin, old } = await stored();
    fake.state.picks.push('Create a Service Account Key in Default');
    fake.state.answers.push('Delete Old Key');
    expect(await s.commands.rotate('direct')).toBe(true);
    const fresh = (await s.keys.getKey('direct'))!;
    expect(fresh).not.toBe(old);
    expect([await works(fresh), await works(old)]).toEqual([true, false]);
    expect(fake.state.quickPicks[0]!.map((i) => i.label)).toEqual([
      'Make It on the Keys Page of Default',
      'Create a Service Account Key in Default',
    ]);
    expect(said()).toMatch(/^Key rotated, and the old key laptop \(sk-proj\S*\.{3}\S+\) is deleted\.$/m);
    expect([fake.state.opened, fake.state.inputs]).toEqual([[], []]);
    for (const key of [admin, old, fresh]) expect(said()).not.toContain(key);
  });

  it("opens the project's own keys page, stores the pasted key, and keeps the old one when the person says not yet", async () => {
    const { old } = await stored();
    const pasted = await newKey('proj', 'laptop 2');
    fake.state.picks.push('Make It on the Keys Page of Default');
    fake.state.inputs.push(pasted);
    fake.state.answers.push(undefined);
    expect(await s.commands.rotate('direct')).toBe(true);
    expect(await s.keys.getKey('direct')).toBe(pasted);
    expect(fake.state.opened).toEqual([`https://platform.openai.com/settings/${projectId}/api-keys`]);
    expect(await works(old)).toBe(true);
    expect(said()).toMatch(/The old key laptop \(sk-proj\S+\) still works: delete it from Manage Keys/);
  });

  it('keeps the stored key when the pasted one is refused, and deletes nothing', async () => {
    const { old } = await stored();
    fake.state.picks.push('Make It on the Keys Page of Default');
    fake.state.inputs.push(['sk', 'proj', 'x'.repeat(60)].join('-'));
    expect(await s.commands.rotate('direct')).toBe(false);
    expect(await s.keys.getKey('direct')).toBe(old);
    expect(await works(old)).toBe(true);
  });
});
