// VS Code's proxy settings in the real host: with http.proxy set, Keyward's requests go through that proxy (a real
// CONNECT proxy started here, the emulator behind a TLS front signed by a private authority made at run time), and
// http.proxyStrictSSL decides whether that authority's certificate is accepted. VS Code's own patching of Node's
// http does not reach Keyward's undici: this proves Keyward reads the settings itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import {
  type ConnectProxy,
  type PrivateCa,
  type TlsFront,
  connectProxy,
  privateCa,
  tlsFront,
} from '../../emulator/corporateNetwork.ts';
import { activateKeyward, e2eEnv, waitFor } from './env.ts';

let api: KeywardTestApi;
let ca: PrivateCa;
let front: TlsFront;
let proxy: ConnectProxy;
const http = () => vscode.workspace.getConfiguration('http');
const keyward = () => vscode.workspace.getConfiguration('keyward');
const GLOBAL = vscode.ConfigurationTarget.Global;

async function settle(): Promise<void> {
  // Keyward re-reads its settings on the change event; a prompt after it uses the new client.
  await new Promise((resolve) => setImmediate(resolve));
}

suite('corporate network: http.proxy', () => {
  suiteSetup(async function () {
    this.timeout(120_000);
    api = (await activateKeyward()).exports as KeywardTestApi;
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    ca = await privateCa();
    const emulator = new URL(e2eEnv().emulator.routerBaseUrl);
    front = await tlsFront(ca, Number(emulator.port));
    proxy = await connectProxy();
    await keyward().update('router.baseUrl', front.origin + emulator.pathname, GLOBAL);
    await http().update('proxy', proxy.url, GLOBAL);
  });

  suiteTeardown(async () => {
    await http().update('proxy', undefined, GLOBAL);
    await http().update('proxyStrictSSL', undefined, GLOBAL);
    await keyward().update('router.baseUrl', e2eEnv().emulator.routerBaseUrl, GLOBAL);
    await Promise.all([front?.close(), proxy?.close()]);
    ca?.dispose();
  });

  test('http.proxyStrictSSL false: the prompt goes through the proxy to the private-CA service', async () => {
    await http().update('proxyStrictSSL', false, GLOBAL);
    await settle();
    const result = await waitFor(
      'an answer through the proxy',
      async () => {
        const answer = await api.ask({
          service: 'router',
          model: 'openrouter/free',
          turns: [{ role: 'user', content: 'hi' }],
        });
        return answer.ok ? answer : undefined;
      },
      60_000,
    );
    assert.equal(result.ok, true);
    assert.ok(
      proxy.tunnels.some((tunnel) => tunnel.target === `localhost:${front.port}`),
      `the proxy saw ${JSON.stringify(proxy.tunnels.map((t) => t.target))}`,
    );
    assert.ok(!JSON.stringify(proxy.tunnels).includes(e2eEnv().sandboxKeys.routerFunded));
  });

  test('http.proxyStrictSSL true: the private certificate is refused, through the proxy', async () => {
    await http().update('proxyStrictSSL', true, GLOBAL);
    await settle();
    const before = proxy.tunnels.length;
    const result = await waitFor(
      'a refused certificate',
      async () => {
        const answer = await api.ask({
          service: 'router',
          model: 'openrouter/free',
          turns: [{ role: 'user', content: 'hi' }],
        });
        return answer.ok ? undefined : answer;
      },
      60_000,
    );
    // Its own kind since issue 31, never sent again.
    assert.deepEqual(result, { ok: false, kind: 'certificate' });
    assert.ok(proxy.tunnels.length > before, 'the refused attempt went through the proxy too');
    // The status bar's check fails the same way, and its item says so and why, not only how old its figures are.
    await api.refresh();
    const view = api.statusView('router')!;
    assert.match(view.text, /check failed|unchecked/);
    assert.match(
      view.tooltip,
      /\*\*The last check failed: Certificate not accepted\.\*\* Keyward did not accept the certificate of localhost:\d+/,
    );
    assert.match(view.tooltip, /To do: Add the certificate authority that issued it to the system's certificate store/);
    assert.doesNotMatch(view.tooltip, /--use-system-ca/);
  });
});
