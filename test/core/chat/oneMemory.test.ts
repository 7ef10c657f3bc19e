// One memory across services, over HTTP against the emulator: a conversation
// that moves from the routing service to the direct service (and back) sends
// what the other service said. The emulator counts the input it received
// (about four characters a token), so the usage it reports shows what arrived.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../src/shared/protocol.ts';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { DEFAULT_CONFIG, type KeywardConfig } from '../../../src/core/config.ts';
import { lastResponseId, promptTurns } from '../../../src/core/chat/conversation.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { runPrompt } from '../../../src/core/chat/promptRunner.ts';
import { promptTokenCount } from '../../emulator/answers.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

async function sandboxMonitor(): Promise<AccountMonitor> {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const keys = new KeyStore(
    {
      get: async (n) => secrets.get(n),
      store: async (n, v) => void secrets.set(n, v),
      delete: async (n) => void secrets.delete(n),
    },
    { get: <T>(n: string) => state.get(n) as T | undefined, update: async (n, v) => void state.set(n, v) },
  );
  await keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
  await keys.setKey('direct', bed.emulator.sandbox!.keys.direct);
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    router: { ...DEFAULT_CONFIG.router, baseUrl: bed.emulator.routerBaseUrl },
    direct: { ...DEFAULT_CONFIG.direct, baseUrl: bed.emulator.directBaseUrl },
    network: { ...DEFAULT_CONFIG.network, connectTimeoutMs: 2_000, idleTimeoutMs: 5_000 },
  };
  return new AccountMonitor({ keys, config: () => config, tier: () => 'Build', now: () => bed.emulator.clock.now() });
}

/** Sends `prompt` the way the chat does, and appends both turns to `history`. */
async function ask(monitor: AccountMonitor, history: ChatTurn[], service: ChatTurn['service'], prompt: string) {
  const model = service === 'router' ? 'openai/gpt-4o-mini' : 'gpt-4o-mini';
  const turns = promptTurns(history, prompt, []);
  const previousResponseId = service === 'direct' ? lastResponseId(history) : undefined;
  const result = await runPrompt(monitor, {
    service,
    model,
    turns,
    ...(previousResponseId ? { previousResponseId } : {}),
  });
  const id = String(history.length);
  history.push(
    { id: `u${id}`, role: 'user', text: prompt, service, model, status: 'done' },
    { id: `a${id}`, role: 'assistant', text: result.text, service, model, status: 'done', responseId: result.id },
  );
  return { turns, inputTokens: result.usage!.inputTokens };
}

describe('one memory across services', () => {
  it('sends the routing service turns to the direct service, and the direct turns back', async () => {
    const monitor = await sandboxMonitor();
    const history: ChatTurn[] = [];
    await ask(monitor, history, 'router', 'Name three ways an SSE stream can end, with a sentence on each one.');
    const routerAnswer = history[1]!.text;
    expect(routerAnswer.length).toBeGreaterThan(20);

    // The first direct prompt: the direct service has no response of its own to continue from,
    // so it must receive the routing service's question and answer as input.
    const toDirect = await ask(monitor, history, 'direct', 'Which one is the most common?');
    expect(toDirect.turns.map((t) => t.content)).toContain(routerAnswer);
    const all = toDirect.turns.map((t) => t.content).join('\n');
    expect(toDirect.inputTokens).toBe(promptTokenCount(all));
    expect(toDirect.inputTokens).toBeGreaterThan(promptTokenCount('Which one is the most common?') * 3);

    // Back on the routing service: it sees what the direct service said.
    const directAnswer = history[3]!.text;
    const back = await ask(monitor, history, 'router', 'Summarise.');
    expect(back.turns.map((t) => t.content)).toContain(directAnswer);
    expect(back.inputTokens).toBeGreaterThanOrEqual(promptTokenCount(back.turns.map((t) => t.content).join('\n')) - 8);

    // On the direct service after a routing turn: the whole history again, not its stale response id.
    const again = await ask(monitor, history, 'direct', 'Thanks.');
    expect(again.turns.map((t) => t.content)).toContain(history[5]!.text);
    expect(again.inputTokens).toBe(promptTokenCount(again.turns.map((t) => t.content).join('\n')));
  });

  it('continues the direct service from its own response while nothing came between', async () => {
    const monitor = await sandboxMonitor();
    const history: ChatTurn[] = [];
    const first = await ask(monitor, history, 'direct', 'First question about streams.');
    const second = await ask(monitor, history, 'direct', 'And a follow-up.');
    // Sent as a continuation: the stored response carries the first exchange.
    expect(lastResponseId(history.slice(0, 2))).toBe(history[1]!.responseId);
    expect(second.inputTokens).toBeGreaterThan(first.inputTokens);
  });
});
