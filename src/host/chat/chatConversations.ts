// The conversations of this workspace as the chat view and the editor panel
// share them: one store in workspace state, written through the filter for
// disk (a key never lands there), with an event when the active one changes.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import { Emitter } from '../../shared/event.ts';
import type { ChatTurn } from '../../shared/protocol.ts';
import {
  type Conversation,
  type Conversations,
  type ConversationSummary,
  active,
  clear,
  conversationTitle,
  loadStore,
  newConversation,
  remove,
  restore,
  rename,
  setTurns,
  summaries,
  switchTo,
  undoClear,
} from '../../core/chat/conversations.ts';

const STORE_KEY = 'keyward.conversations';
/** Where an earlier version kept its single conversation; read once, then left alone. */
const LEGACY_TURNS_KEY = 'keyward.panel.turns';

const newId = () => randomBytes(9).toString('hex');

export class ChatConversations extends Disposable {
  private readonly state: vscode.Memento;
  private current: Conversations;
  private readonly changed = this._register(new Emitter<{ activeChanged: boolean }>());
  /** Fires after every change; `activeChanged` when the chat must show another conversation (or a cleared one). */
  readonly onDidChange = this.changed.event;
  /** Writes go one after another, so two answers finishing together cannot lose one. */
  private writing: Promise<void> = Promise.resolve();

  /** `state` must be the scrubbed workspace state. */
  constructor(state: vscode.Memento) {
    super();
    this.state = state;
    this.current = loadStore(state.get(STORE_KEY), state.get(LEGACY_TURNS_KEY), newId(), Date.now());
  }

  get activeId(): string {
    return active(this.current).id;
  }

  activeConversation(): Conversation {
    return active(this.current);
  }

  /** What the chat's header says: the person's title, else the start of the first prompt. */
  activeTitle(): string {
    return conversationTitle(active(this.current), vscode.l10n.t('New conversation'));
  }

  turns(id = this.activeId): ChatTurn[] {
    return this.current.conversations.find((c) => c.id === id)?.turns ?? [];
  }

  /** One conversation's name and length, also the empty one shown, which the list leaves out. */
  describe(id: string): { title: string; turnCount: number } | undefined {
    const conversation = this.current.conversations.find((c) => c.id === id);
    if (!conversation) return undefined;
    return {
      title: conversationTitle(conversation, vscode.l10n.t('New conversation')),
      turnCount: conversation.turns.length,
    };
  }

  list(query = ''): ConversationSummary[] {
    return summaries(this.current, query, vscode.l10n.t('New conversation'));
  }

  /** Stores the turns of a conversation (the one a request started in, even if the person switched since). */
  setTurns(id: string, turns: ChatTurn[]): Promise<void> {
    return this.apply(setTurns(this.current, id, turns, Date.now()), false);
  }

  create(): Promise<void> {
    return this.apply(newConversation(this.current, newId(), Date.now()), true);
  }

  switchTo(id: string): Promise<void> {
    return this.apply(switchTo(this.current, id), true);
  }

  rename(id: string, title: string): Promise<void> {
    return this.apply(rename(this.current, id, title), false);
  }

  /** Deletes a conversation; the returned function brings it back (the list's Undo). */
  async remove(id: string): Promise<() => Promise<void>> {
    const index = this.current.conversations.findIndex((c) => c.id === id);
    const saved = this.current.conversations[index];
    const wasActive = id === this.activeId;
    await this.apply(remove(this.current, id, newId(), Date.now()), wasActive);
    return () => (saved ? this.apply(restore(this.current, saved, index, wasActive), wasActive) : Promise.resolve());
  }

  /** Sets the active conversation aside for a fresh one (it stays in the list); the returned function goes back. */
  async clear(): Promise<(() => Promise<void>) | undefined> {
    const { store, undo } = clear(this.current, this.activeId, newId(), Date.now());
    if (!undo) return undefined;
    await this.apply(store, true);
    return () => this.apply(undoClear(this.current, undo), true);
  }

  private apply(next: Conversations, activeChanged: boolean): Promise<void> {
    if (next === this.current) return Promise.resolve();
    const switched = activeChanged || next.activeId !== this.current.activeId;
    this.current = next;
    const write = this.writing.then(async () => {
      await this.state.update(STORE_KEY, next);
      // The store now holds what the earlier version kept: a cleared conversation must not come back from there.
      if (this.state.get(LEGACY_TURNS_KEY) !== undefined) await this.state.update(LEGACY_TURNS_KEY, undefined);
    });
    this.writing = write.catch(() => undefined);
    this.changed.fire({ activeChanged: switched });
    return write;
  }
}
