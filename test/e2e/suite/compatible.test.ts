// The OpenAI-compatible service in the real host: configured by its two
// settings, shown in the status bar only then, offered in the panel's service
// switch, and prompted through the panel's send path, with and without a key.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { PATIENCE, activateKeyward, admin, e2eEnv, leakKey, waitFor } from './env.ts';

let api: KeywardTestApi;
const section = () => vscode.workspace.getConfiguration('keyward');
const base = (path: string) => e2eEnv().emulator.adminUrl.replace(/\/__admin$/, path);

async function configure(baseUrl: string | undefined, name: string | undefined): Promise<void> {
  await section().update('compatible.baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
  await section().update('compatible.name', name, vscode.ConfigurationTarget.Global);
  await waitFor('the compatible settings', () =>
    api.config().compatible.baseUrl === (baseUrl ?? null) ? true : undefined,
  );
}

async function sendThroughPanel(model: string, prompt: string): Promise<HostMessage> {
  const requestId = randomBytes(6).toString('hex');
  api.panel.handleMessage({ type: 'chat/send', requestId, service: 'compatible', model, prompt, attachments: [] });
  return waitFor(
    `the end of ${requestId}`,
    () =>
      api.panelProbe.sent.find(
        (m) => 'requestId' in m && m.requestId === requestId && (m.type === 'chat/done' || m.type === 'chat/error'),
      ),
    PATIENCE,
  );
}

suite('OpenAI-compatible service', () => {
  // The run's user settings configure it for the UI steps; they get it back afterwards.
  let original: { baseUrl: string | undefined; name: string | undefined };
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    original = {
      baseUrl: section().inspect<string>('compatible.baseUrl')?.globalValue,
      name: section().inspect<string>('compatible.name')?.globalValue,
    };
    await vscode.commands.executeCommand('keyward.deleteCompatibleKey', true);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('keyward.deleteCompatibleKey', true);
    await configure(original.baseUrl, original.name);
  });

  test('is not in the status bar or the service switch until its base URL is set', async () => {
    await configure(undefined, undefined);
    await api.refresh();
    assert.equal(api.statusView('compatible'), undefined);
    await vscode.commands.executeCommand('keyward.openPanel');
    api.panel.handleMessage({ type: 'webview/ready' });
    const state = await waitFor('the panel state', () => api.panelProbe.sent.findLast((m) => m.type === 'panel/state'));
    assert.ok(state.type === 'panel/state');
    assert.deepEqual(
      state.state.services.map((s) => s.id),
      ['router', 'direct'],
    );
  });

  test('once configured: a named status-bar item, a button in the switch, and a keyless prompt answered', async () => {
    const sentBefore = api.panelProbe.sent.length;
    await configure(base('/compatible/v1'), 'Local LLM');
    // The open panel learns of the new service without being reopened.
    const changed = await waitFor('the services/changed message naming the new service', () =>
      api.panelProbe.sent
        .slice(sentBefore)
        .find((m) => m.type === 'services/changed' && m.services.some((x) => x.name === 'Local LLM')),
    );
    assert.ok(changed.type === 'services/changed');
    assert.deepEqual(
      changed.services.map((s) => s.name),
      ['Routing service', 'Direct service', 'Local LLM'],
    );
    await api.refresh();
    const view = await waitFor('the compatible status item', () => api.statusView('compatible'));
    assert.match(view.text, /Local LLM/);
    assert.equal(view.severity, 'normal');

    const before = api.panelProbe.sent.length;
    api.panel.handleMessage({ type: 'webview/ready' });
    const state = await waitFor('the panel state', () =>
      api.panelProbe.sent.slice(before).find((m) => m.type === 'panel/state'),
    );
    assert.ok(state.type === 'panel/state');
    assert.deepEqual(
      state.state.services.find((s) => s.id === 'compatible'),
      {
        id: 'compatible',
        name: 'Local LLM',
        shortName: 'Local LLM',
        pricedModels: false,
        hasCredits: false,
        keyOptional: true,
      },
    );
    assert.equal(state.state.hasKey.compatible, true, 'a keyless server needs no "set a key" banner');
    const models = await waitFor('the compatible model list', () =>
      api.panelProbe.sent
        .slice(before)
        .find((m) => m.type === 'models/list' && m.service === 'compatible' && m.models !== null),
    );
    assert.ok(models.type === 'models/list');
    assert.deepEqual(
      models.models!.map((m) => m.id),
      ['llama3.2:3b', 'qwen2.5-coder:7b'],
    );

    const end = await sendThroughPanel('llama3.2:3b', 'hello from the panel');
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    assert.ok(end.type === 'chat/done' && end.turn.text.length > 0 && end.turn.service === 'compatible');
    const { seen } = await admin<{ seen: { path: string; authorization: string | null }[] }>('GET', '/compatible');
    assert.equal(seen.at(-1)?.authorization, null, 'no Authorization header without a key');
  });

  test('a server that wants a key: refused without one, answered once the key is set', async () => {
    await configure(base('/compatible-keyed/v1'), 'Keyed LLM');
    const refused = await sendThroughPanel('llama3.2:3b', 'no key yet');
    assert.ok(refused.type === 'chat/error' && refused.turn.error?.kind === 'auth', JSON.stringify(refused));

    const { key } = await admin<{ key: string }>('GET', '/compatible');
    await vscode.commands.executeCommand('keyward.setCompatibleKey', { key: leakKey(key), quiet: true });
    assert.ok(api.keyMetadata('compatible'), 'the key is stored');
    const end = await sendThroughPanel('llama3.2:3b', 'with a key');
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    const { seen } = await admin<{ seen: { authorization: string | null }[] }>('GET', '/compatible');
    assert.equal(seen.at(-1)?.authorization, `Bearer ${key}`);
    assert.ok(
      !JSON.stringify(api.globalState()).includes(key),
      'the key is in secret storage only, never in global state',
    );
  });
});
