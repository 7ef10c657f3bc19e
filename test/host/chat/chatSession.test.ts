// The chat session's secret guard over the fake vscode: when SecretStorage cannot be read, a stored key of a
// free-form shape (an OpenAI-compatible service's) cannot be recognised in a prompt, so the guard fails closed:
// it asks before sending, and the log says why. Nothing is sent in silence.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type KeyMask, maskKey, maskKnownKeys } from '../../../src/shared/keyShapes.ts';
import type { HostMessage } from '../../../src/shared/protocol.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import type { GuardAnswer, GuardHit } from '../../../src/core/guards/secretGuard.ts';
import { ChatSession, type ChatSessionPorts } from '../../../src/host/chat/chatSession.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { FakeMemento, FakeSecrets, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

/** A key with no shape any rule knows, as a local server may hand out. */
const freeFormKey = () => `local${randomBytes(18).toString('base64url')}`;

function conversationStore() {
  return {
    conversationId: () => 'c1',
    turns: () => [],
    saveTurns: async () => undefined,
    choice: () => ({ service: 'router', selectedModel: { router: 'm', direct: 'm', compatible: 'm' } }),
    attachmentRefs: () => [],
  };
}

/** A session over the fake vscode with what every test here needs; `ports` and `monitor` change what a test needs. */
function sessionUnderTest(ports: Partial<ChatSessionPorts> = {}, monitor: unknown = {}) {
  const posted: HostMessage[] = [];
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  const session = new ChatSession(monitor as never, keys, configuration, log, {
    extensionUri: fileUri('/ext') as never,
    store: conversationStore() as never,
    lastEditor: { current: undefined } as never,
    tap: (message) => posted.push(message),
    clearHistory: async () => undefined,
    exportHistory: async () => undefined,
    ...ports,
  });
  return {
    session,
    keys,
    log,
    posted,
    dispose() {
      session.dispose();
      configuration.dispose();
      log.dispose();
    },
  };
}

describe('chat session: the secret guard when SecretStorage cannot be read', () => {
  let secrets: FakeSecrets;
  let keys: KeyStore;
  let log: Log;
  let configuration: Configuration;
  let session: ChatSession;
  let asked: { names: string; unread: string | undefined; hits: readonly GuardHit[] }[];
  let answer: GuardAnswer;
  let posted: HostMessage[];

  beforeEach(() => {
    fake.state.logLines.length = 0;
    secrets = new FakeSecrets();
    keys = new KeyStore(secretPort(secrets as never), statePort(new FakeMemento() as never));
    log = new Log();
    configuration = new Configuration(log);
    asked = [];
    answer = 'cancel';
    posted = [];
    session = new ChatSession({} as never, keys, configuration, log, {
      extensionUri: fileUri('/ext') as never,
      store: conversationStore() as never,
      lastEditor: { current: undefined } as never,
      ask: async (names, hits, unread) => {
        asked.push({ names, unread, hits });
        return answer;
      },
      tap: (message) => {
        if (message.type.startsWith('chat/')) posted.push(message);
      },
      clearHistory: async () => undefined,
      exportHistory: async () => undefined,
    });
  });

  afterEach(() => {
    session.dispose();
    configuration.dispose();
    log.dispose();
  });

  it('asks before sending a prompt holding a stored free-form key it could not read, and cancel sends nothing', async () => {
    const key = freeFormKey();
    await keys.setKey('compatible', key);
    secrets.failing = true;
    await session.send('r1', 'compatible', 'm', `use ${key} please`, []);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.names).toBe('');
    expect(asked[0]!.unread).toMatch(/secret storage/);
    expect(posted.map((m) => m.type)).toEqual(['chat/blocked']);
    const logged = fake.state.logLines.join('\n');
    expect(logged).toMatch(/Secret guard: the stored keys could not be read \(.*locked collection/);
    expect(logged).not.toContain(key);
  });

  it('sends only when the person says so', async () => {
    secrets.failing = true;
    answer = 'redact';
    await session.send('r2', 'router', 'm', 'hello', []);
    expect(asked).toHaveLength(1);
    expect(posted[0]?.type).toBe('chat/started');
  });

  it('asks nothing when the stored keys were read and the prompt holds none (the control)', async () => {
    await keys.setKey('compatible', freeFormKey());
    await session.send('r3', 'router', 'm', 'hello', []);
    expect(asked).toEqual([]);
    expect(posted[0]?.type).toBe('chat/started');
  });

  it('tells the question where a key is: the attached file, at its line in that file', async () => {
    const key = routerKey();
    const attachment = {
      id: 'a1',
      fileName: 'src/config.ts',
      languageId: 'typescript',
      startLine: 10,
      endLine: 11,
      text: `// settings\nconst k = "${key}";\n`,
    };
    await session.send('r5', 'router', 'm', 'why does this fail?', [attachment]);
    expect(asked.map((a) => a.hits.map((h) => [h.file, h.fileLine]))).toEqual([[['src/config.ts', 11]]]);
    expect(posted.map((m) => m.type)).toEqual(['chat/blocked']);
  });

  it('still recognises the stored free-form key by its value when SecretStorage works', async () => {
    const key = freeFormKey();
    await keys.setKey('compatible', key);
    await session.send('r4', 'compatible', 'm', `use ${key} please`, []);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.names).toContain('the key stored in Keyward');
    expect(asked[0]!.unread).toBeUndefined();
  });
});

describe('chat session: links from the webview', () => {
  it('opens https links, and drops command:, file: and vscode: links with a log line as other refused messages get', async () => {
    fake.state.logLines.length = 0;
    fake.state.opened.length = 0;
    const { session, dispose } = sessionUnderTest();
    try {
      for (const url of ['command:workbench.action.terminal.new', 'file:///etc/passwd', 'vscode://some.extension/x'])
        session.handleMessage({ type: 'link/open', url });
      session.handleMessage({ type: 'link/open', url: 'https://example.test/page' });
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(fake.state.opened).toEqual(['https://example.test/page']);
      const dropped = fake.state.logLines.filter((l) => l.includes('Dropped a link/open message'));
      expect(dropped).toEqual([
        expect.stringMatching(/^\[warn\] .*only https links open \(this one was command:\)/),
        expect.stringMatching(/this one was file:/),
        expect.stringMatching(/this one was vscode:/),
      ]);
      expect(dropped.join('\n')).not.toContain('passwd');
    } finally {
      dispose();
    }
  });
});

describe('chat session: what the webview learns of stored keys', () => {
  it('sends masks of the stored and rotated-out keys, never a key, and they mask the keys wherever they appear', async () => {
    const { keys, posted, dispose } = sessionUnderTest();
    try {
      const first = freeFormKey();
      const second = freeFormKey();
      await keys.setKey('compatible', first);
      await keys.setKey('compatible', second);
      const changed = posted.filter((m) => m.type === 'keys/changed');
      expect(changed).toHaveLength(2);
      const masks = (changed[1] as { keyMasks: KeyMask[] }).keyMasks;
      expect(JSON.stringify(posted)).not.toContain(first.slice(3, -4));
      expect(JSON.stringify(posted)).not.toContain(second.slice(3, -4));
      expect(maskKnownKeys(`a ${second} b ${first}`, masks)).toBe(`a ${maskKey(second)} b ${maskKey(first)}`);
    } finally {
      dispose();
    }
  });
});

// Issue 21: an edited message sent again continues the conversation from it; what it replaced is kept for an
// in-view Undo, which puts the conversation back exactly as it was.
describe('chat session: Edit-and-resend and its Undo', () => {
  const turn = (id: string, role: 'user' | 'assistant', text: string) =>
    ({ id, role, text, service: 'router', model: 'm', status: 'done' }) as const;
  const before = [
    turn('u1', 'user', 'one'),
    turn('a1', 'assistant', 'A'),
    turn('u2', 'user', 'two'),
    turn('a2', 'assistant', 'B'),
  ];

  it('sends from the edited message, stores the conversation cut there, and Undo restores the turns it replaced', async () => {
    let saved: unknown[] = [...before];
    const { session, posted, dispose } = sessionUnderTest(
      {
        store: {
          ...conversationStore(),
          turns: () => saved,
          saveTurns: async (turns: unknown[]) => {
            saved = turns;
          },
        } as never,
      },
      // No service answers here: the answer fails, which is stored like any other end.
      { client: async () => undefined, unavailable: () => new Error('no service in this test') },
    );
    try {
      await session.send('r1', 'router', 'm', 'two, edited', [], undefined, 'u2');
      const started = posted.find((m) => m.type === 'chat/started');
      expect(started).toMatchObject({ replaced: { fromTurnId: 'u2', count: 2 } });
      expect((saved as { id: string; text: string }[]).map((t) => t.text).slice(0, 3)).toEqual([
        'one',
        'A',
        'two, edited',
      ]);
      expect(saved).toHaveLength(4);
      session.handleMessage({ type: 'history/undoEdit' });
      await vi.waitFor(() => expect(posted.at(-1)?.type).toBe('panel/state'));
      expect(saved).toEqual(before);
      // A second Undo finds nothing to undo: nothing is stored or posted.
      const count = posted.length;
      saved = [...before, turn('u3', 'user', 'three')];
      await (session as unknown as { undoEdit(): Promise<void> }).undoEdit();
      expect(saved).toHaveLength(5);
      expect(posted).toHaveLength(count);
    } finally {
      dispose();
    }
  });
});

describe("chat session: Clear's Undo in the chat", () => {
  it('offers Undo in an open chat and runs it once from there; with no chat open it says so', async () => {
    const { session, posted, dispose } = sessionUnderTest();
    let undone = 0;
    const undo = async () => void undone++;
    try {
      // No chat to show it in: the caller falls back to a notification.
      expect(session.offerClearUndo('Tide tables', undo)).toBe(false);
      expect(posted).toEqual([]);
      // An open chat, as far as the session can tell (the fake vscode builds no webview page).
      const open = { post() {}, dispose() {} };
      (session as unknown as { connections: Set<unknown> }).connections.add(open);
      expect(session.offerClearUndo('Tide tables', undo)).toBe(true);
      expect(posted).toContainEqual({ type: 'history/undoable', title: 'Tide tables' });
      session.handleMessage({ type: 'history/undoClear' });
      session.handleMessage({ type: 'history/undoClear' });
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(undone).toBe(1);
    } finally {
      dispose();
    }
  });
});
