// "Conversation cleared. Undo": after Clear the way back is in the chat itself, next to the Clear button, not only in
// a notification that can be missed or hidden. It stays until Undo, Dismiss, or the chat shows another
// conversation (a sent prompt, a switch from the list). The region is a live one (role=status), present from the
// start so that what appears in it is announced. The focus stays in the prompt box, where the fresh conversation
// puts it (as Copilot's New Chat does); Undo is the next stop after Send, before Export and Clear.
import type { WebviewMessage } from '../shared/protocol.ts';
import { codicon, element, iconButton } from './dom.ts';
import type { Action } from './viewState.ts';
import type { ChatStore } from './store.ts';

export interface ClearedNotice {
  readonly node: HTMLElement;
  /** Follows the store: shows on `history/undoable`, hides when another conversation is shown or a prompt sent. */
  update(action: Action): void;
}

export function createClearedNotice(store: ChatStore, post: (message: WebviewMessage) => void): ClearedNotice {
  const { s } = store;
  const node = element('div', { className: 'cleared-notice', id: 'cleared-notice' });
  node.setAttribute('role', 'status');
  node.hidden = true;

  function hide(): void {
    const hadFocus = node.contains(document.activeElement);
    node.replaceChildren();
    node.hidden = true;
    if (hadFocus) document.getElementById('prompt')?.focus();
  }

  function show(title: string): void {
    const undo = element('button', { type: 'button', id: 'undo-clear', className: 'link-button' });
    undo.append(codicon('discard'), s('undoClear', 'Undo'));
    undo.setAttribute('aria-label', `${s('undoClear', 'Undo')}: ${title}`);
    undo.addEventListener('click', () => {
      post({ type: 'history/undoClear' });
      hide();
    });
    const dismiss = iconButton('close', s('dismiss', 'Dismiss'), hide, 'dismiss');
    const text = element('span', { className: 'cleared-text' }, s('cleared', 'Conversation cleared.'));
    node.hidden = false;
    node.replaceChildren(codicon('check'), text, undo, dismiss);
  }

  return {
    node,
    update(action) {
      if (action.type === 'history/undoable') show(action.title);
      else if ((action.type === 'panel/state' || action.type === 'chat/started') && !node.hidden) hide();
    },
  };
}
