// The prompt box's keys (Enter sends, Up recalls the last prompt), Escape anywhere in the panel, which stops
// a streaming answer when no popup takes it first, and Alt+F2 anywhere in it. composerKeys.ts decides what a key
// in the prompt box means.
import { composerIntent, lastPrompt } from './composerKeys.ts';
import type { WebviewMessage } from '../shared/protocol.ts';
import type { ChatStore } from './store.ts';

export interface PromptKeyHooks {
  send(text: string): void;
  stop(): void;
  /** Whether a popup (the model picker, the `+` menu) takes Escape first. */
  popupOpen(): boolean;
}

export function wirePromptKeys(box: HTMLTextAreaElement, store: ChatStore, hooks: PromptKeyHooks): void {
  box.addEventListener('input', () => store.dispatch({ type: 'draft/set', text: box.value }));
  box.addEventListener('keydown', (e) => {
    const intent = composerIntent(e, {
      enterSends: store.state.enterSends !== false,
      streaming: store.state.pending !== null,
      empty: box.value.trim() === '',
    });
    // Escape is handled once, by the document, which also stops when the focus is elsewhere.
    if (intent === 'none' || intent === 'stop') return;
    e.preventDefault();
    if (intent === 'send') hooks.send(box.value);
    else if (intent === 'recall') {
      const last = lastPrompt(store.state.turns);
      if (last === undefined) return;
      store.dispatch({ type: 'draft/set', text: last });
      box.value = last;
      box.setSelectionRange(last.length, last.length);
    }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || hooks.popupOpen()) return;
    if (store.state.pending) {
      e.preventDefault();
      hooks.stop();
    }
  });
}

/**
 * Alt+F2 is the chat's own while its frame holds the focus, and is kept from the workbench. The workbench's
 * keybinding reads `keyward.chatFocus`, which the host sets only after this frame's focus message has gone there and
 * back: a press right after a click could find it not yet true and do nothing (a real-host run on a busy machine
 * lost one). The keybinding stays for the view's own header and for a person who binds another key.
 */
export function wireLastAnswerKey(post: (message: WebviewMessage) => void): void {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'F2' || !e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    e.preventDefault();
    // VS Code's frame script forwards keys to the workbench from the window, after the document.
    e.stopPropagation();
    post({ type: 'answer/showLast' });
  });
}
