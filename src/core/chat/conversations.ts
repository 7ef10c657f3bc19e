// The conversations of one workspace: a pure store (new, switch, rename,
// delete, search, clear with undo) that the host persists through the filter
// for disk. What a prompt sends of a conversation is in conversation.ts.
import type { ChatTurn } from '../../shared/protocol.ts';

export interface Conversation {
  id: string;
  /** Empty until the person names it: the first prompt stands in (see `conversationTitle`). */
  title: string;
  createdAt: number;
  updatedAt: number;
  turns: ChatTurn[];
}

export interface Conversations {
  version: 1;
  activeId: string;
  /** Most recently used first. */
  conversations: Conversation[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  turnCount: number;
  active: boolean;
  /** Where the search text matched, a short excerpt; absent without a query. */
  excerpt?: string;
}

/** Older conversations past this count are dropped, oldest first: workspace state is not an archive. */
export const MAX_CONVERSATIONS = 50;
const TITLE_LENGTH = 60;

function blank(id: string, now: number): Conversation {
  return { id, title: '', createdAt: now, updatedAt: now, turns: [] };
}

export function emptyStore(id: string, now: number): Conversations {
  return { version: 1, activeId: id, conversations: [blank(id, now)] };
}

const isTurn = (value: unknown): value is ChatTurn =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as ChatTurn).id === 'string' &&
  ((value as ChatTurn).role === 'user' || (value as ChatTurn).role === 'assistant') &&
  typeof (value as ChatTurn).text === 'string';

function isConversation(value: unknown): value is Conversation {
  if (!value || typeof value !== 'object') return false;
  const c = value as Conversation;
  return (
    typeof c.id === 'string' &&
    typeof c.title === 'string' &&
    Number.isFinite(c.createdAt) &&
    Number.isFinite(c.updatedAt) &&
    Array.isArray(c.turns)
  );
}

/**
 * Reads what workspace state holds: a store, or the single conversation an
 * earlier version kept (`legacyTurns`), or nothing. Whatever is malformed is
 * dropped rather than trusted.
 */
export function loadStore(raw: unknown, legacyTurns: unknown, id: string, now: number): Conversations {
  if (raw && typeof raw === 'object' && (raw as Conversations).version === 1) {
    const conversations = ((raw as Conversations).conversations ?? [])
      .filter(isConversation)
      .map((c) => ({ ...c, turns: c.turns.filter(isTurn) }))
      .slice(0, MAX_CONVERSATIONS);
    if (conversations.length > 0) {
      const activeId = (raw as Conversations).activeId;
      return {
        version: 1,
        activeId: conversations.some((c) => c.id === activeId) ? activeId : conversations[0]!.id,
        conversations,
      };
    }
  }
  const store = emptyStore(id, now);
  if (Array.isArray(legacyTurns)) store.conversations[0]!.turns = legacyTurns.filter(isTurn);
  return store;
}

export function active(store: Conversations): Conversation {
  return store.conversations.find((c) => c.id === store.activeId) ?? store.conversations[0]!;
}

/** The name shown in the list: the person's, else the start of the first prompt. */
export function conversationTitle(conversation: Conversation, untitled: string): string {
  if (conversation.title.trim()) return conversation.title.trim();
  const first = conversation.turns
    .find((t) => t.role === 'user')
    ?.text.replace(/\s+/g, ' ')
    .trim();
  if (!first) return untitled;
  return first.length > TITLE_LENGTH ? `${first.slice(0, TITLE_LENGTH - 1)}…` : first;
}

/** Starts a conversation and makes it active; an empty active one is reused, not piled up. */
export function newConversation(store: Conversations, id: string, now: number): Conversations {
  const current = active(store);
  if (current.turns.length === 0 && !current.title) return store;
  return {
    ...store,
    activeId: id,
    conversations: [blank(id, now), ...store.conversations].slice(0, MAX_CONVERSATIONS),
  };
}

export function switchTo(store: Conversations, id: string): Conversations {
  if (!store.conversations.some((c) => c.id === id)) return store;
  return { ...store, activeId: id };
}

export function rename(store: Conversations, id: string, title: string): Conversations {
  return update(store, id, (c) => ({ ...c, title: title.replace(/\s+/g, ' ').trim().slice(0, 200) }), false);
}

/** Removes a conversation; deleting the last one leaves a fresh empty one, so there is always one to write into. */
export function remove(store: Conversations, id: string, freshId: string, now: number): Conversations {
  const conversations = store.conversations.filter((c) => c.id !== id);
  if (conversations.length === 0) return emptyStore(freshId, now);
  return {
    ...store,
    activeId: store.activeId === id ? conversations[0]!.id : store.activeId,
    conversations,
  };
}

export function setTurns(store: Conversations, id: string, turns: ChatTurn[], now: number): Conversations {
  return update(store, id, (c) => ({ ...c, turns, updatedAt: now }), true);
}

/**
 * Empties a conversation and returns what it held, for Undo. The undo puts the
 * turns back only if nothing was written since, so it cannot wipe a new answer.
 */
export function clear(
  store: Conversations,
  id: string,
  now: number,
): { store: Conversations; undo: Conversation | undefined } {
  const target = store.conversations.find((c) => c.id === id);
  if (!target || target.turns.length === 0) return { store, undo: undefined };
  return { store: update(store, id, (c) => ({ ...c, turns: [], updatedAt: now }), false), undo: target };
}

export function undoClear(store: Conversations, saved: Conversation): Conversations {
  const current = store.conversations.find((c) => c.id === saved.id);
  if (current && current.turns.length > 0) return store;
  const others = store.conversations.filter((c) => c.id !== saved.id);
  return { ...store, activeId: saved.id, conversations: [saved, ...others].slice(0, MAX_CONVERSATIONS) };
}

function update(
  store: Conversations,
  id: string,
  change: (c: Conversation) => Conversation,
  toFront: boolean,
): Conversations {
  const target = store.conversations.find((c) => c.id === id);
  if (!target) return store;
  const changed = change(target);
  const conversations = toFront
    ? [changed, ...store.conversations.filter((c) => c.id !== id)]
    : store.conversations.map((c) => (c.id === id ? changed : c));
  return { ...store, conversations };
}

/**
 * The list, most recent first; with a query only the conversations whose title
 * or any turn's text contains it (case-insensitive), each with an excerpt.
 */
export function summaries(store: Conversations, query: string, untitled: string): ConversationSummary[] {
  const needle = query.trim().toLowerCase();
  const out: ConversationSummary[] = [];
  for (const c of store.conversations) {
    const title = conversationTitle(c, untitled);
    const summary: ConversationSummary = {
      id: c.id,
      title,
      updatedAt: c.updatedAt,
      turnCount: c.turns.length,
      active: c.id === store.activeId,
    };
    if (!needle) {
      out.push(summary);
      continue;
    }
    if (title.toLowerCase().includes(needle)) {
      out.push({ ...summary, excerpt: '' });
      continue;
    }
    for (const turn of c.turns) {
      const text = turn.text || turn.refusal || '';
      const at = text.toLowerCase().indexOf(needle);
      if (at === -1) continue;
      const start = Math.max(0, at - 30);
      const end = Math.min(text.length, at + needle.length + 50);
      const excerpt = `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
      out.push({ ...summary, excerpt });
      break;
    }
  }
  return out;
}
