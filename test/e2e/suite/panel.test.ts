// The prompt panel's host side in the real host: the send path the webview
// uses, validated messages, stop, retries, the secret guard, history.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import type { Attachment, HostMessage } from '../../../src/shared/protocol.ts';
import { PROBES } from '../harness/leakCheck.ts';
import { PATIENCE, activateKeyward, admin, e2eEnv, leakKey, waitFor } from './env.ts';

let api: KeywardTestApi;
const id = () => randomBytes(6).toString('hex');

function messages(requestId: string): HostMessage[] {
  return api.panelProbe.sent.filter((m) => 'requestId' in m && m.requestId === requestId);
}

async function send(
  service: 'router' | 'direct',
  model: string,
  prompt: string,
  attachments: Attachment[] = [],
): Promise<{ requestId: string; done: Promise<HostMessage> }> {
  const requestId = id();
  api.panel.handleMessage({ type: 'chat/send', requestId, service, model, prompt, attachments });
  const done = new Promise<HostMessage>((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const last = messages(requestId).find(
        (m) => m.type === 'chat/done' || m.type === 'chat/error' || m.type === 'chat/blocked',
      );
      if (last) {
        clearInterval(timer);
        resolve(last);
      } else if (Date.now() - started > PATIENCE) {
        clearInterval(timer);
        reject(new Error(`no end for ${requestId}`));
      }
    }, 50);
  });
  return { requestId, done };
}

suite('prompt panel', () => {
  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    await vscode.commands.executeCommand('keyward.setDirectKey', { key: e2eEnv().sandboxKeys.direct, quiet: true });
    await vscode.commands.executeCommand('keyward.clearHistory');
    await vscode.commands.executeCommand('keyward.openPanel');
  });

  test('a malformed message from the webview is dropped', () => {
    const before = api.panelProbe.sent.length;
    api.panel.handleMessage({
      type: 'chat/send',
      requestId: 'x',
      service: 'evil',
      model: 'm',
      prompt: 'p',
      attachments: [],
    });
    api.panel.handleMessage({ type: 'key/read' });
    assert.equal(api.panelProbe.sent.length, before);
    assert.ok(api.logLines().some((l) => /Dropped a malformed message/.test(l)));
  });

  test('streams an answer from the routing service: started, chunks, one done with model, tokens and cost', async () => {
    const { requestId, done } = await send('router', 'openai/gpt-4o-mini', 'panel router');
    const end = await done;
    assert.equal(end.type, 'chat/done');
    const kinds = messages(requestId).map((m) => m.type);
    assert.equal(kinds[0], 'chat/started');
    assert.ok(kinds.includes('chat/chunk'));
    assert.equal(kinds.filter((k) => k === 'chat/done' || k === 'chat/error').length, 1);
    const turn = (end as Extract<HostMessage, { type: 'chat/done' }>).turn;
    assert.equal(turn.model, 'openai/gpt-4o-mini');
    assert.ok(turn.usage && turn.usage.outputTokens > 0);
    assert.ok((turn.costUsd ?? 0) > 0);
  });

  test('a free model reports the free count after the request', async () => {
    const end = (await (
      await send('router', 'openrouter/free', 'free one')
    ).done) as Extract<HostMessage, { type: 'chat/done' }>;
    assert.equal(end.type, 'chat/done');
    assert.match(end.turn.model, /:free$/);
    assert.ok(end.turn.free && end.turn.free.limit === 1000 && end.turn.free.used >= 1);
  });

  test('streams from the direct service and continues the conversation', async () => {
    const first = (await (
      await send('direct', 'gpt-4o-mini', 'direct one')
    ).done) as Extract<HostMessage, { type: 'chat/done' }>;
    assert.equal(first.type, 'chat/done');
    assert.match(first.turn.responseId ?? '', /^resp_/);
    const second = (await (
      await send('direct', 'gpt-4o-mini', 'direct two')
    ).done) as Extract<HostMessage, { type: 'chat/done' }>;
    assert.equal(second.type, 'chat/done');
    assert.ok(second.turn.usage!.inputTokens > first.turn.usage!.inputTokens);
  });

  test('Stop aborts the request and keeps what arrived', async () => {
    await admin('POST', '/config', { tokenDelayMs: 40, answerTokens: 200 });
    try {
      const { requestId, done } = await send('router', 'openai/gpt-4o-mini', 'long answer please');
      await waitFor('the first chunk', () =>
        messages(requestId).some((m) => m.type === 'chat/chunk') ? true : undefined,
      );
      api.panel.handleMessage({ type: 'chat/stop', requestId });
      const end = (await done) as Extract<HostMessage, { type: 'chat/error' }>;
      assert.equal(end.type, 'chat/error');
      assert.equal(end.turn.status, 'cancelled');
      assert.equal(end.turn.error?.kind, 'cancelled');
      assert.ok(end.turn.text.length > 0);
    } finally {
      await admin('POST', '/config', { tokenDelayMs: 5, answerTokens: 12 });
    }
  });

  test('in_flight_budget: the panel is told to count down, then the retry succeeds', async () => {
    const { id: account } = await admin<{ id: string }>('POST', '/router/accounts', { name: 'panel' });
    await admin('POST', `/router/accounts/${account}/purchase`, { amount: 1 });
    await admin('POST', `/router/accounts/${account}/spend`, { amount: 0.75 });
    const { key } = await admin<{ key: string }>('POST', '/router/keys', {
      accountId: account,
      name: 'panel',
      expiresIn: '7d',
      limit: 1,
    });
    await vscode.commands.executeCommand('keyward.setRouterKey', { key, quiet: true });
    await admin('POST', '/config', { tokenDelayMs: 25, answerTokens: 30, inFlightRetryAfterSeconds: 1 });
    try {
      const first = await send('router', 'openai/gpt-4o', 'first big');
      await new Promise((r) => setTimeout(r, 150));
      const second = await send('router', 'openai/gpt-4o', 'second big');
      const [a, b] = await Promise.all([first.done, second.done]);
      assert.equal(a.type, 'chat/done');
      assert.equal(b.type, 'chat/done');
      const retry = messages(second.requestId).find((m) => m.type === 'chat/retrying') as
        Extract<HostMessage, { type: 'chat/retrying' }> | undefined;
      assert.ok(retry, 'a chat/retrying message');
      assert.equal(retry.kind, 'in_flight_budget');
      assert.equal(retry.delayMs, 1000);
    } finally {
      await admin('POST', '/config', { tokenDelayMs: 5, answerTokens: 12, inFlightRetryAfterSeconds: 2 });
      await vscode.commands.executeCommand('keyward.setRouterKey', {
        key: e2eEnv().sandboxKeys.routerFunded,
        quiet: true,
      });
    }
  });

  test('free_limit_day: an error card with the reset, never resent on its own', async () => {
    const { id: account } = await admin<{ id: string }>('POST', '/router/accounts', { name: 'free' });
    const { key } = await admin<{ key: string }>('POST', '/router/keys', {
      accountId: account,
      name: 'free',
      expiresIn: '7d',
      limit: 1,
    });
    await admin('POST', `/router/accounts/${account}/free-requests`, { used: 50 });
    await vscode.commands.executeCommand('keyward.setRouterKey', { key, quiet: true });
    try {
      const { requestId, done } = await send('router', 'meta-llama/llama-3.3-70b-instruct:free', 'over the limit');
      const end = (await done) as Extract<HostMessage, { type: 'chat/error' }>;
      assert.equal(end.turn.error?.kind, 'free_limit_day');
      assert.ok((end.turn.error?.retryAfterSeconds ?? 0) > 0);
      assert.equal(end.prompt, 'over the limit');
      assert.equal(messages(requestId).filter((m) => m.type === 'chat/started').length, 1);
    } finally {
      await vscode.commands.executeCommand('keyward.setRouterKey', {
        key: e2eEnv().sandboxKeys.routerFunded,
        quiet: true,
      });
    }
  });

  test('the secret guard: cancel keeps the prompt and sends nothing; redact sends without the key', async () => {
    const key = ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');
    api.panelProbe.guardAnswer = 'cancel';
    try {
      const blocked = await send('router', 'openai/gpt-4o-mini', `why does ${key} fail?`);
      const end = (await blocked.done) as Extract<HostMessage, { type: 'chat/blocked' }>;
      assert.equal(end.type, 'chat/blocked');
      assert.equal(messages(blocked.requestId).filter((m) => m.type === 'chat/started').length, 0);
      api.panelProbe.guardAnswer = 'redact';
      const sent = await send('router', 'openai/gpt-4o-mini', `why does ${key} fail?`);
      const done = (await sent.done) as Extract<HostMessage, { type: 'chat/done' }>;
      assert.equal(done.type, 'chat/done');
      assert.ok(!JSON.stringify(api.panelProbe.sent).includes(key.slice(20)), 'the key reached the webview messages');
    } finally {
      api.panelProbe.guardAnswer = undefined;
    }
  });

  test('Ask About Selection attaches the selection, and code goes back into the editor below it', async () => {
    const uri = vscode.Uri.file(join(e2eEnv().workspace.folder, 'README.md'));
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    await vscode.commands.executeCommand('keyward.askAboutSelection');
    const attachment = [...api.panelProbe.sent].reverse().find((m) => m.type === 'attachment/add') as Extract<
      HostMessage,
      { type: 'attachment/add' }
    >;
    assert.equal(attachment.attachment.fileName, 'README.md');
    assert.equal(attachment.attachment.startLine, 1);
    assert.equal(attachment.attachment.endLine, 1);
    assert.equal(attachment.attachment.text, '# Sample project\n');
    api.panel.handleMessage({ type: 'code/insert', code: '<!-- inserted -->\n', mode: 'below' });
    await waitFor('the inserted line', () =>
      editor.document.lineCount > 1 && editor.document.lineAt(1).text === '<!-- inserted -->' ? true : undefined,
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('Ask About Selection with nothing selected attaches nothing unless the whole file is chosen', async () => {
    const file = join(e2eEnv().workspace.folder, e2eEnv().workspace.files.ignored!);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const before = api.panelProbe.sent.length;
    const asking = api.panel.askAboutSelection(editor);
    let settled = false;
    void asking.finally(() => {
      settled = true;
    });
    // The question is a quick pick; dismissing it is "attach nothing".
    await waitFor('the question to be dismissed', async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await new Promise((r) => setTimeout(r, 200));
      return settled ? true : undefined;
    });
    assert.equal(await asking, undefined);
    assert.equal(api.panelProbe.sent.slice(before).filter((m) => m.type === 'attachment/add').length, 0);
    const whole = await api.panel.askAboutSelection(editor, 'wholeFile');
    assert.equal(whole?.fileName, e2eEnv().workspace.files.ignored);
    assert.ok(whole?.text.includes(e2eEnv().workspace.keys.ignored!));
  });

  test('a restored chip is sent by reference: the host reads the file again, and what is saved and exported holds no key', async () => {
    const file = join(e2eEnv().workspace.folder, e2eEnv().workspace.files.ignored!);
    const key = e2eEnv().workspace.keys.ignored!;
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const attachment = (await api.panel.askAboutSelection(editor, 'wholeFile'))!;
    // What the webview keeps across a reload: the reference, not the text.
    const restored: Attachment = { ...attachment, text: '' };
    api.panelProbe.guardAnswer = 'redact';
    try {
      const end = (await (
        await send('router', 'openai/gpt-4o-mini', `${PROBES.turn}: what does this file set?`, [restored])
      ).done) as Extract<HostMessage, { type: 'chat/done' }>;
      assert.equal(end.type, 'chat/done');
      const started = [...api.panelProbe.sent].reverse().find((m) => m.type === 'chat/started') as Extract<
        HostMessage,
        { type: 'chat/started' }
      >;
      assert.match(started.user.attachments![0]!.text, /^OPENAI_API_KEY=\[redacted key sk-proj-…/);
    } finally {
      api.panelProbe.guardAnswer = undefined;
    }
    const target = vscode.Uri.file(join(e2eEnv().workspace.folder, 'exported-with-attachment.md'));
    await vscode.commands.executeCommand('keyward.exportHistory', target);
    const text = readFileSync(target.fsPath, 'utf8');
    assert.match(text, new RegExp(PROBES.turn));
    assert.ok(!text.includes(key), 'the export holds the key');
    leakKey(key);
  });

  test('the conversation is kept and exported as Markdown', async () => {
    const target = vscode.Uri.file(join(e2eEnv().workspace.folder, 'exported.md'));
    await vscode.commands.executeCommand('keyward.exportHistory', target);
    const text = readFileSync(target.fsPath, 'utf8');
    assert.match(text, /^# Keyward conversation/);
    assert.match(text, /## You \(router, openai\/gpt-4o-mini\)\n\npanel router/);
    assert.match(text, /## You \(direct, gpt-4o-mini\)\n\ndirect two/);
    // Each answer's tokens and cost, as the chat shows them under it (issue 31 item 21).
    assert.match(text, /\n_Tokens: \d+ in, \d+ out · Cost: \$\d+\.\d{6}_\n/);
  });
});
