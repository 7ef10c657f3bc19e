// The daily spend cap in the real host: answers' reported costs add up in the workspace's state, the router item's
// tooltip says today's spend, and past keyward.spend.dailyCapUsd a paid prompt is held back on the chat's card
// (no modal: the host's smoke-test driver refuses dialogs, and so should the chat). The test sends what the card's
// buttons send ("Send anyway" re-sends with overCap, "Use a free model" sends to the free model); the UI step
// "spend cap card" clicks them. Requests through vscode.lm cannot ask anyone: past the cap a paid model fails with
// a LanguageModelError naming the cap, and a free model still answers.
// Earlier suites may have spent today already: this suite owns its precondition by starting without a cap and
// setting one far below what its own first answer costs.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { activateKeyward, admin, answerModelAccess, e2eEnv, waitFor } from './env.ts';

let api: KeywardTestApi;
const keyward = () => vscode.workspace.getConfiguration('keyward');
const PAID = 'openai/gpt-4o-mini';
const FREE = 'openrouter/free';
const CAP = 0.000001;

function send(model: string, overCap = false): { requestId: string; end: Promise<HostMessage> } {
  const requestId = randomBytes(6).toString('hex');
  api.panel.handleMessage({
    type: 'chat/send',
    requestId,
    service: 'router',
    model,
    prompt: 'spend',
    attachments: [],
    ...(overCap ? { overCap: true as const } : {}),
  });
  return {
    requestId,
    end: waitFor('the end of the request', () =>
      api.panelProbe.sent.find(
        (m) =>
          'requestId' in m &&
          m.requestId === requestId &&
          (m.type === 'chat/done' ||
            m.type === 'chat/error' ||
            m.type === 'chat/blocked' ||
            m.type === 'chat/spendCap'),
      ),
    ),
  };
}

const startedModel = (requestId: string) => {
  const started = api.panelProbe.sent.find((m) => m.type === 'chat/started' && m.requestId === requestId);
  return started?.type === 'chat/started' ? started.assistant.model : undefined;
};

async function readAll(response: vscode.LanguageModelChatResponse): Promise<string> {
  let text = '';
  for await (const chunk of response.text) text += chunk;
  return text;
}

suite('daily spend cap', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    // This suite calls vscode.lm as another extension would: the host refuses modal dialogs here, so the
    // one-time question is answered by script (the UI step "another extension asks" clicks the real one).
    answerModelAccess(api.dialogs, true);
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    await keyward().update('spend.dailyCapUsd', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('no cap', () => (api.config().spend.dailyCapUsd === null ? true : undefined));
    // Today's spend now holds at least this answer's cost, whatever earlier suites spent: the cap set below is
    // reached by this suite's own answer.
    const first = await send(PAID).end;
    assert.equal(first.type, 'chat/done', 'with no cap a paid prompt is sent');
    await keyward().update('spend.dailyCapUsd', CAP, vscode.ConfigurationTarget.Global);
    await waitFor('the cap in force', () => (api.config().spend.dailyCapUsd === CAP ? true : undefined));
  });

  suiteTeardown(async () => {
    await keyward().update('spend.dailyCapUsd', undefined, vscode.ConfigurationTarget.Global);
  });

  test('today’s spend shows in the router tooltip against the cap', async () => {
    await waitFor('today’s spend in the tooltip', () =>
      /Spent today in this workspace: \$\d+\.\d+ of the \$0\.000001 daily cap/.test(
        api.statusView('router')?.tooltip ?? '',
      )
        ? true
        : undefined,
    );
  });

  test('past the cap a paid prompt is held on the chat’s card; "Send anyway" sends it, "Use a free model" sends to the free router', async () => {
    const held = send(PAID);
    const notice = await held.end;
    assert.equal(notice.type, 'chat/spendCap', 'held back, not sent and not blocked by a dialog');
    assert.ok(notice.type === 'chat/spendCap');
    assert.equal(notice.cap, '$0.000001');
    assert.match(notice.spent, /^\$\d+\.\d+$/);
    assert.deepEqual(notice.free, { service: 'router', model: FREE });
    assert.equal(startedModel(held.requestId), undefined, 'nothing was started for the held prompt');

    const anyway = send(PAID, true);
    assert.equal((await anyway.end).type, 'chat/done');
    assert.equal(startedModel(anyway.requestId), PAID);

    const free = send(FREE);
    assert.equal((await free.end).type, 'chat/done', 'a free model is never held back');
    assert.equal(startedModel(free.requestId), FREE);
  });

  test('through vscode.lm, past the cap a paid model fails naming the cap and today’s spend; a free model answers', async () => {
    const models = await waitFor('Keyward’s router models in vscode.lm', async () => {
      const all = await vscode.lm.selectChatModels({ vendor: 'keyward' });
      return all.some((m) => m.id === `router/${PAID}`) && all.some((m) => m.id === `router/${FREE}`) ? all : undefined;
    });
    const paid = models.find((m) => m.id === `router/${PAID}`)!;
    const free = models.find((m) => m.id === `router/${FREE}`)!;
    await assert.rejects(
      async () => readAll(await paid.sendRequest([vscode.LanguageModelChatMessage.User('over the cap')])),
      (error: Error) => {
        assert.ok(error instanceof vscode.LanguageModelError, `a LanguageModelError, not ${error.constructor.name}`);
        assert.match(error.message, /daily cap of \$0\.000001 \(keyward\.spend\.dailyCapUsd\)/);
        assert.match(error.message, /today's spend in this workspace \(\$\d+\.\d+\)/);
        assert.match(error.message, /free model/);
        return true;
      },
    );
    assert.ok(
      (await readAll(await free.sendRequest([vscode.LanguageModelChatMessage.User('free is fine')]))).length > 0,
    );
  });
  test('20 requests at once through vscode.lm under a cap one answer passes: one is sent, the others refused', async () => {
    const spentText = /Spent today in this workspace: \$(\d+\.\d+)/.exec(api.statusView('router')?.tooltip ?? '')?.[1];
    assert.ok(spentText, 'today’s spend in the tooltip');
    // A cap just above today's spend (the tooltip rounds to millionths): any one paid answer passes it.
    const cap = Number(spentText) + 0.000002;
    await keyward().update('spend.dailyCapUsd', cap, vscode.ConfigurationTarget.Global);
    await waitFor('the new cap in force', () => (api.config().spend.dailyCapUsd === cap ? true : undefined));
    const paid = (await vscode.lm.selectChatModels({ vendor: 'keyward' })).find((m) => m.id === `router/${PAID}`)!;
    const marker = `parallel-${randomBytes(6).toString('hex')}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, async (_, i) =>
        readAll(await paid.sendRequest([vscode.LanguageModelChatMessage.User(`${marker} ${i}`)])),
      ),
    );
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && /daily cap/.test((o.reason as Error).message),
    ).length;
    const sent = (await admin<{ requests: { body?: unknown }[] }>('GET', '/requests')).requests.filter((r) =>
      JSON.stringify(r.body ?? {}).includes(marker),
    ).length;
    assert.deepEqual({ sent, refused }, { sent: 1, refused: 19 });
  });
});
