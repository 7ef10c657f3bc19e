// The toolbars under messages: Edit on a sent prompt; Copy, and Regenerate or Retry, under an answer.
import type { ChatTurn, WebviewMessage } from '../shared/protocol.ts';
import { copied } from './codeBlocks.ts';
import { element, iconButton } from './dom.ts';
import type { Strings } from './turnNotes.ts';

export interface ActionHooks {
  s: Strings;
  post(message: WebviewMessage): void;
  announce(text: string): void;
  resend(turn: ChatTurn, model: string): void;
  edit(turn: ChatTurn): void;
  /** Whether `turn` is the conversation's last: only that one offers Regenerate. */
  isLast(turn: ChatTurn): boolean;
}

export function actionBar(buttons: HTMLButtonElement[], s: Strings): HTMLElement {
  const bar = element('div', { className: 'message-actions' }, ...buttons);
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', s('messageActions', 'Message actions'));
  return bar;
}

/** Under a sent prompt: Edit, which puts it back in the prompt box to change and send again. */
export function promptActions(turn: ChatTurn, hooks: ActionHooks): HTMLElement {
  const { s } = hooks;
  return actionBar(
    [iconButton('edit', s('editPrompt', 'Edit and send again'), () => hooks.edit(turn), 'message-action')],
    s,
  );
}

/**
 * An answer's own actions, as Copilot Chat puts them under each answer: Copy (the Markdown source), and on
 * the last answer Regenerate, or Retry where the stream broke off
 * (microsoft/vscode src/vs/workbench/contrib/chat/browser/actions/chatCopyActions.ts, chatTitleActions.ts).
 */
export function answerActions(turn: ChatTurn, hooks: ActionHooks): HTMLElement {
  const { s, post, announce } = hooks;
  const buttons: HTMLButtonElement[] = [];
  if (turn.text !== '') {
    const copy = iconButton(
      'copy',
      s('copyAnswer', 'Copy the answer'),
      () => {
        post({ type: 'code/copy', code: turn.text });
        copied(copy, s, announce);
      },
      'message-action',
    );
    buttons.push(copy);
  }
  if (hooks.isLast(turn) && turn.status !== 'error') {
    const broke = turn.status === 'interrupted';
    buttons.push(
      iconButton(
        'refresh',
        broke ? s('retryAnswer', 'Retry the answer') : s('regenerate', 'Regenerate'),
        () => hooks.resend(turn, turn.model),
        'message-action',
      ),
    );
  }
  return actionBar(buttons, s);
}
