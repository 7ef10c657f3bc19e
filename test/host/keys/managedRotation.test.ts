// Rotate with a management key, through the Rotate command's own path (KeyCommands.rotate) over the fake vscode API
// and real HTTP to the emulator: one step from old key to a verified new one, the workspace's .env line updated, the
// old key disabled, and deleted only once the person confirms.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeyCommands } from '../../../src/host/keys/keyCommands.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { tempDir } from '../../cli/gitFixtures.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
let accountId: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => {
  fake.api.workspace.workspaceFolders = undefined;
  return bed.close();
});

let s: { keys: KeyStore; commands: KeyCommands; folder: string; dispose(): void };
beforeEach(async () => {
  s?.dispose();
  await bed.admin('POST', '/reset', {});
  accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
  await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
  for (const list of [fake.state.messages, fake.state.answers, fake.state.inputs, fake.state.opened]) list.length = 0;
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.status.refreshMinutes': 0,
  });
  const folder = tempDir();
  fake.api.workspace.workspaceFolders = [{ uri: fileUri(folder), name: 'w', index: 0 }] as never;
  const log = new Log();
  const configuration = new Configuration(log);
  const memento = new FakeMemento();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
  const monitor = new AccountMonitor({ keys, config: () => configuration.value, tier: () => null });
  const commands = new KeyCommands(keys, monitor, configuration, log, memento as never);
  s = { keys, commands, folder, dispose: () => (monitor.dispose(), configuration.dispose()) };
});

const make = async (extra: Record<string, unknown>) =>
  (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, ...extra })).key;
const answers = async (key: string) =>
  (
    await bed.router('/chat/completions', key, {
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    })
  ).status === 200;
const said = () => fake.state.messages.map((m) => m.text).join('\n');

describe('Rotate with a management key', () => {
  it('replaces the key in one step: new key stored and verified, .env updated, old key disabled then deleted', async () => {
    const manager = await make({ name: 'manager', management: true });
    const old = await make({ name: 'laptop', limit: 8, limitReset: 'monthly' });
    await s.keys.setKey('router', old);
    await s.keys.setAccountKey('router', manager);
    writeFileSync(join(s.folder, '.env'), `# app\nOPENROUTER_API_KEY=${old}\n`);
    fake.state.answers.push('Delete Old Key');
    expect(await s.commands.rotate('router')).toBe(true);
    const stored = (await s.keys.getKey('router'))!;
    expect(stored).not.toBe(old);
    expect(await answers(stored)).toBe(true);
    expect(await answers(old)).toBe(false);
    expect(readFileSync(join(s.folder, '.env'), 'utf8')).toBe(`# app\nOPENROUTER_API_KEY=${stored}\n`);
    expect(said()).toMatch(
      /^Key rotated: sk-or-v1-…[\w-]{4} stored and verified\. Lines updated in \.env: 1\. The old key sk-or-v1-\w{3}\.{3}\w{4} is deleted\.$/m,
    );
    // Nothing was opened in a browser, nothing asked to paste.
    expect([fake.state.opened, fake.state.inputs]).toEqual([[], []]);
    expect(s.keys.retired().map((r) => r.masked)).toEqual([expect.stringMatching(new RegExp(`${old.slice(-4)}$`))]);
    for (const key of [manager, old, stored]) expect(said()).not.toContain(key);
  });

  it('says which step failed and keeps the old key when the management key cannot see it', async () => {
    const otherAccount = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'other' })).id;
    const manager = (
      await bed.admin<{ key: string }>('POST', '/router/keys', { accountId: otherAccount, management: true })
    ).key;
    const old = await make({ name: 'laptop' });
    await s.keys.setKey('router', old);
    await s.keys.setAccountKey('router', manager);
    expect(await s.commands.rotate('router')).toBe(false);
    expect(said()).toMatch(
      /Keyward could not rotate the key: the stored key is not among the keys this management key manages .* Nothing was changed\./,
    );
    expect(await s.keys.getKey('router')).toBe(old);
    expect(await answers(old)).toBe(true);
  });
});
