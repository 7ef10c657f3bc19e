// Keyward's language-model chat provider over the fake vscode and the emulator: the models of each service with a
// key (none without), streamed text and tool calls, cancellation, the secret guard (a key in any part stops the
// request before anything is sent, and the error names where it is), Keyward's error kinds as LanguageModelErrors,
// the per-model settings sent on the wire, and the daily spend cap (a paid model past it is refused). The real host runs the same in test/e2e/suite/lmProvider.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { ModelCatalog } from '../../../src/core/chat/modelCatalog.ts';
import { SpendLedger } from '../../../src/core/account/spendLedger.ts';
import { SPEND_STATE_KEY, SpendGuard } from '../../../src/host/chat/spendGuard.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeywardChatProvider, type KeywardModelInformation } from '../../../src/host/lm/chatProvider.ts';
import { Log } from '../../../src/host/log.ts';
import { LanguageModelAccess } from '../../../src/host/lm/lmAccess.ts';
import { ModelSettingsStore } from '../../../src/host/chat/modelSettingsStore.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey } from '../../emulator/keyFactory.ts';
import {
  CancellationError,
  FakeMemento,
  LanguageModelDataPart,
  FakeSecrets,
  LanguageModelError,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
} from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { TOKEN_CORPUS } from '../../core/lm/tokenCorpus.ts';

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

async function setUp(withKey = true, withSpend = false, withAccess = false) {
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
  const spendState = new FakeMemento();
  const ledger = new SpendLedger({
    get: () => spendState.get(SPEND_STATE_KEY),
    set: (day) => spendState.update(SPEND_STATE_KEY, day),
  });
  const access = new LanguageModelAccess(new FakeMemento(), ledger, log, 'keyward.keyward');
  const provider = new KeywardChatProvider({
    monitor,
    keys,
    catalog: new ModelCatalog(monitor),
    configuration,
    settings,
    ...(withSpend ? { spend: new SpendGuard(ledger, configuration, keys, log) } : {}),
    ...(withAccess ? { access: async () => access } : {}),
    log,
    manageCommand: 'keyward.manageLanguageModels',
  });
  return { provider, keys, settings, log, ledger, access };
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
    expect(new Set(models.map((m) => m.service))).toEqual(new Set(['router']));
    // The family is the model's own, as VS Code and extensions select by it (Copilot's are `gpt-4o`, `gpt-4o-mini`).
    expect(mini).toMatchObject({
      family: 'gpt-4o-mini',
      name: 'OpenAI: GPT-4o-mini',
      maxInputTokens: 128_000,
      maxOutputTokens: 16_384,
      capabilities: { toolCalling: true, imageInput: false },
    });
    expect(models.find((m) => m.model === 'anthropic/claude-sonnet-4.5')!.capabilities.imageInput).toBe(true);
  });

  it('a model list without context lengths (the direct service’s) says so, and the window Keyward assumes', async () => {
    await env.keys.setKey('direct', bed.emulator.sandbox!.keys.direct);
    provider.refresh();
    const models = await provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
    const direct = models.find((m) => m.id === 'direct/gpt-4o-mini-2024-07-18' || m.id === 'direct/gpt-4o-mini')!;
    expect(direct).toMatchObject({ family: 'gpt-4o-mini', maxInputTokens: 32_768, maxOutputTokens: 4_096 });
    expect(direct.tooltip).toMatch(/The model list gives no context window: Keyward assumes 32768 tokens in, 4096 out/);
    // The routing service's list gives them: no such words there.
    expect(mini.tooltip).not.toMatch(/assumes/);
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

  it('sends nothing when a key is in a tool definition: its description or its input schema', async () => {
    const key = directKey();
    const before = bodies().length;
    for (const tools of [
      [{ name: 'deploy', description: `Deploys with ${key}`, inputSchema: { type: 'object' } }],
      [{ name: 'deploy', description: 'Deploys', inputSchema: { type: 'object', default: { token: key } } }],
    ]) {
      const error = await run(provider, mini, [user(new LanguageModelTextPart('hello'))], { tools }).catch(
        (e: unknown) => e,
      );
      expect((error as LanguageModelError).code).toBe('Blocked');
      expect((error as Error).message).toContain('tool 1 (deploy)');
      expect((error as Error).message).not.toContain(key);
    }
    expect(bodies().length).toBe(before);
    expect(JSON.stringify(bed.emulator.requests)).not.toContain(key);
  });

  it('sends nothing when a key is inside a data part: an SVG image, JSON data, or a PNG’s text chunk', async () => {
    const key = directKey();
    const before = bodies().length;
    const bytes = (text: string) => new TextEncoder().encode(text);
    // A PNG signature, then a tEXt chunk as image tools write their metadata: bytes around, the key in plain ASCII.
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...bytes(`tEXtComment\0${key}\0`),
      0,
      1,
    ]);
    for (const part of [
      new LanguageModelDataPart(
        bytes(`<svg xmlns="http://www.w3.org/2000/svg"><text>${key}</text></svg>`),
        'image/svg+xml',
      ),
      new LanguageModelDataPart(bytes(JSON.stringify({ token: key })), 'application/json'),
      new LanguageModelDataPart(png, 'image/png'),
    ]) {
      const error = await run(provider, mini, [user(new LanguageModelTextPart('look'), part)]).catch((e: unknown) => e);
      expect((error as LanguageModelError).code, part.mimeType).toBe('Blocked');
      expect((error as Error).message).toContain('message 1, part 2');
      expect((error as Error).message).not.toContain(key);
    }
    expect(bodies().length).toBe(before);
    expect(JSON.stringify(bed.emulator.requests)).not.toContain(key);
    expect(JSON.stringify(bed.emulator.requests)).not.toContain(Buffer.from(key).toString('base64').slice(0, 40));
  });

  it('sends nothing when the stored key is split over two parts, which the wire joins back together', async () => {
    const stored = bed.emulator.sandbox!.keys.routerFunded;
    const before = bodies().length;
    const error = await run(provider, mini, [
      user(new LanguageModelTextPart(`my key is ${stored.slice(0, 20)}`), new LanguageModelTextPart(stored.slice(20))),
    ]).catch((e: unknown) => e);
    expect((error as LanguageModelError).code).toBe('Blocked');
    expect((error as Error).message).toContain('message 1, parts 1 to 2 (text)');
    expect(bodies().length).toBe(before);
  });

  it('a key split between the last part of one message and the first of the next is not sent either', async () => {
    const key = directKey();
    const before = bodies().length;
    const error = await run(provider, mini, [
      user(new LanguageModelTextPart(`token ${key.slice(0, 30)}`)),
      user(new LanguageModelTextPart(key.slice(30))),
    ]).catch((e: unknown) => e);
    expect((error as LanguageModelError).code).toBe('Blocked');
    expect((error as Error).message).toContain('message 1, part 1 to message 2, part 1');
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

  it('past the daily spend cap a paid model is refused with a Blocked error naming the cap; a free model answers, and costs count', async () => {
    fake.state.settings['keyward.spend.dailyCapUsd'] = 0.000005;
    try {
      const capped = await setUp(true, true);
      const models = await capped.provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
      const paid = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
      const free = models.find((m) => m.id === 'router/openrouter/free')!;
      await run(capped.provider, paid, [user(new LanguageModelTextPart('first'))]);
      await vi.waitFor(() => expect(capped.ledger.today().totalUsd).toBeGreaterThan(0));
      const before = bodies().length;
      const error = await run(capped.provider, paid, [user(new LanguageModelTextPart('second'))]).catch(
        (e: unknown) => e,
      );
      expect((error as LanguageModelError).code).toBe('Blocked');
      expect((error as Error).message).toMatch(
        /today's spend in this workspace \(\$0\.\d+\) has reached the daily cap of \$0\.000005 \(keyward\.spend\.dailyCapUsd\)/,
      );
      expect((error as Error).message).toContain('router/openrouter/free');
      expect(bodies().length).toBe(before);
      const parts = await run(capped.provider, free, [user(new LanguageModelTextPart('free'))]);
      expect(parts.length).toBeGreaterThan(0);
    } finally {
      delete fake.state.settings['keyward.spend.dailyCapUsd'];
    }
  });

  it('20 requests at once under a tiny cap: one goes, the rest are refused before sending, and the spend stays within one answer of the cap', async () => {
    const cap = 0.000005;
    fake.state.settings['keyward.spend.dailyCapUsd'] = cap;
    try {
      const capped = await setUp(true, true);
      const models = await capped.provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
      const paid = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
      const before = bodies().length;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          run(capped.provider, paid, [user(new LanguageModelTextPart(`at once ${i}`))]),
        ),
      );
      const sent = bodies().length - before;
      const answered = outcomes.filter((o) => o.status === 'fulfilled').length;
      const refused = outcomes.filter(
        (o) => o.status === 'rejected' && (o.reason as LanguageModelError).code === 'Blocked',
      ).length;
      expect({ sent, answered, refused }).toEqual({ sent: 1, answered: 1, refused: 19 });
      // Refused while the first was under way: the error says its largest cost is what reached the cap.
      const reason = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason as Error;
      expect(reason.message).toMatch(
        /today's spend in this workspace \(\$0\.00\) and the most that the requests still under way may cost \(\$0\.\d+\) reach the daily cap of \$0\.000005/,
      );
      // The one answer's cost is settled in the ledger: the day spent the cap plus at most that one answer.
      await vi.waitFor(() => expect(capped.ledger.today().totalUsd).toBeGreaterThan(0));
      expect(capped.ledger.today().totalUsd).toBeLessThan(2 * cap);
    } finally {
      delete fake.state.settings['keyward.spend.dailyCapUsd'];
    }
  });

  it('a failed request releases what it reserved: under a tiny cap the next one still goes', async () => {
    fake.state.settings['keyward.spend.dailyCapUsd'] = 0.000005;
    try {
      const capped = await setUp(true, true);
      const models = await capped.provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
      const paid = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
      await bed.admin('POST', '/faults', { kind: 'moderation', service: 'router', count: 1 });
      const failed = await run(capped.provider, paid, [user(new LanguageModelTextPart('flagged'))]).catch(
        (e: unknown) => e,
      );
      expect((failed as LanguageModelError).code).toBe('Blocked');
      expect((failed as Error).message).not.toMatch(/daily cap/);
      expect(capped.ledger.today().totalUsd).toBe(0);
      const parts = await run(capped.provider, paid, [user(new LanguageModelTextPart('then answers'))]);
      expect(parts.length).toBeGreaterThan(0);
      await vi.waitFor(() => expect(capped.ledger.today().totalUsd).toBeGreaterThan(0));
    } finally {
      delete fake.state.settings['keyward.spend.dailyCapUsd'];
    }
  });

  describe('another extension’s requests', () => {
    const from = (requestInitiator: string) => ({ requestInitiator });

    it('are asked about once per extension, before anything is sent: Don’t Allow refuses and is remembered', async () => {
      const guarded = await setUp(true, true, true);
      const models = await guarded.provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
      const paid = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
      const before = bodies().length;
      fake.state.answers.push("Don't Allow");
      const outcomes = await Promise.allSettled(
        [1, 2, 3].map(() => run(guarded.provider, paid, [user(new LanguageModelTextPart('hi'))], from('other.ext'))),
      );
      const asked = fake.state.messages.filter((m) => m.text.includes('wants to use Keyward’s language models'));
      expect(asked).toHaveLength(1);
      expect(asked[0]!.items).toEqual(['Allow', "Don't Allow"]);
      // The log says when the question went up, then the answer: how long a question waited shows there.
      const said = fake.state.logLines.filter((l) => l.includes('other.ext'));
      expect(said.slice(0, 2)).toEqual([
        "[info] Language models: asking whether other.ext may use Keyward's models.",
        '[info] Language models: other.ext refused.',
      ]);
      for (const o of outcomes) {
        expect(o.status).toBe('rejected');
        expect(((o as PromiseRejectedResult).reason as LanguageModelError).code).toBe('NoPermissions');
        expect(((o as PromiseRejectedResult).reason as Error).message).toContain('other.ext is not allowed');
      }
      expect(bodies().length).toBe(before);
      // Remembered: the next request is refused without asking again.
      await run(guarded.provider, paid, [user(new LanguageModelTextPart('again'))], from('other.ext')).catch(
        () => undefined,
      );
      expect(fake.state.messages.filter((m) => m.text.includes('wants to use'))).toHaveLength(1);
      expect(guarded.access.decisions()).toEqual({ 'other.ext': { allowed: false, label: 'other.ext' } });
    });

    it('Allow is remembered and each extension’s spend is counted apart; VS Code itself and a closed dialog', async () => {
      const guarded = await setUp(true, true, true);
      const models = await guarded.provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
      const paid = models.find((m) => m.id === 'router/openai/gpt-4o-mini')!;
      fake.state.answers.push('Allow');
      await run(guarded.provider, paid, [user(new LanguageModelTextPart('one'))], from('other.ext'));
      await run(guarded.provider, paid, [user(new LanguageModelTextPart('two'))], from('other.ext'));
      // VS Code's own workbench ("core") is the person choosing the model: never asked.
      await run(guarded.provider, paid, [user(new LanguageModelTextPart('three'))], from('core'));
      expect(fake.state.messages.filter((m) => m.text.includes('wants to use'))).toHaveLength(1);
      await vi.waitFor(() => expect(guarded.ledger.today().byCaller?.core).toBeGreaterThan(0));
      const day = guarded.ledger.today();
      expect(day.byCaller!['other.ext']).toBeGreaterThan(day.byCaller!.core!);
      expect(guarded.access.spentToday('other.ext')).toBe(day.byCaller!['other.ext']);
      // A dialog closed without an answer refuses this once, and asks again next time.
      fake.state.answers.push(undefined);
      const closed = await run(guarded.provider, paid, [user(new LanguageModelTextPart('x'))], from('third.ext')).catch(
        (e: unknown) => e,
      );
      expect((closed as LanguageModelError).code).toBe('NoPermissions');
      expect(guarded.access.decisions()['third.ext']).toBeUndefined();
    });

    it('"Manage Language Model Access" lists each extension with its answer and today’s spend, and changes it', async () => {
      const guarded = await setUp(true, true, true);
      await guarded.access.decide('other.ext', true);
      await guarded.ledger.record('router', 0.0025, 'other.ext');
      fake.state.picks.push('other.ext', "Don't Allow");
      await guarded.access.manage();
      expect(fake.state.quickPicks.at(-2)).toEqual([
        { label: 'other.ext', description: 'allowed', detail: 'Spent today: $0.0025' },
      ]);
      expect(guarded.access.decisions()['other.ext']!.allowed).toBe(false);
      fake.state.picks.push('other.ext', 'Ask Again Next Time');
      await guarded.access.manage();
      expect(guarded.access.decisions()).toEqual({});
    });
  });

  it('counts tokens within 10 % of the family’s tokenizer (o200k_base for gpt-4o-mini), Chinese and code alike', async () => {
    for (const text of [TOKEN_CORPUS.chinese!, TOKEN_CORPUS.code!, TOKEN_CORPUS.russian!]) {
      const counted = await provider.provideTokenCount(mini, text, token() as never);
      expect(Math.abs(counted - o200k(text)) / o200k(text)).toBeLessThanOrEqual(0.1);
    }
    const message = user(new LanguageModelTextPart(TOKEN_CORPUS.prose!));
    const counted = await provider.provideTokenCount(mini, message as never, token() as never);
    expect(Math.abs(counted - o200k(TOKEN_CORPUS.prose!) - 4) / o200k(TOKEN_CORPUS.prose!)).toBeLessThanOrEqual(0.1);
  });

  it('says in the tooltip where the count is an estimate (a family with no known tokenizer), not where it is measured', async () => {
    const models = await provider.provideLanguageModelChatInformation({ silent: true }, token() as never);
    const claude = models.find((m) => m.model === 'anthropic/claude-sonnet-4.5')!;
    expect(claude.tooltip).toMatch(
      /Token counts are an estimate: Keyward knows no tokenizer for this model's family\./,
    );
    expect(mini.tooltip).not.toMatch(/estimate/);
  });
});
