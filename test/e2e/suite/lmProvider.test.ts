// Keyward's models in the real host's language-model API (vscode.lm), against the emulator: selected by vendor,
// a request with a tool and a follow-up with its result, a cancelled request, and a key in a message that never
// reaches the service (the emulator records every request body; admin GET /requests reads them).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { KeywardTestApi } from '../../../src/extension.ts';
import { activateKeyward, admin, answerModelAccess, e2eEnv, leakKey, waitFor } from './env.ts';

interface Recorded {
  path: string;
  body?: Record<string, unknown>;
}

const recorded = async () => (await admin<{ requests: Recorded[] }>('GET', '/requests')).requests;

async function keywardModels(): Promise<vscode.LanguageModelChat[]> {
  return waitFor('Keyward models in vscode.lm', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'keyward' });
    return models.some((m) => m.id === 'router/openai/gpt-4o-mini') ? models : undefined;
  });
}

async function readAll(response: vscode.LanguageModelChatResponse) {
  let text = '';
  const calls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
  }
  return { text, calls };
}

suite('language-model chat provider', () => {
  let api: KeywardTestApi;
  /** Whether an earlier suite left a direct key: this suite removes it and puts the run's direct key back after. */
  let hadDirectKey = false;

  suiteSetup(async () => {
    api = (await activateKeyward()).exports as KeywardTestApi;
    // This suite calls vscode.lm as another extension would: the host refuses modal dialogs here, so the
    // one-time question is answered by script (the UI step "another extension asks" clicks the real one).
    answerModelAccess(api.dialogs, true);
    await vscode.commands.executeCommand('keyward.setRouterKey', {
      key: e2eEnv().sandboxKeys.routerFunded,
      quiet: true,
    });
    hadDirectKey = api.keyMetadata('direct') !== undefined;
    if (hadDirectKey) await vscode.commands.executeCommand('keyward.deleteDirectKey', true);
  });

  suiteTeardown(async () => {
    if (hadDirectKey && api.keyMetadata('direct') === undefined)
      await vscode.commands.executeCommand('keyward.setDirectKey', { key: e2eEnv().sandboxKeys.direct, quiet: true });
  });

  test('selects Keyward models by vendor and by family, with limits and capabilities from the model list, per service with a key', async () => {
    assert.equal(api.keyMetadata('direct'), undefined, 'this suite starts without a direct key');
    // Each model under its service (the id's first segment). The direct service has no key: it offers none (the
    // run's compatible server needs no key, and may). The list follows key changes, so the wait is for the state.
    const services = (models: readonly vscode.LanguageModelChat[]) => [
      ...new Set(models.map((m) => m.id.split('/')[0])),
    ];
    const models = await waitFor('Keyward’s router models and no direct ones', async () => {
      const all = await keywardModels();
      return services(all).includes('direct') ? undefined : all;
    });
    const mini = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
    assert.equal(mini.vendor, 'keyward');
    // The model's own family, as extensions select by it (Copilot's families are gpt-4o, gpt-4o-mini, …).
    assert.equal(mini.family, 'gpt-4o-mini');
    assert.equal(mini.maxInputTokens, 128_000);
    const byFamily = await vscode.lm.selectChatModels({ vendor: 'keyward', family: 'gpt-4o-mini' });
    assert.deepEqual(
      byFamily.map((m) => m.id),
      ['router/openai/gpt-4o-mini'],
    );
    const sonnet = await vscode.lm.selectChatModels({ family: 'claude-sonnet-4.5' });
    assert.ok(
      sonnet.some((m) => m.id === 'router/anthropic/claude-sonnet-4.5'),
      'selected by family alone, as another extension would',
    );
    assert.ok(!services(models).includes('direct'), `no direct models without a direct key`);

    // A direct key brings the direct service's models; deleting it takes them away again.
    const direct = async () =>
      (await vscode.lm.selectChatModels({ vendor: 'keyward' })).filter((m) => m.id.startsWith('direct/'));
    await vscode.commands.executeCommand('keyward.setDirectKey', { key: e2eEnv().sandboxKeys.direct, quiet: true });
    try {
      const withDirect = await waitFor('direct models once the direct key is stored', async () => {
        const all = await direct();
        return all.length > 0 ? all : undefined;
      });
      assert.ok(withDirect.every((m) => m.vendor === 'keyward'));
      // The direct list gives no context window: the stated fallback, the same family as the routed model.
      const directMini = withDirect.find((m) => m.id === 'direct/gpt-4o-mini')!;
      assert.equal(directMini.family, 'gpt-4o-mini');
      assert.equal(directMini.maxInputTokens, 32_768);
    } finally {
      await vscode.commands.executeCommand('keyward.deleteDirectKey', true);
    }
    await waitFor('no direct models once the direct key is deleted', async () =>
      (await direct()).length === 0 ? true : undefined,
    );
  });

  test('a request with a tool gets the tool call, and the follow-up with its result gets the answer', async () => {
    const mini = (await keywardModels()).find((m) => m.id === 'router/openai/gpt-4o-mini')!;
    const tools: vscode.LanguageModelChatTool[] = [
      { name: 'lookup', description: 'Looks a word up', inputSchema: { type: 'object', properties: {} } },
    ];
    const ask = vscode.LanguageModelChatMessage.User('define keyward [[tool]]');
    const first = await readAll(await mini.sendRequest([ask], { tools }));
    assert.equal(first.calls.length, 1);
    const call = first.calls[0]!;
    assert.equal(call.name, 'lookup');
    assert.deepEqual(call.input, { prompt: 'define keyward' });
    const second = await readAll(
      await mini.sendRequest(
        [
          ask,
          vscode.LanguageModelChatMessage.Assistant([call]),
          vscode.LanguageModelChatMessage.User([
            new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('a ward for keys')]),
          ]),
        ],
        { tools },
      ),
    );
    assert.equal(second.text, 'The tool said: a ward for keys');
    const body = (await recorded()).filter((r) => r.body).at(-1)!.body!;
    assert.deepEqual((body.messages as Record<string, unknown>[]).at(-1), {
      role: 'tool',
      tool_call_id: call.callId,
      content: 'a ward for keys',
    });
  });

  test('a cancelled request stops', async () => {
    const mini = (await keywardModels()).find((m) => m.id === 'router/openai/gpt-4o-mini')!;
    await admin('POST', '/config', { tokenDelayMs: 40 });
    try {
      const source = new vscode.CancellationTokenSource();
      const response = await mini.sendRequest(
        [vscode.LanguageModelChatMessage.User('long answer [[tokens:400]]')],
        {},
        source.token,
      );
      let text = '';
      await assert.rejects(async () => {
        for await (const chunk of response.text) {
          text += chunk;
          if (text.length > 0) source.cancel();
        }
        // A stream that ends after cancel without an error still must not hold the whole answer.
        if (text.split(' ').length < 400) throw new vscode.CancellationError();
      });
      assert.ok(text.split(' ').length < 400, 'the answer stopped before its end');
    } finally {
      await admin('POST', '/config', { tokenDelayMs: 0 });
    }
  });

  test('per-model settings are sent where the model takes them', async () => {
    const mini = (await keywardModels()).find((m) => m.id === 'router/openai/gpt-4o-mini')!;
    await api.modelSettings.set('router', 'openai/gpt-4o-mini', {
      temperature: 0.25,
      maxOutputTokens: 60,
      reasoningEffort: 'high',
    });
    try {
      await readAll(await mini.sendRequest([vscode.LanguageModelChatMessage.User('hello with settings')]));
      const body = (await recorded()).filter((r) => r.body).at(-1)!.body!;
      assert.equal(body.temperature, 0.25);
      assert.equal(body.max_tokens, 60);
      assert.equal(body.reasoning, undefined, 'the model list says this model takes no reasoning effort');
    } finally {
      await api.modelSettings.set('router', 'openai/gpt-4o-mini', {});
    }
  });

  test('a key in a message is never sent: the request fails naming where the key is', async () => {
    const mini = (await keywardModels()).find((m) => m.id === 'router/openai/gpt-4o-mini')!;
    const key = leakKey(e2eEnv().sandboxKeys.direct);
    // The emulator's record keeps earlier suites' requests with their Authorization headers, which hold the run's
    // keys (this key too: earlier suites stored it as the direct key), and status refreshes may add requests
    // meanwhile. So both messages carry a word of their own, looked for in every recorded body, and the key is
    // looked for in the bodies, what was sent as messages, not in the headers of requests it was meant for.
    const marker = `lm-guard-${randomBytes(6).toString('hex')}`;
    await assert.rejects(
      async () =>
        readAll(
          await mini.sendRequest([
            vscode.LanguageModelChatMessage.User(`hello ${marker}`),
            vscode.LanguageModelChatMessage.User(`here is my key ${key} ${marker}`),
          ]),
        ),
      (error: Error) => {
        assert.match(error.message, /message 2, part 1/);
        assert.ok(!error.message.includes(key), 'the error masks the key');
        return true;
      },
    );
    // A request that was sent is recorded before its answer: one more request through the same path shows the
    // record is up to date before looking.
    const after = `lm-after-${randomBytes(6).toString('hex')}`;
    await readAll(await mini.sendRequest([vscode.LanguageModelChatMessage.User(after)]));
    const bodies = (await recorded()).map((r) => JSON.stringify(r.body ?? {}));
    assert.ok(
      bodies.some((b) => b.includes(after)),
      'the record holds the request sent after the guarded one',
    );
    assert.ok(!bodies.some((b) => b.includes(marker)), 'no request of the guarded conversation reached the service');
    assert.ok(!bodies.some((b) => b.includes(key)), 'the key is in no request body');
  });
  test('a key in a tool definition, in an SVG image, or split over two parts is never sent', async () => {
    const mini = (await keywardModels()).find((m) => m.id === 'router/openai/gpt-4o-mini')!;
    const key = leakKey(e2eEnv().sandboxKeys.direct);
    const marker = `lm-paths-${randomBytes(6).toString('hex')}`;
    const svg = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg"><text>${key}</text></svg>`);
    const attempts: [string, () => Thenable<vscode.LanguageModelChatResponse>][] = [
      [
        'tool 1 (deploy) definition',
        () =>
          mini.sendRequest([vscode.LanguageModelChatMessage.User(marker)], {
            tools: [{ name: 'deploy', description: `Deploys with ${key}`, inputSchema: { type: 'object' } }],
          }),
      ],
      [
        'message 1, part 2 (image)',
        () =>
          mini.sendRequest([
            vscode.LanguageModelChatMessage.User([
              new vscode.LanguageModelTextPart(marker),
              new vscode.LanguageModelDataPart(svg, 'image/svg+xml'),
            ]),
          ]),
      ],
      [
        'message 1, parts 2 to 3 (text)',
        () =>
          mini.sendRequest([
            vscode.LanguageModelChatMessage.User([
              new vscode.LanguageModelTextPart(marker),
              new vscode.LanguageModelTextPart(`token ${key.slice(0, 30)}`),
              new vscode.LanguageModelTextPart(key.slice(30)),
            ]),
          ]),
      ],
    ];
    for (const [where, send] of attempts)
      await assert.rejects(
        async () => readAll(await send()),
        (error: Error) => {
          assert.ok(error.message.includes(where), `${where} in ${error.message}`);
          assert.ok(!error.message.includes(key), 'the error masks the key');
          return true;
        },
      );
    const after = `lm-after-${randomBytes(6).toString('hex')}`;
    await readAll(await mini.sendRequest([vscode.LanguageModelChatMessage.User(after)]));
    const bodies = (await recorded()).map((r) => JSON.stringify(r.body ?? {}));
    assert.ok(bodies.some((b) => b.includes(after)));
    assert.ok(!bodies.some((b) => b.includes(marker)), 'none of the guarded requests reached the service');
  });

  test('another extension not allowed is refused before anything is sent, and asked once', async () => {
    // Sent by the caller extension installed next to Keyward (harness/callerExtension.ts): this suite's own requests
    // come from a file inside Keyward's folder, which VS Code names as Keyward's, and Keyward never asks about itself.
    await keywardModels();
    const asked: string[] = [];
    const access = await api.languageModelAccess();
    const allowed = access.decisions();
    // Forget the answer this suite gave, and answer no this time.
    for (const id of Object.keys(allowed)) await access.decide(id, undefined);
    answerModelAccess(api.dialogs, false, asked);
    try {
      const marker = `lm-denied-${randomBytes(6).toString('hex')}`;
      for (let i = 0; i < 2; i++)
        await assert.rejects(
          () => Promise.resolve(vscode.commands.executeCommand('keywardE2eCaller.send', marker)),
          (error: Error) => {
            assert.match(error.message, /is not allowed to use Keyward’s language models/);
            return true;
          },
        );
      assert.equal(asked.length, 1, `asked once: ${asked.join(', ')}`);
      assert.match(asked[0]!, /^Keyward E2E Caller \(keyward-e2e\.lm-caller\)$/);
      const bodies = (await recorded()).map((r) => JSON.stringify(r.body ?? {}));
      assert.ok(!bodies.some((b) => b.includes(marker)), 'nothing of the refused requests was sent');
    } finally {
      for (const id of Object.keys(access.decisions())) await access.decide(id, undefined);
      answerModelAccess(api.dialogs, true);
    }
  });
});
