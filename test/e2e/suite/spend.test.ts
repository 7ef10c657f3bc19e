// The daily spend cap in the real host: answers' reported costs add up in the workspace's state, the router item's
// tooltip says today's spend, and past keyward.spend.dailyCapUsd a paid prompt waits for the person's word (the
// probe answers the modal as a person would: Cancel, then "Use a free model").
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { activateKeyward, e2eEnv, waitFor } from './env.ts';

let api: KeywardTestApi;
const keyward = () => vscode.workspace.getConfiguration('keyward');
const PAID = 'openai/gpt-4o-mini';

function send(model: string): { requestId: string; end: Promise<HostMessage> } {
  const requestId = randomBytes(6).toString('hex');
  api.panel.handleMessage({ type: 'chat/send', requestId, service: 'router', model, prompt: 'spend', attachments: [] });
  return {
    requestId,
    end: waitFor('the end of the request', () =>
      api.panelProbe.sent.find(
        (m) =>
          'requestId' in m &&
          m.requestId === requestId &&
          (m.type === 'chat/done' || m.type === 'chat/error' || m.type === 'chat/blocked'),
      ),
    ),
  };
}

suite('daily spend cap', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    await keyward().update('spend.dailyCapUsd', 0.000001, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    api.panelProbe.spendAnswer = undefined;
    await keyward().update('spend.dailyCapUsd', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a paid answer counts; past the cap Cancel sends nothing and "Use a free model" sends to the free router', async () => {
    const first = await send(PAID).end;
    assert.equal(first.type, 'chat/done');
    await waitFor('today’s spend in the tooltip', () =>
      /Spent today in this workspace: \$0\.0\d+ of the \$0\.000001 daily cap/.test(
        api.statusView('router')?.tooltip ?? '',
      )
        ? true
        : undefined,
    );

    api.panelProbe.spendAnswer = 'cancel';
    const cancelled = await send(PAID).end;
    assert.equal(cancelled.type, 'chat/blocked');
    assert.equal(api.panelProbe.spendQuestions.at(-1)?.freeOffered, true);

    api.panelProbe.spendAnswer = 'free';
    const free = send(PAID);
    const started = await waitFor('the free request started', () =>
      api.panelProbe.sent.find((m) => m.type === 'chat/started' && m.requestId === free.requestId),
    );
    assert.equal(started.type === 'chat/started' && started.assistant.model, 'openrouter/free');
    assert.equal((await free.end).type, 'chat/done');
  });
});
