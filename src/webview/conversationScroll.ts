// Where the conversation is scrolled: to its end for what is new, to a message being edited, and left alone for a
// reader who scrolled up while an answer streams.
import type { ChatStore } from './store.ts';

export function createConversationScroll(store: ChatStore, list: () => HTMLElement) {
  /** Whether the conversation shows its end: a stream follows it there, and leaves alone a reader who scrolled up. */
  function nearBottom(): boolean {
    const box = list();
    return box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  }

  /** Brings the message being edited into view; false when none is. */
  function revealEditing(): boolean {
    const { editing } = store.state;
    const node = editing ? list().querySelector<HTMLElement>(`[data-turn-id="${editing.turnId}"]`) : null;
    node?.scrollIntoView({ block: 'nearest' });
    return node !== null;
  }

  /**
   * To the end of the conversation, where what is new is; while a sent message is being edited, to that message
   * instead, so the person sees what they are changing (the edit banner takes height from the conversation too).
   */
  function scrollDown(): void {
    if (revealEditing()) return;
    const box = list();
    box.scrollTop = box.scrollHeight;
  }

  return { nearBottom, revealEditing, scrollDown };
}

export type ConversationScroll = ReturnType<typeof createConversationScroll>;
