// A repository's .vscode/settings.json cannot weaken a privacy or safety
// setting, in the real host: the user's data-collection opt-out holds, and is
// what the routing service receives.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { activateKeyward, e2eEnv, waitFor } from './env.ts';

let api: KeywardTestApi;
const section = () => vscode.workspace.getConfiguration('keyward');

async function ask(model: string): Promise<HostMessage> {
  const requestId = randomBytes(6).toString('hex');
  api.panel.handleMessage({
    type: 'chat/send',
    requestId,
    service: 'router',
    model,
    prompt: 'privacy check',
    attachments: [],
  });
  return waitFor('the answer or error', () =>
    api.panelProbe.sent.find(
      (m) => 'requestId' in m && m.requestId === requestId && (m.type === 'chat/done' || m.type === 'chat/error'),
    ),
  );
}

suite('settings a workspace cannot weaken', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
  });

  suiteTeardown(async () => {
    for (const name of ['router.denyDataCollection', 'scan.maxFileSizeKb', 'diagnostics.ignoredFiles']) {
      await section().update(name, undefined, vscode.ConfigurationTarget.Workspace);
      await section().update(name, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("the user's data-collection opt-out holds when the workspace switches it off, and the service gets it", async () => {
    await section().update('router.denyDataCollection', true, vscode.ConfigurationTarget.Global);
    await section().update('router.denyDataCollection', false, vscode.ConfigurationTarget.Workspace);
    // The workspace value is really there: VS Code's merged view says false.
    await waitFor('the workspace value to apply', () =>
      section().get('router.denyDataCollection') === false ? true : undefined,
    );
    await waitFor('Keyward to read the settings again', () =>
      api.config().router.denyDataCollection ? true : undefined,
    );
    // Every free endpoint of the emulator collects data: with the opt-out sent, the free router finds none.
    const end = await ask('openrouter/free');
    assert.equal(end.type, 'chat/error', 'the free router answered: the opt-out was not sent');
  });

  test('a workspace may opt out for itself', async () => {
    await section().update('router.denyDataCollection', undefined, vscode.ConfigurationTarget.Global);
    await section().update('router.denyDataCollection', true, vscode.ConfigurationTarget.Workspace);
    await waitFor('the opt-out', () => (api.config().router.denyDataCollection ? true : undefined));
    await section().update('router.denyDataCollection', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor('the default again', () => (api.config().router.denyDataCollection ? undefined : true));
    assert.equal((await ask('openrouter/free')).type, 'chat/done');
  });
});
