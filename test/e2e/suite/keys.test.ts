// Keys through the real SecretStorage, verified against the emulator, and the
// status-bar text for the account states of both seeds.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import { activateKeyward, admin, e2eEnv } from './env.ts';

async function api(): Promise<KeywardTestApi> {
  const extension = await activateKeyward();
  assert.ok(extension.exports, 'the extension returns its test API in test mode');
  return extension.exports as KeywardTestApi;
}

async function routerAccount(purchase?: number): Promise<string> {
  const { id } = await admin<{ id: string }>('POST', '/router/accounts', { name: 'e2e' });
  if (purchase) await admin('POST', `/router/accounts/${id}/purchase`, { amount: purchase });
  return id;
}

async function routerKey(accountId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await admin<{ key: string }>('POST', '/router/keys', { accountId, name: 'e2e', ...extra })).key;
}

async function setRouter(key: string): Promise<string> {
  await vscode.commands.executeCommand('keyward.setRouterKey', { key, quiet: true });
  return (await api()).statusView('router')!.text;
}

async function setDirect(key: string): Promise<string> {
  await vscode.commands.executeCommand('keyward.setDirectKey', { key, quiet: true, acceptWarning: true });
  return (await api()).statusView('direct')!.text;
}

suite('keys and status bar', () => {
  test('a key stored through the command lives in SecretStorage and is read back to verify', async () => {
    const text = await setRouter(e2eEnv().sandboxKeys.routerFunded);
    // The run's shared key: a suite before this one may have spent with it today (a title, a paid or free answer),
    // so its credit and count are whatever the service says; the tests below count on fresh accounts.
    assert.match(text, /^\$\(key\) \$\d+\.\d\d · free \d+\/1000$/);
    const meta = (await api()).keyMetadata('router') as { masked: string; fingerprint: string };
    assert.match(meta.masked, /^sk-or-v1-…[0-9a-f]{4}$/);
    assert.match(meta.fingerprint, /^[0-9a-f]{16}$/);
  });

  test('funded key with a limit', async () => {
    const account = await routerAccount(20);
    assert.equal(
      await setRouter(await routerKey(account, { limit: 7.5, expiresIn: '60d' })),
      '$(key) $7.50 · free 0/1000',
    );
  });

  test('key without a limit: "no limit" with a warning', async () => {
    const account = await routerAccount(20);
    assert.equal(await setRouter(await routerKey(account)), '$(key) no limit · free 0/1000');
    assert.equal((await api()).statusView('router')!.severity, 'warning');
  });

  test('free-only account at 12/50', async () => {
    const account = await routerAccount();
    await admin('POST', `/router/accounts/${account}/free-requests`, { used: 12 });
    assert.equal(
      await setRouter(await routerKey(account, { limit: 1, expiresIn: '30d' })),
      '$(key) $1.00 · free 12/50',
    );
    assert.match(
      (await api()).statusView('router')!.tooltip,
      /Buying 10 credits raises it to 1,000 a day: \$10\.80 by card/,
    );
  });

  test('account past the 10-credit purchase threshold: 1,000 a day', async () => {
    const account = await routerAccount(9);
    assert.equal(
      await setRouter(await routerKey(account, { limit: 2, expiresIn: '30d' })),
      '$(key) $2.00 · free 0/1000',
    );
  });

  test('negative balance: the item warns that every call fails', async () => {
    const account = await routerAccount(5);
    const key = await routerKey(account, { expiresIn: '30d' });
    await setRouter(key);
    await admin('POST', `/router/accounts/${account}/spend`, { amount: 6 });
    const result = await (
      await api()
    ).ask({ service: 'router', model: 'openrouter/free', turns: [{ role: 'user', content: 'x' }] });
    assert.deepEqual(result, { ok: false, kind: 'insufficient_credits' });
    const view = (await api()).statusView('router')!;
    assert.match(view.text, /^\$\(warning\) .*calls fail/);
    assert.equal(view.severity, 'warning');
  });

  test('direct: ok, then credit exhausted after a request', async () => {
    const { id } = await admin<{ id: string }>('POST', '/direct/orgs', { name: 'e2e' });
    await admin('POST', `/direct/orgs/${id}/purchase`, { amount: 5 });
    const { key } = await admin<{ key: string }>('POST', '/direct/keys', { orgId: id });
    assert.equal(await setDirect(key), '$(key) direct: ok');
    const answer = await (
      await api()
    ).ask({ service: 'direct', model: 'gpt-4o-mini', turns: [{ role: 'user', content: 'hello' }] });
    assert.equal(answer.ok, true);
    await admin('POST', `/direct/orgs/${id}/spend`, { amount: 100 });
    assert.deepEqual(
      await (await api()).ask({ service: 'direct', model: 'gpt-4o-mini', turns: [{ role: 'user', content: 'x' }] }),
      { ok: false, kind: 'credit_exhausted' },
    );
    assert.equal((await api()).statusView('direct')!.text, '$(key) direct: credit exhausted');
  });

  test('direct: a restricted key', async () => {
    const { id } = await admin<{ id: string }>('POST', '/direct/orgs', { name: 'e2e' });
    const { key } = await admin<{ key: string }>('POST', '/direct/keys', {
      orgId: id,
      permissions: 'Restricted',
      scopes: ['api.responses.write'],
    });
    assert.equal(await setDirect(key), '$(key) direct: restricted');
  });

  test('deleting a key hides its item', async () => {
    await vscode.commands.executeCommand('keyward.deleteDirectKey', true);
    assert.equal((await api()).statusView('direct'), undefined);
    await setDirect(e2eEnv().sandboxKeys.direct);
  });

  test('no key appears in log lines, global state or status text', async () => {
    const keysSeen = Object.values(e2eEnv().sandboxKeys);
    const everything = JSON.stringify({
      log: (await api()).logLines(),
      state: (await api()).globalState(),
      router: (await api()).statusView('router'),
      direct: (await api()).statusView('direct'),
    });
    for (const key of keysSeen) assert.ok(!everything.includes(key), 'a key leaked');
    assert.ok(!/sk-or-v1-[0-9a-f]{64}/.test(everything), 'a router key leaked');
    assert.ok(!/T3BlbkFJ/.test(everything), 'a direct key leaked');
  });
});
