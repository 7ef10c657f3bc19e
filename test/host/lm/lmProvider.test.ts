// Keyward's language-model chat provider over the fake vscode and the emulator: the models of each service with a
// key (none without), streamed text and tool calls, cancellation, the secret guard (a key in any part stops the
// request before anything is sent, and the error names where it is), Keyward's error kinds as LanguageModelErrors,
// and the per-model settings sent on the wire. The real host runs the same in test/e2e/suite/lmProvider.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/account/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { ModelCatalog } from '../../../src/core/chat/modelCatalog.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeywardChatProvider, type KeywardModelInformation } from '../../../src/host/lm/chatProvider.ts';
import { Log } from '../../../src/host/log.ts';
import { ModelSettingsStore } from '../../../src/host/chat/modelSettingsStore.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey } from '../../emulator/keyFactory.ts';
import {
  CancellationError,
  FakeMemento,
  FakeSecrets,
  LanguageModelError,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
} from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

const token = (cancelled = false) => {
  const listeners: (() => void)[] = [];
  const t = {
    isCancellationRequested: cancelled,
    onCancellationRequested: (listener: () => void) => {
      listeners.push(listener);
      return { dispose: () => undefined };
    },
    cancel: () => {
      t.isCancellationRequested = true;
      listeners.forEach((l) => l());
    },
  };
  return t;
};

const user = (...content: unknown[]) => ({ role: 1, content, name: undefined });
const assistant = (...content: unknown[]) => ({ role: 2, content, name: undefined });

async function setUp(withKey = true) {
  await bed.admin('POST', '/reset', { sandbox: true });
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
  });
  fake.state.messages.length = 0;
  const log = new Log();
  const configuration = new Configuration(log);
  const memento = new FakeMemento();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
  if (withKey) await keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  const settings = new ModelSettingsStore(memento as never);
  const provider = new KeywardChatProvider({
    monitor,
    keys,
    catalog: new ModelCatalog(monitor),
    configuration,
    settings,
    log,
    manageCommand: 'keyward.manageLanguageModels',
  });
  return { provider, keys, settings, log };
}

async function run(
  provider: KeywardChatProvider,
  model: KeywardModelInformation,
  messages: unknown[],
  options: Record<string, unknown> = {},
  t = token(),
) {
  const parts: unknown[] = [];
  await provider.provideLanguageModelChatResponse(
    model,
    messages as never,
    { toolMode: 1, ...options } as never,
    { report: (p) => parts.push(p) },
    t as never,
  );
  return parts;
}

const bodies = () => bed.emulator.requests.filter((r) => r.body);

describe('language-model chat provider', () => {
  let provider: KeywardChatProvider;
  let mini: KeywardModelInformation;
  let env: Awaited<ReturnType<typeof setUp>>;
  beforeEach(async () => {
    env = await setUp();
    provider = env.provider;
    const models = await provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
    mini = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
  });

  it('lists the models of the services that have a key, with their limits and capabilities', async () => {
    const models = await provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
    expect(new Set(models.map((m) => m.family))).toEqual(new Set(['router']));
    expect(mini).toMatchObject({
      name: 'OpenAI: GPT-4o-mini',
      maxInputTokens: 128_000,
      maxOutputTokens: 16_384,
      capabilities: { toolCalling: true, imageInput: false },
    });
    expect(models.find((m) => m.model === 'anthropic/claude-sonnet-4.5')!.capabilities.imageInput).toBe(true);
  });

  it('offers nothing without a key, and asks nothing when silent', async () => {
    const { provider: bare } = await setUp(false);
    expect(await bare.provideLanguageModelChatInformation({ silent: true }, token() as never)).toEqual([]);
    expect(fake.state.messages).toEqual([]);
  });

  it('streams text, then the tool call, and answers the tool result', async () => {
    const tools = [{ name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' } }];
    const ask = user(new LanguageModelTextPart('find it [[tool]]'));
    const parts = await run(provider, mini, [ask], { tools });
    const call = parts.find((p) => p instanceof LanguageModelToolCallPart) as LanguageModelToolCallPart;
    expect(call).toMatchObject({ name: 'lookup', input: { prompt: 'find it' } });
    const answer = await run(
      provider,
      mini,
      [
        ask,
        assistant(call),
        user(new LanguageModelToolResultPart(call.callId, [new LanguageModelTextPart('found: 7')])),
      ],
      { tools },
    );
    expect(answer.map((p) => (p as LanguageModelTextPart).value).join('')).toBe('The tool said: found: 7');
  });

  it('sends nothing when a key is in a tool result, and names where it is', async () => {
    const key = directKey();
    const before = bodies().length;
    const error = await run(provider, mini, [
      user(new LanguageModelTextPart('hello')),
      assistant(new LanguageModelToolCallPart('c1', 'read', { path: '.env' })),
      user(new LanguageModelToolResultPart('c1', [new LanguageModelTextPart(`OPENAI_API_KEY=${key}`)])),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LanguageModelError);
    expect((error as LanguageModelError).code).toBe('Blocked');
    expect((error as Error).message).toContain('message 3, part 1 (tool result)');
    expect((error as Error).message).not.toContain(key);
    expect(bodies().length).toBe(before);
    expect(JSON.stringify(bed.emulator.requests)).not.toContain(key);
  });

  it('sends nothing when a stored key is in a message, whatever its shape', async () => {
    const stored = bed.emulator.sandbox!.keys.routerFunded;
    const before = bodies().length;
    const error = await run(provider, mini, [user(new LanguageModelTextPart(`my key is ${stored}`))]).catch(
      (e: unknown) => e,
    );
    expect((error as LanguageModelError).code).toBe('Blocked');
    expect((error as Error).message).toContain('message 1, part 1 (text)');
    expect(bodies().length).toBe(before);
  });

  it('a cancelled request ends as a CancellationError', async () => {
    await bed.admin('POST', '/config', { tokenDelayMs: 50 });
    const t = token();
    const pending = run(provider, mini, [user(new LanguageModelTextPart('long [[tokens:200]]'))], {}, t);
    setTimeout(() => t.cancel(), 150);
    await expect(pending).rejects.toBeInstanceOf(CancellationError);
    await bed.admin('POST', '/config', { tokenDelayMs: 0 });
  });

  it("maps Keyward's error kinds: a refused key is NoPermissions, with the kind's title and advice", async () => {
    await bed.admin('POST', '/reset', { sandbox: false });
    const error = await run(provider, mini, [user(new LanguageModelTextPart('hi'))]).catch((e: unknown) => e);
    expect((error as LanguageModelError).code).toBe('NoPermissions');
    expect((error as Error).message).toMatch(/key/i);
  });

  it('sends the per-model settings the model takes, and only those', async () => {
    await env.settings.set('router', 'openai/gpt-4o-mini', {
      temperature: 0.2,
      maxOutputTokens: 30,
      reasoningEffort: 'high',
    });
    await run(provider, mini, [user(new LanguageModelTextPart('hello'))]);
    const body = bodies().at(-1)!.body!;
    expect(body).toMatchObject({ temperature: 0.2, max_tokens: 30 });
    expect(body.reasoning).toBeUndefined();
  });

  it('estimates tokens at about four characters each', async () => {
    expect(await provider.provideTokenCount(mini, 'x'.repeat(40), token() as never)).toBe(10);
  });
});
