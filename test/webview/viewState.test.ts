import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keyMaskOf, maskKey } from '../../src/shared/keyShapes.ts';
import type { ChatTurn } from '../../src/shared/protocol.ts';
import { defaultModel, perService } from '../../src/shared/serviceIds.ts';
import { ChatStore } from '../../src/webview/store.ts';
import { initialState, persistedView, reduce, restoredView } from '../../src/webview/viewState.ts';
import { routerKey } from '../emulator/keyFactory.ts';

const user: ChatTurn = {
  id: 'u1',
  role: 'user',
  text: 'hi',
  service: 'router',
  model: 'openrouter/free',
  status: 'done',
};
const assistant: ChatTurn = {
  id: 'a1',
  role: 'assistant',
  text: '',
  service: 'router',
  model: 'openrouter/free',
  status: 'streaming',
};

describe('panel state reducer', () => {
  it('streams chunks into the pending answer and settles on done', () => {
    let s = reduce(initialState(), { type: 'draft/set', text: 'hi' });
    s = reduce(s, { type: 'send/begin', requestId: 'r1' });
    s = reduce(s, { type: 'chat/started', requestId: 'r1', user, assistant });
    expect(s.draft).toBe('');
    s = reduce(s, { type: 'chat/chunk', requestId: 'r1', text: 'Hel' });
    s = reduce(s, { type: 'chat/chunk', requestId: 'other', text: 'ignored' });
    s = reduce(s, { type: 'chat/chunk', requestId: 'r1', text: 'lo' });
    expect(s.turns[1]!.text).toBe('Hello');
    s = reduce(s, { type: 'chat/done', requestId: 'r1', turn: { ...assistant, text: 'Hello', status: 'done' } });
    expect(s.pending).toBeNull();
    expect(s.turns.map((t) => t.status)).toEqual(['done', 'done']);
  });

  it('keeps the prompt in the box when a send fails or is blocked, and keeps what the person typed since', () => {
    let s = reduce(initialState(), { type: 'send/begin', requestId: 'r1' });
    s = reduce(s, { type: 'chat/started', requestId: 'r1', user, assistant });
    s = reduce(s, {
      type: 'chat/error',
      requestId: 'r1',
      prompt: 'hi',
      turn: {
        ...assistant,
        status: 'error',
        error: { kind: 'auth', status: 401, code: null, message: 'm', action: 'a', retryAfterSeconds: null },
      },
    });
    expect(s.draft).toBe('hi');
    expect(s.pending).toBeNull();
    s = reduce(s, { type: 'draft/set', text: 'new words' });
    s = reduce(s, { type: 'chat/blocked', requestId: 'r2', prompt: 'old' });
    expect(s.draft).toBe('new words');
    expect(reduce(initialState(), { type: 'chat/blocked', requestId: 'r2', prompt: 'secret prompt' }).draft).toBe(
      'secret prompt',
    );
  });

  it('the spend cap holds a send back: the card shows, the prompt stays in the box, and a started answer or Close clears it', () => {
    let s = reduce(initialState(), { type: 'draft/set', text: 'paid question' });
    s = reduce(s, { type: 'send/begin', requestId: 'r1' });
    s = reduce(s, {
      type: 'chat/spendCap',
      requestId: 'r1',
      spent: '$0.02',
      cap: '$0.01',
      free: { service: 'router', model: 'openrouter/free' },
    });
    expect(s.pending).toBeNull();
    expect(s.draft).toBe('paid question');
    expect(s.spendCap).toEqual({ spent: '$0.02', cap: '$0.01', free: { service: 'router', model: 'openrouter/free' } });
    expect(reduce(s, { type: 'spendCap/dismiss' }).spendCap).toBeNull();
    s = reduce(s, { type: 'send/begin', requestId: 'r2' });
    s = reduce(s, { type: 'chat/started', requestId: 'r2', user, assistant });
    expect(s.spendCap).toBeNull();
  });

  it('after Stop the answer stays as a stopped answer and the prompt box is not refilled', () => {
    let s = reduce(initialState(), { type: 'send/begin', requestId: 'r1' });
    s = reduce(s, { type: 'chat/started', requestId: 'r1', user, assistant });
    s = reduce(s, { type: 'chat/chunk', requestId: 'r1', text: 'so far' });
    s = reduce(s, {
      type: 'chat/error',
      requestId: 'r1',
      prompt: 'hi',
      turn: {
        ...assistant,
        text: 'so far',
        status: 'cancelled',
        error: { kind: 'cancelled', status: null, code: null, message: 'm', action: '', retryAfterSeconds: null },
      },
    });
    expect(s.draft).toBe('');
    expect(s.pending).toBeNull();
    expect(s.turns[1]).toMatchObject({ text: 'so far', status: 'cancelled' });
  });

  it('remembers the models chosen per service, newest first, and saves them', () => {
    let s = reduce(initialState(), { type: 'model/local', model: 'a/one' });
    s = reduce(s, { type: 'model/local', model: 'b/two' });
    s = reduce(s, { type: 'model/local', model: 'a/one' });
    s = reduce(s, { type: 'service/local', service: 'direct' });
    s = reduce(s, { type: 'model/local', model: 'gpt-5.4-mini' });
    expect(s.recentModels).toEqual({ ...perService(() => []), router: ['a/one', 'b/two'], direct: ['gpt-5.4-mini'] });
    expect(restoredView(persistedView(s)).recentModels).toEqual(s.recentModels);
    expect(restoredView({ recentModels: { router: [1, '', 'x'], direct: 'no' } }).recentModels).toEqual({
      ...perService(() => []),
      router: ['x'],
    });
  });

  it('takes the Enter setting from the host, on open and when it changes', () => {
    expect(initialState().enterSends).toBeUndefined();
    const s = reduce(initialState(), { type: 'settings/changed', enterSends: false });
    expect(s.enterSends).toBe(false);
  });

  it("keeps an interrupted answer's text", () => {
    let s = reduce(initialState(), { type: 'chat/started', requestId: 'r1', user, assistant });
    s = reduce(s, { type: 'chat/chunk', requestId: 'r1', text: 'partial' });
    s = reduce(s, {
      type: 'chat/error',
      requestId: 'r1',
      prompt: 'hi',
      turn: { ...assistant, text: 'partial', status: 'interrupted' },
    });
    expect(s.turns[1]).toMatchObject({ text: 'partial', status: 'interrupted' });
  });

  it('counts down a retry and clears it when text arrives', () => {
    let s = reduce(initialState(), { type: 'chat/started', requestId: 'r1', user, assistant });
    s = reduce(s, { type: 'chat/retrying', requestId: 'r1', kind: 'in_flight_budget', delayMs: 3000 }, 1000);
    expect(s.pending).toMatchObject({ retryUntil: 4000, retryKind: 'in_flight_budget' });
    s = reduce(s, { type: 'chat/chunk', requestId: 'r1', text: 'x' });
    expect(s.pending!.retryUntil).toBeNull();
  });

  it('adds and removes attachments, switches service and remembers the model per service', () => {
    const attachment = { id: 'x1', fileName: 'a.ts', languageId: 'typescript', startLine: 1, endLine: 2, text: 'a' };
    let s = reduce(initialState(), { type: 'attachment/add', attachment });
    s = reduce(s, { type: 'attachment/add', attachment });
    expect(s.attachments).toHaveLength(1);
    s = reduce(s, { type: 'attachment/remove', id: 'x1' });
    expect(s.attachments).toEqual([]);
    s = reduce(s, { type: 'service/local', service: 'direct' });
    s = reduce(s, { type: 'model/local', model: 'gpt-4o-mini' });
    expect(s.selectedModel).toEqual({ ...perService(defaultModel), direct: 'gpt-4o-mini' });
    s = reduce(s, { type: 'models/list', service: 'direct', models: null, canList: false });
    expect(s.canListModels.direct).toBe(false);
    expect(reduce(s, { type: 'history/cleared' }).turns).toEqual([]);
  });
});

describe('saved webview state (written to disk by VS Code)', () => {
  const key = routerKey();

  it('keeps attachments as references only and masks anything key-shaped', () => {
    let s = reduce(initialState(), {
      type: 'attachment/add',
      attachment: {
        id: 'x1',
        fileName: '.env',
        languageId: 'dotenv',
        startLine: 1,
        endLine: 3,
        text: `OPENROUTER_API_KEY=${key}\n`,
      },
    });
    s = reduce(s, { type: 'draft/set', text: `why is ${key} refused?` });
    s = reduce(s, { type: 'model/filter', text: key });
    const saved = persistedView(s);
    expect(JSON.stringify(saved)).not.toContain(key.slice(12));
    expect(saved.attachments).toEqual([
      { id: 'x1', fileName: '.env', languageId: 'dotenv', startLine: 1, endLine: 3, text: '' },
    ]);
    expect(saved.draft).toBe(`why is sk-or-v1-…${key.slice(-4)} refused?`);
  });

  it('masks a stored key of any shape in the saved draft, from the masks the host sends (never the key)', () => {
    // A compatible-service key has no fixed shape: a groq-style one and a free-form one, built at run time.
    const groq = ['gsk', randomBytes(39).toString('base64url').replace(/[-_]/g, 'x')].join('_');
    const free = `local${randomBytes(18).toString('hex')}`;
    const masks = [groq, free].map((k) => keyMaskOf(maskKey(k), k.length)!);
    let s = reduce(initialState(), {
      type: 'panel/state',
      state: { ...initialState(), keyMasks: masks.slice(0, 1) },
    });
    s = reduce(s, { type: 'draft/set', text: `GROQ_API_KEY="${groq}"\ncurl -H "x-key: ${free}"` });
    expect(persistedView(s).draft).not.toContain(groq.slice(4));
    expect(persistedView(s).draft).toContain(`GROQ_API_KEY="${maskKey(groq)}"`);
    // A key stored later reaches the webview with keys/changed, and the next save masks it too.
    s = reduce(s, { type: 'keys/changed', hasKey: s.hasKey, keyMasks: masks });
    const saved = JSON.stringify(persistedView(s));
    expect(saved).not.toContain(groq.slice(4));
    expect(saved).not.toContain(free.slice(3));
    expect(persistedView(s).draft).toBe(`GROQ_API_KEY="${maskKey(groq)}"\ncurl -H "x-key: ${maskKey(free)}"`);
    // What the person sees in the box is untouched.
    expect(s.draft).toContain(free);
  });

  it('filters what an older version saved when it is read back', () => {
    const old = {
      draft: 'hello',
      attachments: [
        { id: 'a', fileName: 'x.ts', languageId: 'typescript', startLine: 2, endLine: 4, text: `const k = "${key}";` },
      ],
      service: 'direct',
      selectedModel: { router: 'openrouter/free', direct: 'gpt-4o-mini' },
      modelFilter: '',
      turns: [{ text: key }],
    };
    const restored = restoredView(old);
    expect(JSON.stringify(restored)).not.toContain(key.slice(12));
    expect(restored).toEqual({
      draft: 'hello',
      attachments: [{ id: 'a', fileName: 'x.ts', languageId: 'typescript', startLine: 2, endLine: 4, text: '' }],
      service: 'direct',
      selectedModel: { ...perService(defaultModel), router: 'openrouter/free', direct: 'gpt-4o-mini' },
      modelFilter: '',
      recentModels: perService(() => []),
      drafts: {},
    });
    expect(restoredView(undefined)).toEqual({});
    expect(restoredView({ attachments: 'nope', selectedModel: 3 })).toMatchObject({
      attachments: [],
      selectedModel: { router: 'openrouter/free', direct: 'gpt-5.4-mini' },
    });
  });

  it('keeps a draft with its conversation: switching conversations swaps drafts, saved masked', () => {
    // Copilot Chat keeps each session's input (microsoft/vscode src/vs/workbench/contrib/chat/browser/chatInputPart.ts
    // saves the input state per session); issue 21 saw one box shared by every conversation.
    const show = (s: ReturnType<typeof initialState>, conversationId: string) =>
      reduce(s, { type: 'panel/state', state: { ...initialState(), conversationId } });
    let s = show(initialState(), 'A');
    s = reduce(s, { type: 'draft/set', text: `half a question with ${key}` });
    s = show(s, 'B');
    expect(s.draft).toBe('');
    s = reduce(s, { type: 'draft/set', text: 'a draft for B' });
    const saved = persistedView(s);
    expect(JSON.stringify(saved)).not.toContain(key.slice(12));
    expect(saved.drafts.A).toBe(`half a question with sk-or-v1-…${key.slice(-4)}`);
    s = show(s, 'A');
    expect(s.draft).toBe(`half a question with ${key}`);
    expect(show(s, 'B').draft).toBe('a draft for B');
    // The same conversation shown again (a reload, an answer) keeps what is being typed.
    expect(show(s, 'A').draft).toBe(`half a question with ${key}`);
    // What was saved comes back after a reload.
    expect(restoredView(JSON.parse(JSON.stringify(persistedView(s)))).drafts).toEqual({ B: 'a draft for B' });
  });

  it('the webview writes its state only through that filter: the store saves on load and on every action', () => {
    const written: unknown[] = [];
    const store = new ChatStore({
      getState: () => ({ draft: `old ${key}`, turns: [{ text: key }] }),
      setState: (x) => written.push(x),
    });
    store.dispatch({ type: 'draft/set', text: `new ${key}` });
    expect(written).toHaveLength(2);
    expect(JSON.stringify(written)).not.toContain(key.slice(12));
    expect(written[1]).toMatchObject({ draft: `new sk-or-v1-…${key.slice(-4)}` });
    // No view writes the saved state by itself.
    for (const file of readdirSync('src/webview').filter((name) => name !== 'store.ts'))
      expect(readFileSync(`src/webview/${file}`, 'utf8'), file).not.toMatch(/\.setState\(/);
  });
});

// Issue 21 item 14: Enter while an answer streams queues the prompt; it goes when the answer ends well and comes
// back into the box, not sent, when the answer fails or is stopped.
describe('a prompt queued behind a streaming answer', () => {
  const streaming = () => {
    let s = reduce(initialState(), { type: 'send/begin', requestId: 'r1' });
    s = reduce(s, { type: 'chat/started', requestId: 'r1', user, assistant });
    return reduce(s, {
      type: 'queue/add',
      queued: { text: 'next', attachments: [], model: 'openrouter/free' },
    });
  };

  it('empties the box into the queue, and a second prompt joins the first', () => {
    let s = reduce(streaming(), { type: 'draft/set', text: 'and more' });
    s = reduce(s, { type: 'queue/add', queued: { text: 'and more', attachments: [], model: 'openrouter/free' } });
    expect(s.draft).toBe('');
    expect(s.queued?.text).toBe('next\n\nand more');
  });

  it('is taken out of the queue by the send that carries it, and a new draft typed meanwhile stays', () => {
    let s = reduce(streaming(), { type: 'chat/done', requestId: 'r1', turn: { ...assistant, status: 'done' } });
    expect(s.queued?.text).toBe('next');
    s = reduce(s, { type: 'draft/set', text: 'typed since' });
    s = reduce(s, { type: 'send/begin', requestId: 'r2', queued: s.queued! });
    expect(s.queued).toBeNull();
    s = reduce(s, {
      type: 'chat/started',
      requestId: 'r2',
      user: { ...user, id: 'u2', text: 'next' },
      assistant: { ...assistant, id: 'a2' },
    });
    expect(s.draft).toBe('typed since');
  });

  it('goes back into the box, before what the box holds, when the answer is stopped or fails', () => {
    for (const status of ['cancelled', 'error'] as const) {
      let s = reduce(streaming(), { type: 'draft/set', text: 'typed since' });
      s = reduce(s, { type: 'chat/error', requestId: 'r1', turn: { ...assistant, status }, prompt: 'hi' });
      expect(s.queued).toBeNull();
      expect(s.draft).toBe('next\n\ntyped since');
      expect(s.pending).toBeNull();
    }
  });

  it('a queued prompt the secret guard stopped is put in the box (it was never there)', () => {
    let s = reduce(streaming(), { type: 'chat/done', requestId: 'r1', turn: { ...assistant, status: 'done' } });
    s = reduce(s, { type: 'send/begin', requestId: 'r2', queued: s.queued! });
    s = reduce(s, { type: 'chat/blocked', requestId: 'r2', prompt: '' });
    expect(s.draft).toBe('next');
    expect(s.pending).toBeNull();
  });

  it('stays with its conversation when another is shown: it becomes that conversation’s draft', () => {
    let s = reduce(streaming(), {
      type: 'panel/state',
      state: { ...initialState(), conversationId: 'c1' },
    });
    s = reduce(s, { type: 'queue/add', queued: { text: 'for c1', attachments: [], model: 'm' } });
    s = reduce(s, { type: 'panel/state', state: { ...initialState(), conversationId: 'c2' } });
    expect(s.queued).toBeNull();
    expect(s.drafts.c1).toBe('for c1');
  });
});

// Issue 21: an edited message sent again replaces itself and every turn after it, in the view too.
describe('Edit-and-resend in the view', () => {
  const turns: ChatTurn[] = [
    { ...user, id: 'u1', text: 'one' },
    { ...assistant, id: 'a1', status: 'done', text: 'A' },
    { ...user, id: 'u2', text: 'two' },
    { ...assistant, id: 'a2', status: 'done', text: 'B' },
  ];
  const shown = () => reduce(initialState(), { type: 'panel/state', state: { ...initialState(), turns } });

  it('takes the message into the box and gives the box back on Cancel', () => {
    let s = reduce(shown(), { type: 'draft/set', text: 'mine' });
    s = reduce(s, { type: 'edit/begin', turn: turns[0]! });
    expect(s).toMatchObject({ draft: 'one', editing: { turnId: 'u1' } });
    s = reduce(s, { type: 'edit/cancel' });
    expect(s).toMatchObject({ draft: 'mine', editing: null });
  });

  it('cuts the conversation at the edited message when its answer starts, and notes what it replaced', () => {
    let s = reduce(shown(), { type: 'edit/begin', turn: turns[0]! });
    s = reduce(s, { type: 'send/begin', requestId: 'r1' });
    s = reduce(s, {
      type: 'chat/started',
      requestId: 'r1',
      user: { ...user, id: 'u1b', text: 'one, edited' },
      assistant: { ...assistant, id: 'a1b' },
      replaced: { fromTurnId: 'u1', count: 4 },
    });
    expect(s.turns.map((t) => t.id)).toEqual(['u1b', 'a1b']);
    expect(s.replacedNotice).toEqual({ userId: 'u1b', count: 4 });
    expect(s.editing).toBeNull();
    // The next prompt ends the Undo's offer (the host forgets the replaced turns then too).
    s = reduce(s, { type: 'chat/done', requestId: 'r1', turn: { ...assistant, id: 'a1b', status: 'done' } });
    s = reduce(s, { type: 'send/begin', requestId: 'r2' });
    s = reduce(s, {
      type: 'chat/started',
      requestId: 'r2',
      user: { ...user, id: 'u3' },
      assistant: { ...assistant, id: 'a3' },
    });
    expect(s.replacedNotice).toBeNull();
    expect(s.turns).toHaveLength(4);
  });
});
