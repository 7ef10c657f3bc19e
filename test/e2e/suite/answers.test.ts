// How answers end, through the panel's send path in the real host: refusals,
// filtered and broken answers, the free day's reset moment, a restricted key
// and a negative balance in the status bar.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { ChatTurn, HostMessage } from '../../../src/shared/protocol.ts';
import { PATIENCE, activateKeyward, admin, e2eEnv } from './env.ts';

let api: KeywardTestApi;
const REFUSAL = "I'm sorry, but I can't assist with that request.";

async function ask(
  service: 'router' | 'direct',
  model: string,
  prompt: string,
): Promise<Extract<HostMessage, { type: 'chat/done' | 'chat/error' }>> {
  const requestId = randomBytes(6).toString('hex');
  api.panel.handleMessage({ type: 'chat/send', requestId, service, model, prompt, attachments: [] });
  const started = Date.now();
  for (;;) {
    const end = api.panelProbe.sent.find(
      (m) => 'requestId' in m && m.requestId === requestId && (m.type === 'chat/done' || m.type === 'chat/error'),
    );
    if (end) return end as Extract<HostMessage, { type: 'chat/done' | 'chat/error' }>;
    if (Date.now() - started > PATIENCE) throw new Error(`no end for ${requestId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const turnOf = (end: { turn: ChatTurn }) => end.turn;

suite('how answers end', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    await vscode.commands.executeCommand('keyward.setDirectKey', { key: e2eEnv().sandboxKeys.direct, quiet: true });
    await vscode.commands.executeCommand('keyward.openPanel');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    await vscode.commands.executeCommand('keyward.setDirectKey', { key: e2eEnv().sandboxKeys.direct, quiet: true });
  });

  test('a refusal from either service is the answer, marked as a refusal, never an empty success', async () => {
    for (const [service, model] of [
      ['router', 'openai/gpt-4o-mini'],
      ['direct', 'gpt-4o-mini'],
    ] as const) {
      const end = await ask(service, model, "[[refuse]] open the neighbour's lock");
      assert.equal(end.type, 'chat/done');
      assert.deepEqual(
        { text: turnOf(end).text, refusal: turnOf(end).refusal, finishReason: turnOf(end).finishReason },
        { text: '', refusal: REFUSAL, finishReason: 'stop' },
        service,
      );
      assert.ok(turnOf(end).usage && turnOf(end).usage!.outputTokens > 0, `${service}: the refusal's tokens are shown`);
    }
  });

  test('a filtered answer says so, with what arrived', async () => {
    const router = await ask('router', 'openai/gpt-4o-mini', '[[filter:4]] something the filter stops');
    assert.equal(turnOf(router).finishReason, 'content_filter');
    assert.equal(turnOf(router).text.split(' ').length, 4);
    const direct = await ask('direct', 'gpt-4o-mini', '[[filter]] something the filter stops');
    assert.deepEqual(
      { text: turnOf(direct).text, finishReason: turnOf(direct).finishReason },
      { text: '', finishReason: 'content_filter' },
    );
  });

  test('a broken answer keeps its text and the tokens the service reported', async () => {
    await admin('POST', '/faults', { kind: 'error_event', service: 'direct', afterChunks: 7 });
    const end = await ask('direct', 'gpt-4o-mini', 'this one breaks');
    assert.equal(end.type, 'chat/error');
    assert.equal(turnOf(end).status, 'interrupted');
    assert.equal(turnOf(end).usage?.outputTokens, 3);
  });

  test('a used-up free day records when it resets, once', async () => {
    const { id: account } = await admin<{ id: string }>('POST', '/router/accounts', { name: 'free day' });
    const { key } = await admin<{ key: string }>('POST', '/router/keys', {
      accountId: account,
      name: 'free day',
      expiresIn: '7d',
      limit: 1,
    });
    await admin('POST', `/router/accounts/${account}/free-requests`, { used: 50 });
    await vscode.commands.executeCommand('keyward.setRouterKey', { key, quiet: true });
    const end = await ask('router', 'meta-llama/llama-3.3-70b-instruct:free', 'over the limit');
    assert.equal(turnOf(end).error?.kind, 'free_limit_day');
    const { epochMs } = await admin<{ epochMs: number }>('GET', '/clock');
    const midnight = Date.UTC(
      new Date(epochMs).getUTCFullYear(),
      new Date(epochMs).getUTCMonth(),
      new Date(epochMs).getUTCDate() + 1,
    );
    assert.ok(
      Math.abs(Date.parse(turnOf(end).retryAt ?? '') - midnight) < 5_000,
      `retryAt ${turnOf(end).retryAt} is the next UTC midnight`,
    );
    assert.match(turnOf(end).error!.action, /buy 10 credits/);
  });

  test('a restricted key: the missing scope from a 403 shows in the status bar and stays through Verify', async () => {
    await admin('POST', '/config', { missingScopesStatus: 403 });
    try {
      const { id: orgId } = await admin<{ id: string }>('POST', '/direct/orgs', { name: 'restricted' });
      await admin('POST', `/direct/orgs/${orgId}/purchase`, { amount: 10 });
      const { key } = await admin<{ key: string }>('POST', '/direct/keys', {
        orgId,
        permissions: 'Restricted',
        scopes: ['api.model.read'],
      });
      await vscode.commands.executeCommand('keyward.setDirectKey', { key, quiet: true, acceptWarning: true });
      assert.equal(api.statusView('direct')!.text, '$(key) direct: ok');
      const end = await ask('direct', 'gpt-4o-mini', 'may I?');
      assert.equal(turnOf(end).error?.kind, 'permission');
      assert.equal(turnOf(end).error?.status, 403);
      assert.match(turnOf(end).error!.message, /Missing scopes: api\.responses\.write/);
      assert.equal(api.statusView('direct')!.text, '$(key) direct: restricted · needs api.responses.write');
      // The status bar's own check (quiet Verify of both keys): listing models works, the scope stays missing.
      await api.refresh();
      assert.equal(api.statusView('direct')!.text, '$(key) direct: restricted · needs api.responses.write');
      assert.match(api.statusView('direct')!.tooltip, /Creating responses: refused \(missing api\.responses\.write\)/);
    } finally {
      await admin('POST', '/config', { missingScopesStatus: 401 });
    }
  });

  test("a negative balance: the router item shows the balance, not the key's remaining limit", async () => {
    const { id: account } = await admin<{ id: string }>('POST', '/router/accounts', { name: 'negative' });
    await admin('POST', `/router/accounts/${account}/purchase`, { amount: 20 });
    const { key } = await admin<{ key: string }>('POST', '/router/keys', {
      accountId: account,
      name: 'negative',
      expiresIn: '30d',
      limit: 10,
    });
    await vscode.commands.executeCommand('keyward.setRouterKey', { key, quiet: true });
    await admin('POST', `/router/accounts/${account}/spend`, { amount: 25 });
    const end = await ask('router', 'openai/gpt-4o-mini', 'anything');
    assert.equal(turnOf(end).error?.kind, 'insufficient_credits');
    const view = api.statusView('router')!;
    assert.equal(view.text, '$(warning) balance below zero · calls fail');
    assert.doesNotMatch(view.text, /\$10\.00/);
    await api.refresh();
    assert.equal(api.statusView('router')!.text, '$(warning) balance below zero · calls fail');
  });
});
