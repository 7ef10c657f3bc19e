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

/** Nothing written and no name: a conversation only while it is the one shown (Copilot Chat keeps a new chat so). */
const isEmpty = (c: Conversation) => c.turns.length === 0 && c.title === '';

/** Drops every empty conversation but the active one: New, Clear and switching never leave a "0 messages" row. */
function withoutEmpty(store: Conversations): Conversations {
  if (!store.conversations.some((c) => isEmpty(c) && c.id !== store.activeId)) return store;
  return { ...store, conversations: store.conversations.filter((c) => !isEmpty(c) || c.id === store.activeId) };
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

/** A regenerated answer's versions, as far as they are turns; nested ones and a stray index are dropped. */
function withValidVersions(turn: ChatTurn): ChatTurn {
  if (turn.versions === undefined && turn.versionIndex === undefined) return turn;
  const { versions: raw, versionIndex, ...rest } = turn;
  const versions = (Array.isArray(raw) ? raw.filter(isTurn) : []).map(
    ({ versions: _v, versionIndex: _i, ...version }) => version,
  );
  if (versions.length === 0) return rest;
  const index = Number.isInteger(versionIndex)
    ? Math.max(0, Math.min(versionIndex!, versions.length))
    : versions.length;
  return { ...rest, versions, versionIndex: index };
}

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
      .map((c) => ({ ...c, turns: c.turns.filter(isTurn).map(withValidVersions) }))
      .slice(0, MAX_CONVERSATIONS);
    if (conversations.length > 0) {
      const activeId = (raw as Conversations).activeId;
      return withoutEmpty({
        version: 1,
        activeId: conversations.some((c) => c.id === activeId) ? activeId : conversations[0]!.id,
        conversations,
      });
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
  if (isEmpty(active(store))) return store;
  return withoutEmpty({
    ...store,
    activeId: id,
    conversations: [blank(id, now), ...store.conversations].slice(0, MAX_CONVERSATIONS),
  });
}

/** Shows another conversation; the one left is dropped if nothing was written there. */
export function switchTo(store: Conversations, id: string): Conversations {
  if (!store.conversations.some((c) => c.id === id) || store.activeId === id) return store;
  return withoutEmpty({ ...store, activeId: id });
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
 * Clear: the conversation is set aside, not emptied. A fresh one becomes active and the cleared one stays in the
 * list (Copilot Chat's "New Chat" keeps the old one in its history the same way), so nothing is lost at once. The
 * undo switches back to it and drops the fresh one if nothing was written there since.
 */
export function clear(
  store: Conversations,
  id: string,
  freshId: string,
  now: number,
): { store: Conversations; undo: Conversation | undefined } {
  const target = store.conversations.find((c) => c.id === id);
  if (!target || target.turns.length === 0) return { store, undo: undefined };
  const others = store.conversations.filter((c) => c.id !== id);
  return {
    store: {
      ...store,
      activeId: freshId,
      conversations: [blank(freshId, now), target, ...others].slice(0, MAX_CONVERSATIONS),
    },
    undo: target,
  };
}

/**
 * Brings back a cleared or deleted conversation and makes it active. A fresh conversation nobody wrote into is
 * dropped on the way; one that holds turns stays, so Undo cannot wipe a new answer.
 */
export function undoClear(store: Conversations, saved: Conversation): Conversations {
  const kept = store.conversations.filter(
    (c) => c.id !== saved.id && (c.turns.length > 0 || c.title !== '' || c.id !== store.activeId),
  );
  const current = store.conversations.find((c) => c.id === saved.id);
  return { ...store, activeId: saved.id, conversations: [current ?? saved, ...kept].slice(0, MAX_CONVERSATIONS) };
}

/**
 * Undoes a delete from the list: the conversation goes back to its place. It becomes the one shown again only if it
 * was (then as undoClear does); otherwise the chat stays where it is, so the open list keeps the keyboard focus.
 */
export function restore(store: Conversations, saved: Conversation, index: number, wasActive: boolean): Conversations {
  if (wasActive) return undoClear(store, saved);
  if (store.conversations.some((c) => c.id === saved.id)) return store;
  const conversations = [...store.conversations];
  conversations.splice(Math.max(0, Math.min(index, conversations.length)), 0, saved);
  return { ...store, conversations: conversations.slice(0, MAX_CONVERSATIONS) };
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
 * or any turn's text contains it (case-insensitive), each with an excerpt. An empty conversation is not listed,
 * not even the one shown: there is nothing in it to go back to.
 */
export function summaries(store: Conversations, query: string, untitled: string): ConversationSummary[] {
  const needle = query.trim().toLowerCase();
  const out: ConversationSummary[] = [];
  for (const c of store.conversations) {
    if (isEmpty(c)) continue;
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
