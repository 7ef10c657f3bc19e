// Add and remove a management or admin key over the fake vscode API, with real HTTP to the emulator: the key is
// checked with the one API it may call, kept in a slot of its own, and the key that calls models stays as it was.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { addAccountKey, removeAccountKey } from '../../../src/host/keys/accountKeyCommands.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey } from '../../emulator/keyFactory.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
let orgId: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

function setup() {
  fake.state.messages.length = 0;
  fake.state.answers.length = 0;
  fake.state.inputs.length = 0;
  fake.state.logLines.length = 0;
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.status.refreshMinutes': 0,
  });
  const secrets = new FakeSecrets();
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(secrets as never), statePort(new FakeMemento() as never));
  return { secrets, keys, parts: { keys, configuration, log }, dispose: () => configuration.dispose() };
}

let s: ReturnType<typeof setup>;
beforeEach(async () => {
  await bed.admin('POST', '/reset', {});
  const org = await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'org' });
  orgId = org.id;
  s?.dispose();
  s = setup();
});

const newDirectKey = async (kind: string) =>
  (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId, kind })).key;

const said = () => fake.state.messages.map((m) => m.text).join('\n');

describe('Add a Management or Admin Key', () => {
  it('stores an admin key the organization API accepts, in its own slot, and says what it sees', async () => {
    const admin = await newDirectKey('admin');
    fake.state.inputs.push(admin);
    expect(await addAccountKey(s.parts, 'direct')).toBe(true);
    expect(await s.keys.getAccountKey('direct')).toBe(admin);
    expect(await s.keys.getKey('direct')).toBeUndefined();
    expect(said()).toMatch(
      /Direct service admin key stored \(sk-admin-…[\w-]{4}\)\. Projects it sees: 1\. Keyward never/,
    );
    expect(said() + fake.state.logLines.join('\n')).not.toContain(admin);
  });

  it('refuses a project key as an admin key before any request, and stores nothing', async () => {
    const project = await newDirectKey('proj');
    const before = (await bed.admin<{ requests: unknown[] }>('GET', '/requests')).requests.length;
    expect(await addAccountKey(s.parts, 'direct', project)).toBe(false);
    expect(said()).toMatch(/refused this admin key, so nothing was stored: This is not an admin key/);
    expect((await bed.admin<{ requests: unknown[] }>('GET', '/requests')).requests).toHaveLength(before);
    expect(s.keys.accountMetadata('direct')).toBeUndefined();
  });

  it('refuses an admin key the service does not know, with its words, and stores nothing', async () => {
    const unknown = directKey('admin');
    expect(await addAccountKey(s.parts, 'direct', unknown)).toBe(false);
    expect(said()).toMatch(/refused this admin key, so nothing was stored: /);
    expect(said()).not.toContain(unknown);
    expect(await s.keys.getAccountKey('direct')).toBeUndefined();
  });

  it('removes a stored admin key after the person confirms, and keeps it when they do not', async () => {
    const admin = await newDirectKey('admin');
    await addAccountKey(s.parts, 'direct', admin);
    expect(await removeAccountKey(s.parts, 'direct')).toBe(false);
    expect(await s.keys.getAccountKey('direct')).toBe(admin);
    fake.state.answers.push('Remove');
    expect(await removeAccountKey(s.parts, 'direct')).toBe(true);
    expect(await s.keys.getAccountKey('direct')).toBeUndefined();
  });

  it('stores a routing management key the key API accepts; refuses an ordinary key and the key used for prompts', async () => {
    const account = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
    const key = async (management: boolean) =>
      (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId: account, management })).key;
    const [manager, ordinary, used] = [await key(true), await key(false), await key(false)];
    await s.keys.setKey('router', used);
    expect(await addAccountKey(s.parts, 'router', used)).toBe(false);
    expect(said()).toMatch(/This is the routing service key Keyward uses for prompts/);
    expect(await addAccountKey(s.parts, 'router', ordinary)).toBe(false);
    expect(said()).toMatch(
      /refused this management key, so nothing was stored: .*not a management key|Only management keys/,
    );
    expect(await addAccountKey(s.parts, 'router', manager)).toBe(true);
    expect(said()).toMatch(/Routing service management key stored \(sk-or-v1-…[\w-]{4}\)\. Keys it sees: 2\./);
    expect(await s.keys.getAccountKey('router')).toBe(manager);
    expect(await s.keys.getKey('router')).toBe(used);
    for (const secret of [manager, ordinary, used])
      expect(said() + fake.state.logLines.join('\n')).not.toContain(secret);
  });
});
