// The conversations store and the history a prompt sends.
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../src/shared/protocol.ts';
import {
  MAX_CONVERSATIONS,
  active,
  clear,
  conversationTitle,
  emptyStore,
  loadStore,
  newConversation,
  remove,
  rename,
  restore,
  setTurns,
  summaries,
  switchTo,
  undoClear,
} from '../../../src/core/chat/conversations.ts';

const turn = (id: string, role: ChatTurn['role'], text: string, extra: Partial<ChatTurn> = {}): ChatTurn => ({
  id,
  role,
  text,
  service: 'router',
  model: 'm',
  status: 'done',
  ...extra,
});

describe('the conversations store', () => {
  it('starts, switches, renames and keeps the most recently written first', () => {
    let store = emptyStore('a', 1);
    store = setTurns(store, 'a', [turn('1', 'user', 'How do SSE streams end?')], 2);
    store = newConversation(store, 'b', 3);
    expect(active(store).id).toBe('b');
    // An empty active conversation is reused rather than stacked.
    expect(newConversation(store, 'c', 4)).toBe(store);
    store = setTurns(store, 'b', [turn('2', 'user', 'second')], 5);
    store = switchTo(store, 'a');
    expect(active(store).turns[0]!.text).toBe('How do SSE streams end?');
    expect(switchTo(store, 'nope')).toBe(store);
    store = rename(store, 'a', '  SSE   notes ');
    expect(summaries(store, '', 'Untitled').map((s) => [s.id, s.title, s.active])).toEqual([
      ['b', 'second', false],
      ['a', 'SSE notes', true],
    ]);
  });

  it('titles an unnamed conversation from its first prompt, shortened', () => {
    const long = 'word '.repeat(40);
    const store = setTurns(emptyStore('a', 1), 'a', [turn('1', 'user', long)], 2);
    const title = conversationTitle(active(store), 'Untitled');
    expect(title.length).toBe(60);
    expect(title.endsWith('…')).toBe(true);
    expect(conversationTitle(active(emptyStore('x', 1)), 'Untitled')).toBe('Untitled');
  });

  it('deletes, moving to the next conversation, and never leaves none', () => {
    let store = setTurns(emptyStore('a', 1), 'a', [turn('1', 'user', 'x')], 1);
    store = newConversation(store, 'b', 2);
    store = remove(store, 'b', 'fresh', 3);
    expect(store.activeId).toBe('a');
    store = remove(store, 'a', 'fresh', 4);
    expect(store.conversations.map((c) => c.id)).toEqual(['fresh']);
    expect(active(store).turns).toEqual([]);
  });

  it('searches titles and the text of every turn, with an excerpt', () => {
    let store = setTurns(
      emptyStore('a', 1),
      'a',
      [turn('1', 'user', 'alpha'), turn('2', 'assistant', 'The Needle')],
      1,
    );
    store = newConversation(store, 'b', 2);
    store = setTurns(store, 'b', [turn('3', 'user', 'beta')], 3);
    const found = summaries(store, 'needle', 'Untitled');
    expect(found.map((s) => s.id)).toEqual(['a']);
    expect(found[0]!.excerpt).toBe('The Needle');
    expect(summaries(store, 'BETA', 'Untitled').map((s) => s.id)).toEqual(['b']);
    expect(summaries(store, 'nothing like it', 'Untitled')).toEqual([]);
  });

  // Issue 21 item 6: Clear never loses a conversation at once. Copilot Chat's "New Chat" (its clear) keeps the old
  // chat in its history list; Clear here does the same, and Undo goes back to it.
  it('clears by starting a fresh conversation and keeping the old one in the list, with an undo', () => {
    const turns = [turn('1', 'user', 'keep me'), turn('2', 'assistant', 'kept')];
    const store = setTurns(emptyStore('a', 1), 'a', turns, 1);
    const { store: cleared, undo } = clear(store, 'a', 'b', 2);
    expect(active(cleared).id).toBe('b');
    expect(active(cleared).turns).toEqual([]);
    expect(cleared.conversations.find((c) => c.id === 'a')?.turns).toEqual(turns);
    expect(summaries(cleared, '', 'Untitled').map((s) => s.id)).toEqual(['a']);
    // Undo goes back to it and drops the fresh one nobody wrote into.
    const undone = undoClear(cleared, undo!);
    expect(active(undone).turns).toEqual(turns);
    expect(undone.conversations.map((c) => c.id)).toEqual(['a']);
    // After a new prompt in the fresh one, Undo still goes back but keeps what was written.
    const written = setTurns(cleared, 'b', [turn('3', 'user', 'new')], 3);
    const undoneLater = undoClear(written, undo!);
    expect(active(undoneLater).id).toBe('a');
    expect(undoneLater.conversations.find((c) => c.id === 'b')?.turns).toHaveLength(1);
    // An empty conversation has nothing to set aside.
    expect(clear(cleared, 'b', 'c', 4).undo).toBeUndefined();
  });

  it('brings a deleted conversation back, also when it was the last one', () => {
    const turns = [turn('1', 'user', 'only one')];
    const store = setTurns(emptyStore('a', 1), 'a', turns, 1);
    const saved = store.conversations[0]!;
    const removed = remove(store, 'a', 'fresh', 2);
    expect(removed.conversations.map((c) => c.id)).toEqual(['fresh']);
    const back = undoClear(removed, saved);
    expect(back.conversations.map((c) => c.id)).toEqual(['a']);
    expect(active(back).turns).toEqual(turns);
  });

  // Undo Delete in the open list must not switch the chat: a switch moves the keyboard focus into the chat's
  // frame and the list closes under the person (the UI step once hung there).
  it('puts a row deleted from the list back in its place without switching the chat, unless it was shown', () => {
    let store = setTurns(emptyStore('a', 1), 'a', [turn('1', 'user', 'first')], 1);
    store = setTurns(newConversation(store, 'b', 2), 'b', [turn('2', 'user', 'second')], 2);
    store = setTurns(newConversation(store, 'c', 3), 'c', [turn('3', 'user', 'third')], 3);
    const order = store.conversations.map((c) => c.id);
    const index = order.indexOf('b');
    const saved = store.conversations[index]!;
    const back = restore(remove(store, 'b', 'fresh', 4), saved, index, false);
    expect(back.conversations.map((c) => c.id)).toEqual(order);
    expect(back.activeId).toBe(store.activeId);
    // Twice is once.
    expect(restore(back, saved, index, false)).toBe(back);
    // The one shown comes back shown.
    const shown = store.conversations.find((c) => c.id === store.activeId)!;
    const again = restore(remove(store, shown.id, 'fresh', 5), shown, order.indexOf(shown.id), true);
    expect(again.activeId).toBe(shown.id);
  });

  it('reads the single conversation of an earlier version, and drops what is malformed', () => {
    const legacy = [turn('1', 'user', 'old'), { id: 2 }, null];
    const store = loadStore(undefined, legacy, 'a', 1);
    expect(active(store).turns.map((t) => t.text)).toEqual(['old']);
    const saved = {
      version: 1,
      activeId: 'gone',
      conversations: [{ id: 'b', title: '', createdAt: 1, updatedAt: 1, turns: [turn('1', 'user', 'x'), 'junk'] }, 7],
    };
    const loaded = loadStore(saved, undefined, 'a', 1);
    expect(loaded.activeId).toBe('b');
    expect(active(loaded).turns).toHaveLength(1);
    expect(loadStore({ version: 2 }, undefined, 'a', 1).conversations.map((c) => c.id)).toEqual(['a']);
  });

  // Issue 31 item 15: each New Conversation left a "New conversation · 0 messages" row behind.
  it('keeps no empty conversation: New, Clear and switching away leave no "0 messages" row', () => {
    let store = setTurns(emptyStore('a', 1), 'a', [turn('1', 'user', 'tides')], 1);
    store = newConversation(store, 'b', 2);
    // The fresh one is shown but not listed: there is nothing in it to go back to.
    expect(summaries(store, '', 'Untitled').map((s) => s.id)).toEqual(['a']);
    store = switchTo(store, 'a');
    store = newConversation(store, 'c', 3);
    store = switchTo(store, 'a');
    expect(store.conversations.map((c) => c.id)).toEqual(['a']);
    // Clear's fresh conversation goes the same way once left.
    const { store: cleared } = clear(store, 'a', 'd', 4);
    expect(switchTo(cleared, 'a').conversations.map((c) => c.id)).toEqual(['a']);
    // A named one is kept though empty: the person made it.
    const named = rename(newConversation(store, 'e', 5), 'e', 'later');
    expect(
      switchTo(named, 'a')
        .conversations.map((c) => c.id)
        .sort(),
    ).toEqual(['a', 'e']);
    // Empty rows an earlier version stored are dropped when read, but the one shown stays.
    const saved = {
      version: 1,
      activeId: 'x',
      conversations: [
        { id: 'x', title: '', createdAt: 1, updatedAt: 1, turns: [] },
        { id: 'y', title: '', createdAt: 1, updatedAt: 1, turns: [] },
        { id: 'a', title: '', createdAt: 1, updatedAt: 1, turns: [turn('1', 'user', 'tides')] },
      ],
    };
    expect(loadStore(saved, undefined, 'n', 1).conversations.map((c) => c.id)).toEqual(['x', 'a']);
  });

  it("reads a regenerated answer's versions back, dropping what is malformed", () => {
    const answer = turn('2', 'assistant', 'new', {
      versions: [turn('2a', 'assistant', 'old', { versions: [turn('z', 'assistant', 'nested')] }), 'junk' as never],
      versionIndex: 9,
    });
    const saved = {
      version: 1,
      activeId: 'a',
      conversations: [{ id: 'a', title: '', createdAt: 1, updatedAt: 1, turns: [turn('1', 'user', 'q'), answer] }],
    };
    const read = active(loadStore(saved, undefined, 'n', 1)).turns[1]!;
    expect(read.versions).toEqual([turn('2a', 'assistant', 'old')]);
    expect(read.versionIndex).toBe(1);
  });

  it('keeps at most MAX_CONVERSATIONS', () => {
    let store = emptyStore('c0', 0);
    for (let i = 1; i <= MAX_CONVERSATIONS + 5; i++) {
      store = setTurns(store, store.activeId, [turn(`t${i}`, 'user', 'x')], i);
      store = newConversation(store, `c${i}`, i);
    }
    expect(store.conversations).toHaveLength(MAX_CONVERSATIONS);
    expect(store.activeId).toBe(`c${MAX_CONVERSATIONS + 5}`);
  });
});
