// Issue 31 item 4: Regenerate asks the answer again from the context that produced it. Over HTTP against the
// emulator, through the chat session as the chat drives it: the request Regenerate makes carries the same messages
// (and so the same input tokens) as the one that produced the answer, never the old answer nor the prompt twice;
// the conversation keeps its turn count, and the old answer stays reachable as version 1 of 2.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn, HostMessage } from '../../../src/shared/protocol.ts';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { DEFAULT_CONFIG, type KeywardConfig } from '../../../src/core/config.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { answerVersions, versionPosition } from '../../../src/shared/answerVersions.ts';
import { ChatSession } from '../../../src/host/chat/chatSession.ts';
import { ConversationStore } from '../../../src/host/chat/conversationStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { promptTokenCount } from '../../emulator/answers.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets, fileUri } from '../fakeVscode.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

const MODEL = 'openai/gpt-4o-mini';

async function chatUnderTest() {
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  await keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    router: { ...DEFAULT_CONFIG.router, baseUrl: bed.emulator.routerBaseUrl },
    network: { ...DEFAULT_CONFIG.network, connectTimeoutMs: 2_000, idleTimeoutMs: 5_000 },
  };
  const monitor = new AccountMonitor({ keys, config: () => config, tier: () => 'Build', now: () => Date.now() });
  let turns: ChatTurn[] = [];
  const posted: HostMessage[] = [];
  const log = new Log();
  const configuration = new Configuration(log);
  const store = {
    conversationId: () => 'c1',
    turns: () => turns,
    saveTurns: async (next: ChatTurn[]) => {
      turns = next;
    },
    choice: () => ({ service: 'router', selectedModel: { router: MODEL, direct: 'm', compatible: 'm' } }),
    attachmentRefs: () => [],
    // The real store's, over these turns.
    showVersion: (turnId: string, index: number, id: string) =>
      ConversationStore.prototype.showVersion.call(store, turnId, index, id),
  };
  const session = new ChatSession(monitor, keys, configuration, log, {
    extensionUri: fileUri('/ext') as never,
    store: store as never,
    lastEditor: { current: undefined } as never,
    tap: (message) => posted.push(message),
    clearHistory: async () => undefined,
    exportHistory: async () => undefined,
  });
  const chatRequests = () => bed.emulator.requests.filter((r) => r.path.endsWith('/chat/completions') && r.body);
  return {
    session,
    posted,
    turns: () => turns,
    chatRequests,
    /** The messages a request carried, and the input tokens the emulator counted for them. */
    sent(index: number) {
      const messages = chatRequests().at(index)!.body!.messages as { role: string; content: string }[];
      return { messages, tokens: promptTokenCount(messages.map((m) => m.content).join('\n')) };
    },
    dispose() {
      session.dispose();
      configuration.dispose();
      log.dispose();
    },
  };
}

describe('Regenerate', () => {
  it('sends the context that produced the answer, replaces it in place, and keeps the old one as version 1 of 2', async () => {
    const chat = await chatUnderTest();
    try {
      for (const [i, prompt] of [
        'How do SSE streams end?',
        'And a broken one?',
        'Which is most common?',
        'Why?',
      ].entries())
        await chat.session.send(`r${i}`, 'router', MODEL, prompt, []);
      expect(chat.turns()).toHaveLength(8);
      const before = chat.turns();
      const original = chat.sent(-1);
      const last = before.at(-1)!;
      const firstInput = last.usage!.inputTokens;

      chat.session.handleMessage({
        type: 'chat/regenerate',
        requestId: 'again',
        turnId: last.id,
        service: 'router',
        model: MODEL,
      });
      await expect
        .poll(() => chat.posted.some((m) => m.type === 'chat/done' && m.requestId === 'again'), { timeout: 10_000 })
        .toBe(true);

      // What was sent: the same messages as the first time, so the same input tokens; not 10 turns, not the old answer.
      const again = chat.sent(-1);
      expect(again.messages).toEqual(original.messages);
      expect(again.messages.filter((m) => m.content === last.text)).toEqual([]);
      expect(again.tokens).toBe(original.tokens);
      const after = chat.turns();
      const regenerated = after.at(-1)!;
      expect(regenerated.usage!.inputTokens).toBe(firstInput);

      // In place: 8 turns still, the prompt not repeated, the new answer where the old one was.
      expect(after).toHaveLength(8);
      expect(after.slice(0, 7)).toEqual(before.slice(0, 7));
      expect(after.filter((t) => t.role === 'user' && t.text === 'Why?')).toHaveLength(1);
      const started = chat.posted.find((m) => m.type === 'chat/started' && m.requestId === 'again');
      expect(started).toMatchObject({ regenerates: last.id, user: { id: before[6]!.id } });

      // The old answer stays reachable: version 1 of 2, and showing it stores it as the answer the next prompt sees.
      expect(versionPosition(regenerated)).toEqual({ index: 1, count: 2 });
      expect(answerVersions(regenerated)[0]!.text).toBe(last.text);
      chat.session.handleMessage({ type: 'chat/showVersion', turnId: regenerated.id, index: 0 });
      await expect.poll(() => chat.turns().at(-1)!.text).toBe(last.text);
      expect(versionPosition(chat.turns().at(-1)!)).toEqual({ index: 0, count: 2 });
      expect(chat.posted.at(-1)).toMatchObject({ type: 'chat/turn', turn: { id: regenerated.id, text: last.text } });
    } finally {
      chat.dispose();
    }
  });

  it('retries a failed answer in the middle of a conversation in its place, leaving the turns after it alone', async () => {
    const chat = await chatUnderTest();
    try {
      await chat.session.send('r1', 'router', MODEL, 'first', []);
      // A refusal by the provider's moderation: an error no retry hides.
      bed.emulator.faults.add({ kind: 'moderation', service: 'router', path: '/chat/completions' }, 1);
      await chat.session.send('r2', 'router', MODEL, 'second', []);
      await chat.session.send('r3', 'router', MODEL, 'third', []);
      const before = chat.turns();
      const failed = before[3]!;
      expect(failed.status).toBe('error');
      chat.session.handleMessage({
        type: 'chat/regenerate',
        requestId: 'retry',
        turnId: failed.id,
        service: 'router',
        model: MODEL,
      });
      await expect
        .poll(() => chat.posted.some((m) => m.type === 'chat/done' && m.requestId === 'retry'), { timeout: 10_000 })
        .toBe(true);
      const sent = chat.sent(-1).messages.map((m) => m.content);
      expect(sent).toEqual(['first', before[1]!.text, 'second']);
      const after = chat.turns();
      expect(after).toHaveLength(6);
      expect(after[3]!.status).toBe('done');
      expect(after.slice(4)).toEqual(before.slice(4));
    } finally {
      chat.dispose();
    }
  });
});
