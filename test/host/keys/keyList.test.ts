// Keyward: Manage Keys… over the fake vscode API, with real HTTP to the emulator: the list the admin key sees, the
// key Keyward uses marked, and a leaked key deleted from the list after a confirmation, never before.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { showKeyList } from '../../../src/host/keys/keyList.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
let orgId: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

let parts: { keys: KeyStore; configuration: Configuration; log: Log };
beforeEach(async () => {
  await bed.admin('POST', '/reset', {});
  orgId = (await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'org' })).id;
  await bed.admin('POST', `/direct/orgs/${orgId}/purchase`, { amount: 20 });
  for (const list of [
    fake.state.messages,
    fake.state.answers,
    fake.state.inputs,
    fake.state.quickPicks,
    fake.state.picks,
  ])
    list.length = 0;
  Object.assign(fake.state.settings, { 'keyward.direct.baseUrl': bed.emulator.directBaseUrl });
  parts?.configuration.dispose();
  const log = new Log();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  parts = { keys, configuration: new Configuration(log), log };
});

const newKey = async (kind: string, name: string) =>
  (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId, kind, name })).key;
const works = async (key: string) =>
  (await bed.direct('/responses', key, { body: { model: 'gpt-4o-mini', input: 'hi' } })).status !== 401;

describe('Manage Keys (direct service, admin key)', () => {
  it('lists the project keys with the one Keyward uses marked, and deletes a leaked one only once confirmed', async () => {
    const admin = await newKey('admin', 'ops');
    const used = await newKey('proj', 'laptop');
    const leaked = await newKey('proj', 'ci');
    await parts.keys.setAccountKey('direct', admin);
    await parts.keys.setKey('direct', used);
    // First time: pick "ci", then Delete…, then say no; the list comes back and the person leaves it.
    fake.state.picks.push('ci', '$(trash) Delete…', undefined);
    await showKeyList(parts, 'direct');
    const [list, actions] = fake.state.quickPicks;
    expect(list!.map((row) => row.label).sort()).toEqual(['$(star-full) laptop', 'ci']);
    const laptop = list!.find((row) => row.label.endsWith('laptop'))!;
    expect(laptop.description).toMatch(/^sk-proj-?\.{3}[\w-]+ · used by Keyward$/);
    expect(laptop.detail).toMatch(/never used|last used/);
    expect(actions!.map((row) => row.label)).toEqual(['$(trash) Delete…']);
    expect(fake.state.messages.at(-1)!.text).toMatch(
      /^Delete ci \(sk-proj.*\) at the direct service\? Whatever uses it/,
    );
    expect(await works(leaked)).toBe(true);
    // Second time: confirmed.
    fake.state.picks.push('ci', '$(trash) Delete…', undefined);
    fake.state.answers.push('Delete');
    await showKeyList(parts, 'direct');
    expect(await works(leaked)).toBe(false);
    expect(await works(used)).toBe(true);
    expect(fake.state.messages.map((m) => m.text)).toContainEqual(expect.stringMatching(/^Deleted ci \(sk-proj/));
    expect(fake.state.quickPicks.at(-1)!.map((row) => row.label)).toEqual(['$(star-full) laptop']);
    const shown = JSON.stringify(fake.state.quickPicks) + JSON.stringify(fake.state.messages);
    for (const key of [admin, used, leaked]) expect(shown).not.toContain(key);
  });

  it('says what the service answered when the admin key is refused, and offers to add one when none is held', async () => {
    await showKeyList(parts, 'direct');
    expect(fake.state.messages.at(-1)!.text).toMatch(/^Keyward holds no management or admin key/);
    const admin = await newKey('admin', 'ops');
    await parts.keys.setAccountKey('direct', admin);
    await bed.admin('POST', '/reset', {});
    await showKeyList(parts, 'direct');
    expect(fake.state.messages.at(-1)).toMatchObject({ level: 'error' });
    expect(fake.state.messages.at(-1)!.text).toMatch(/^Listing the keys failed; the direct service said: /);
    expect(fake.state.messages.at(-1)!.text).not.toContain(admin);
  });
});
