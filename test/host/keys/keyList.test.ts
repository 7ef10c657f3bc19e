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
  Object.assign(fake.state.settings, {
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
  });
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

describe('Manage Keys (routing service, management key)', () => {
  it('shows limits and usage, disables a key at once and enables it again, and sets a limit', async () => {
    const accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
    await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
    const make = async (extra: Record<string, unknown>) =>
      (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, ...extra })).key;
    const manager = await make({ name: 'manager', management: true });
    const used = await make({ name: 'laptop', limit: 10, limitReset: 'monthly', expiresIn: '30d' });
    const other = await make({ name: 'ci' });
    await bed.admin('POST', `/router/accounts/${accountId}/spend`, { amount: 1.5, key: used });
    await parts.keys.setAccountKey('router', manager);
    await parts.keys.setKey('router', used);
    const ask = async (key: string) =>
      (
        await bed.router('/chat/completions', key, {
          body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
        })
      ).status;
    // Disable "ci", then leave the list: it is refused at once.
    fake.state.picks.push('ci', '$(circle-slash) Disable', undefined);
    await showKeyList(parts, 'router');
    const laptop = fake.state.quickPicks[0]!.find((row) => row.label.endsWith('laptop'))!;
    expect(laptop.label).toBe('$(star-full) laptop');
    expect(laptop.detail).toBe(
      'limit $10.00 ($8.50 left, resets monthly) · today $1.50 · this month $1.50 · expires in 30 days',
    );
    expect(await ask(other)).toBe(401);
    const disabledRow = fake.state.quickPicks.at(-1)!.find((row) => row.label.endsWith(' ci'))!;
    expect([disabledRow.label, disabledRow.description]).toEqual([
      '$(circle-slash) ci',
      expect.stringMatching(/ · disabled$/),
    ]);
    // Enable it, then give it a limit.
    fake.state.picks.push('$(circle-slash) ci', '$(pass) Enable', 'ci', '$(edit) Set the Credit Limit…', undefined);
    fake.state.inputs.push('2.50');
    await showKeyList(parts, 'router');
    expect(await ask(other)).toBe(200);
    const texts = fake.state.messages.map((m) => m.text);
    expect(texts).toContainEqual(
      expect.stringMatching(/^Disabled ci \(sk-or-v1-\w{3}\.{3}\w{4}\): requests with it are refused\.$/),
    );
    expect(texts).toContainEqual(expect.stringMatching(/^Enabled ci/));
    expect(texts).toContainEqual(expect.stringMatching(/^The limit of ci .* is now \$2\.50\.$/));
    expect(fake.state.quickPicks.at(-1)!.find((row) => row.label === 'ci')!.detail).toMatch(
      /^limit \$2\.50 \(\$2\.50 left\)/,
    );
    const shown = JSON.stringify(fake.state.quickPicks) + JSON.stringify(fake.state.messages);
    for (const key of [manager, used, other]) expect(shown).not.toContain(key);
  });
});
