// The key commands and status bar over the fake vscode API, with real HTTP to
// the emulator behind them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { directClient } from '../../core/monitor/monitorState.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeyCommands } from '../../../src/host/keys/keyCommands.ts';
import { KeyReminders } from '../../../src/host/keys/keyReminders.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { StatusBar } from '../../../src/host/status/statusBar.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { FakeMemento, FakeSecrets } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

function setup() {
  fake.state.messages.length = 0;
  fake.state.answers.length = 0;
  fake.state.inputs.length = 0;
  fake.state.opened.length = 0;
  fake.state.statusItems.length = 0;
  fake.state.logLines.length = 0;
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.status.refreshMinutes': 0,
  });
  const secrets = new FakeSecrets();
  const memento = new FakeMemento();
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(secrets as never), statePort(memento as never));
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  const commands = new KeyCommands(keys, monitor, configuration, log, memento as never);
  const reminders = new KeyReminders(keys, memento as never, () => Promise.resolve(commands));
  const statusBar = new StatusBar(monitor, keys, configuration);
  const item = (id: string) => fake.state.statusItems.find((i) => i.id === id)!;
  return {
    secrets,
    memento,
    keys,
    monitor,
    commands,
    reminders,
    statusBar,
    item,
    dispose: () => {
      statusBar.dispose();
      monitor.dispose();
      configuration.dispose();
    },
  };
}

let s: ReturnType<typeof setup>;
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  s?.dispose();
  s = setup();
});

describe('Set Key', () => {
  it('stores a router key from the password box, verifies it and shows the credit', async () => {
    // Without a key the item stays, quietly, as the way in: for the routing service its actions, Sign In first.
    expect(s.item('router')).toMatchObject({
      visible: true,
      text: '$(key) router: set key',
      tooltip: 'No key is stored for the routing service. Click to sign in in the browser or to set a key.',
      command: 'keyward.routerActions',
    });
    fake.state.inputs.push(bed.emulator.sandbox!.keys.routerFunded);
    expect(await s.commands.setKey('router')).toBe('router');
    expect(s.secrets.values.get('keyward.key.router')).toBe(bed.emulator.sandbox!.keys.routerFunded);
    expect(s.item('router')).toMatchObject({
      visible: true,
      text: '$(key) router $10.00 · free 0/1000',
      name: 'Keyward: routing service',
      command: 'keyward.routerActions',
    });
    expect(fake.state.messages.at(-1)).toMatchObject({
      level: 'info',
      text: expect.stringMatching(/valid, with a credit limit and an expiry/),
    });
    expect(s.keys.metadata('router')!.expiresAt).toMatch(/T/);
  });

  it('offers to store a key of the other service in its own slot', async () => {
    fake.state.answers.push('Store as direct service key');
    expect(await s.commands.setKey('router', { key: bed.emulator.sandbox!.keys.direct })).toBe('direct');
    expect(fake.state.messages[0]).toMatchObject({
      level: 'warning',
      text: expect.stringContaining('looks like a direct service key'),
    });
    expect(s.keys.metadata('router')).toBeUndefined();
    expect(s.item('direct').text).toBe('$(key) direct: ok');
  });

  it('refuses a key of another provider, and an admin key for prompting', async () => {
    expect(
      await s.commands.setKey('direct', { key: ['sk', 'ant', 'api03', 'x'.repeat(40)].join('-') }),
    ).toBeUndefined();
    expect(fake.state.messages[0]).toMatchObject({ level: 'error', text: expect.stringContaining('Anthropic') });
    expect(await s.commands.setKey('direct', { key: directKey('admin') })).toBeUndefined();
    expect(fake.state.messages[1]!.text).toMatch(/admin key/);
    expect(s.secrets.values.size).toBe(0);
  });

  it('warns, and stores only on request, for an unknown direct shape', async () => {
    const odd = ['sk', 'new', 'y'.repeat(40)].join('-');
    fake.state.answers.push(undefined);
    expect(await s.commands.setKey('direct', { key: odd })).toBeUndefined();
    fake.state.answers.push('Store anyway');
    expect(await s.commands.setKey('direct', { key: odd })).toBe('direct');
  });

  it('flags a router key without credit limit and expiry, with a link to fix it', async () => {
    fake.state.answers.push('Open Key Settings');
    await s.commands.setKey('router', { key: bed.emulator.sandbox!.keys.routerFree });
    expect(fake.state.messages.at(-1)!.text).toMatch(/no credit limit and no expiry date/);
    expect(fake.state.opened).toEqual(['https://openrouter.ai/settings/keys']);
    expect(s.item('router')).toMatchObject({ text: '$(key) router no limit · free 0/50' });
    expect(s.item('router').backgroundColor?.id).toBe('statusBarItem.warningBackground');
  });

  it('reports a restricted direct key as valid but unable to list models', async () => {
    const { key } = await bed.admin<{ key: string }>('POST', '/direct/keys', {
      orgId: bed.emulator.sandbox!.directOrgId,
      permissions: 'Restricted',
      scopes: ['api.responses.write'],
    });
    await s.commands.setKey('direct', { key });
    expect(fake.state.messages.at(-1)!.text).toMatch(/valid but restricted/);
    expect(s.item('direct').text).toBe('$(key) direct: restricted');
  });

  it('says clearly when secret storage fails and keeps the key nowhere', async () => {
    s.secrets.failing = true;
    expect(await s.commands.setKey('router', { key: routerKey() })).toBeUndefined();
    expect(fake.state.messages[0]).toMatchObject({ level: 'error', text: expect.stringContaining('keyring') });
    expect(s.memento.values.size).toBe(0);
  });
});

describe('Rotate and Delete', () => {
  it('keeps the old key when the new one is refused, and retires it when the new one works', async () => {
    const old = bed.emulator.sandbox!.keys.routerFunded;
    await s.commands.setKey('router', { key: old, quiet: true });
    const refused = routerKey();
    expect(await s.commands.rotate('router', refused)).toBe(false);
    expect(s.secrets.values.get('keyward.key.router')).toBe(old);
    // The refused key is not listed as rotated out, and the old key keeps its fingerprint slot.
    expect(s.keys.retired().map((r) => r.fingerprint)).not.toContain(fingerprint(refused));
    expect(fake.state.messages.at(-1)!.text).toMatch(/old key stays in place/);

    const { key: fresh } = await bed.admin<{ key: string }>('POST', '/router/keys', {
      accountId: bed.emulator.sandbox!.routerFundedAccountId,
      name: 'new',
      limit: 5,
      expiresIn: '30d',
    });
    const oldFingerprint = s.keys.metadata('router')!.fingerprint;
    expect(await s.commands.rotate('router', fresh)).toBe(true);
    expect(s.secrets.values.get('keyward.key.router')).toBe(fresh);
    expect(s.keys.retired().map((r) => r.fingerprint)).toContain(oldFingerprint);
    expect(fake.state.messages.at(-1)!.text).toMatch(/delete the old key sk-or-v1-…/);
    expect(s.item('router').text).toBe('$(key) router $5.00 · free 0/1000');
  });

  it('deletes after confirmation and leaves the quiet way to set a key', async () => {
    await s.commands.setKey('direct', { key: bed.emulator.sandbox!.keys.direct, quiet: true });
    fake.state.answers.push(undefined);
    expect(await s.commands.delete('direct')).toBe(false);
    fake.state.answers.push('Delete Key');
    expect(await s.commands.delete('direct')).toBe(true);
    expect(s.secrets.values.size).toBe(0);
    expect(s.item('direct')).toMatchObject({
      visible: true,
      text: '$(key) direct: set key',
      command: 'keyward.setDirectKey',
      backgroundColor: undefined,
    });
  });
});

describe('environment import and expiry reminder', () => {
  it('offers once to import a key from the environment', async () => {
    fake.state.answers.push('Import');
    await s.reminders.offerEnvironmentImport({ OPENROUTER_API_KEY: bed.emulator.sandbox!.keys.routerFunded });
    expect(s.keys.metadata('router')!.label).toBe('OPENROUTER_API_KEY (imported)');
    await s.keys.deleteKey('router');
    const before = fake.state.messages.length;
    await s.reminders.offerEnvironmentImport({ OPENROUTER_API_KEY: bed.emulator.sandbox!.keys.routerFunded });
    expect(fake.state.messages.length).toBe(before);
  });

  it('reminds a week before a key expires, once a day', async () => {
    await s.commands.setKey('router', { key: bed.emulator.sandbox!.keys.routerFunded, quiet: true });
    await s.keys.updateMetadata('router', { expiresAt: '2026-11-25T00:00:00.000Z' });
    await s.reminders.remindExpiry(new Date('2026-11-10T00:00:00Z'));
    expect(fake.state.messages).toHaveLength(0);
    await s.reminders.remindExpiry(new Date('2026-11-20T00:00:00Z'));
    await s.reminders.remindExpiry(new Date('2026-11-20T12:00:00Z'));
    expect(fake.state.messages.map((m) => m.text)).toEqual([expect.stringMatching(/expires in 5 days/)]);
  });
});

describe('status bar states', () => {
  it('follows a request that found a billing state, and the key-leak check finds no key', async () => {
    await s.commands.setKey('direct', { key: bed.emulator.sandbox!.keys.direct, quiet: true });
    const org = bed.emulator.direct.org(bed.emulator.sandbox!.directOrgId);
    await bed.admin('POST', `/direct/orgs/${org.id}/spend`, { amount: bed.emulator.direct.balance(org) });
    const client = (await directClient(s.monitor))!;
    const stream = client.respond({ model: 'gpt-4o-mini', input: 'x' });
    await stream.collect().catch((error) => s.monitor.recordOutcome('direct', error, client.lastRateLimits));
    expect(s.item('direct').text).toBe('$(key) direct: credit exhausted');
    await s.statusBar.refresh();
    expect(s.item('direct').text).toBe('$(key) direct: credit exhausted');
    const everything = JSON.stringify({
      log: fake.state.logLines,
      state: [...s.memento.values],
      items: fake.state.statusItems,
      messages: fake.state.messages,
    });
    for (const key of Object.values(bed.emulator.sandbox!.keys)) expect(everything).not.toContain(key);
  });
});
