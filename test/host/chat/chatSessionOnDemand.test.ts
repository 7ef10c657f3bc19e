// The chat session's stand-in: nothing loads before a chat is used, calls made while it loads run in order once it
// has, a chat closed while it loads is never connected, and a failed load is said (redacted) rather than lost.
import { describe, expect, it, vi } from 'vitest';
import { ChatSessionOnDemand } from '../../../src/host/chat/chatSessionOnDemand.ts';
import type { ChatSession } from '../../../src/host/chat/chatSession.ts';
import { Log } from '../../../src/host/log.ts';
import { fake } from '../vscodeShim.ts';

function fakeSession(calls: string[]) {
  let connected = 0;
  const session = {
    connect: vi.fn(() => {
      connected++;
      calls.push('connect');
      return Object.assign({ dispose: () => calls.push('disconnect') }, { whenReady: Promise.resolve() });
    }),
    focusPrompt: () => calls.push('focusPrompt'),
    post: (message: { type: string }) => calls.push(`post ${message.type}`),
    handleMessage: () => calls.push('handleMessage'),
    showConversation: () => calls.push('showConversation'),
    offerClearUndo: () => connected > 0,
    proposals: { keep: async () => 'kept', undo: async () => 'undone' },
    dispose: () => calls.push('dispose'),
  };
  return session as unknown as ChatSession;
}

const webview = {} as never;

describe('the chat session, on demand', () => {
  it('is not built until a chat is used, and answers for no chat meanwhile', async () => {
    const build = vi.fn(async () => fakeSession([]));
    const stand = new ChatSessionOnDemand(build, new Log());
    stand.showConversation();
    expect(stand.offerClearUndo('t', async () => undefined)).toBe(false);
    expect(await stand.keepProposal()).toBe('unknown');
    expect(await stand.undoProposal('id')).toBe('unknown');
    expect(() => stand.proposals).toThrow(/not loaded/);
    expect(build).not.toHaveBeenCalled();
    stand.dispose();
  });

  it('runs the calls made while it loads, in their order, once; then calls straight through', async () => {
    const calls: string[] = [];
    const build = vi.fn(async () => fakeSession(calls));
    const stand = new ChatSessionOnDemand(build, new Log());
    stand.focusPrompt();
    const connection = stand.connect(webview);
    stand.post({ type: 'attachment/add' } as never);
    await connection.whenReady;
    expect(calls).toEqual(['focusPrompt', 'connect', 'post attachment/add']);
    stand.handleMessage({});
    expect(calls.at(-1)).toBe('handleMessage');
    expect(stand.offerClearUndo('t', async () => undefined)).toBe(true);
    expect(await stand.keepProposal()).toBe('kept');
    expect(build).toHaveBeenCalledTimes(1);
    stand.dispose();
    expect(calls.at(-1)).toBe('dispose');
  });

  it('does not connect a chat closed before the session loaded', async () => {
    const calls: string[] = [];
    const stand = new ChatSessionOnDemand(async () => fakeSession(calls), new Log());
    const connection = stand.connect(webview);
    connection.dispose();
    await connection.whenReady;
    expect(calls).not.toContain('connect');
    stand.dispose();
  });

  it('says a failed load in the log and to the person, redacted', async () => {
    const key = ['sk', 'or', 'v1', 'a'.repeat(64)].join('-');
    fake.state.messages.length = 0;
    const log = new Log();
    const stand = new ChatSessionOnDemand(async () => {
      throw new Error(`cannot read ${key}`);
    }, log);
    await expect(stand.connect(webview).whenReady).rejects.toThrow();
    expect(log.lines().at(-1)).toMatch(/^Could not load the chat: cannot read /);
    expect(log.lines().join('\n')).not.toContain(key);
    const shown = fake.state.messages.filter((m) => m.level === 'error').map((m) => m.text);
    expect(shown).toEqual([expect.stringMatching(/^Keyward could not load the chat: cannot read /)]);
    expect(shown.join('\n')).not.toContain(key);
    stand.dispose();
  });
});
