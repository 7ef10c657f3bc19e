// The message list: the turns of the conversation drawn from the store, the answer being streamed
// drawn block by block, and the first screen in the conversation's place while it is empty.
import type { ChatTurn, WebviewMessage } from '../shared/protocol.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { type ApplyStatuses, drawApplyLines } from './applyStatus.ts';
import { copied, decorateCodeBlocks } from './codeBlocks.ts';
import { byId, codicon, element, iconButton } from './dom.ts';
import { emptyState } from './emptyState.ts';
import { errorCard } from './errorCard.ts';
import { icon } from './icons.ts';
import { createBlockRenderer, createRenderer } from './markdown.ts';
import type { ChatStore } from './store.ts';
import { type AnswerDrawing, StreamedAnswer } from './streamedAnswer.ts';
import { finishNote, metaLine } from './turnNotes.ts';
import { versionPosition } from '../shared/answerVersions.ts';

export interface MessageListHooks {
  post(message: WebviewMessage): void;
  /** Sends the user's prompt before `turn` again, to `model`. */
  resend(turn: ChatTurn, model: string): void;
  /** The empty chat's "Try a free model". */
  tryFree(): void;
  /** Puts a sent prompt (and its attached code) back in the prompt box to edit and send again. */
  edit(turn: ChatTurn): void;
  /** Says something to assistive technology (announcer.ts). */
  announce(text: string): void;
  /** Brings back the turns the last Edit-and-resend replaced. */
  undoEdit(): void;
  /** Where each Apply from a code block stands. */
  applies: ApplyStatuses;
}

export function createMessageList(store: ChatStore, hooks: MessageListHooks) {
  const { s } = store;
  const { post, announce } = hooks;
  const decorate = (container: HTMLElement) => decorateCodeBlocks(container, s, post, announce, hooks.applies);
  const render = createRenderer();
  const renderBlocks = createBlockRenderer();
  const list = () => byId('conversation');
  const serviceChoice = (service: ServiceId) => store.state.services.find((x) => x.id === service);

  const cardHooks = {
    s,
    post,
    resend: hooks.resend,
    lockIcon: () => icon('lock'),
    hasCredits: (service: ServiceId) => serviceChoice(service)?.hasCredits ?? false,
  };

  /** A refusal is the answer, in its own style and marked as one; its text is the model's, shown as plain text. */
  function refusalBlock(text: string): HTMLElement {
    const block = element('div', { className: 'refusal' });
    block.setAttribute('role', 'note');
    block.append(element('div', { className: 'refusal-label' }, icon('declined'), s('declined', 'The model declined')));
    block.append(element('div', { className: 'refusal-text', textContent: text }));
    return block;
  }

  /** What comes under the answer text: the refusal, the note on how it ended, the footer. */
  function answerExtras(turn: ChatTurn): HTMLElement[] {
    const extras: HTMLElement[] = [];
    if (turn.refusal) extras.push(refusalBlock(turn.refusal));
    const note = finishNote(turn, s);
    if (note) {
      const line = element('div', { className: `finish-note ${note.kind}` }, icon(note.kind), note.text);
      line.setAttribute('role', 'note');
      extras.push(line);
    }
    const meta = metaLine(turn, s);
    if (meta) extras.push(element('div', { className: 'meta', textContent: meta }));
    return extras;
  }

  function turnNode(turn: ChatTurn): HTMLElement {
    const node = element('article', { className: `turn ${turn.role} ${turn.status}` });
    node.dataset.turnId = turn.id;
    if (turn.role === 'user') {
      node.append(element('div', { className: 'who', textContent: s('you', 'You') }));
      node.append(element('div', { className: 'user-text', textContent: turn.text }));
      for (const a of turn.attachments ?? [])
        node.append(
          element('span', {
            className: 'chip',
            textContent: `${a.fileName.split(/[\\/]/).pop()}:${a.startLine}-${a.endLine}`,
          }),
        );
      node.append(
        actionBar([
          iconButton('edit', s('editPrompt', 'Edit and send again'), () => hooks.edit(turn), 'message-action'),
        ]),
      );
      return node;
    }
    node.append(element('div', { className: 'who', textContent: turn.model }));
    const body = element('div', { className: 'answer' });
    body.innerHTML = render(turn.text);
    decorate(body);
    // Before the first token: a sign of work that a screen reader hears, and the answer marked busy until it ends.
    if (turn.status === 'streaming') {
      node.setAttribute('aria-busy', 'true');
      if (turn.text === '') body.append(workingLine());
    }
    // A declined answer has no text of its own: no empty box above the refusal.
    if (turn.text !== '' || !turn.refusal) node.append(body);
    // The note is in the text colour; only its icon is coloured, so a broken-off answer stays readable.
    if (turn.status === 'interrupted')
      node.append(
        element(
          'div',
          { className: 'interrupted' },
          codicon('warning'),
          s('interrupted', 'The answer broke off here; what arrived is kept.'),
        ),
      );
    if (turn.status === 'cancelled')
      node.append(
        element('div', { className: 'interrupted stopped' }, codicon('debug-stop'), s('stopped', 'Stopped.')),
      );
    if (turn.refusal) node.classList.add('declined');
    node.append(...answerExtras(turn));
    if (turn.error && turn.status === 'error') node.append(errorCard(turn, cardHooks));
    else if (turn.error && turn.status === 'interrupted')
      node.append(element('div', { className: 'meta', textContent: turn.error.message }));
    if (turn.status !== 'streaming') node.append(...answerFooter(turn));
    drawApplyLines(node, hooks.applies, s, post);
    return node;
  }

  /** Under a finished answer: its versions' switch when it was regenerated, then its actions. */
  function answerFooter(turn: ChatTurn): HTMLElement[] {
    const versions = versionSwitch(turn);
    return versions ? [versions, answerActions(turn)] : [answerActions(turn)];
  }

  /**
   * "2 of 2" with previous and next, as Copilot Chat pages through the responses to one request: a regenerated
   * answer's earlier versions stay reachable. Always shown (not only on hover): it says there is more to read.
   */
  function versionSwitch(turn: ChatTurn): HTMLElement | null {
    const { index, count } = versionPosition(turn);
    if (count < 2) return null;
    const go = (to: number) => () => post({ type: 'chat/showVersion', turnId: turn.id, index: to });
    const previous = iconButton('chevron-left', s('versionPrevious', 'Previous version'), go(index - 1));
    const next = iconButton('chevron-right', s('versionNext', 'Next version'), go(index + 1));
    previous.disabled = index === 0;
    next.disabled = index === count - 1;
    const where = s('versionOf', '{0} of {1}')
      .replace('{0}', String(index + 1))
      .replace('{1}', String(count));
    const group = element(
      'div',
      { className: 'answer-versions' },
      previous,
      element('span', { textContent: where }),
      next,
    );
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', s('versions', 'Answer versions'));
    return group;
  }

  function workingLine(): HTMLElement {
    const line = element('div', { className: 'working' }, codicon('loading'), s('working', 'Working…'));
    line.setAttribute('role', 'status');
    return line;
  }

  function actionBar(buttons: HTMLButtonElement[]): HTMLElement {
    const bar = element('div', { className: 'message-actions' }, ...buttons);
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', s('messageActions', 'Message actions'));
    return bar;
  }

  /**
   * An answer's own actions, as Copilot Chat puts them under each answer: Copy (the Markdown source), and on
   * the last answer Regenerate, or Retry where the stream broke off
   * (microsoft/vscode src/vs/workbench/contrib/chat/browser/actions/chatCopyActions.ts, chatTitleActions.ts).
   */
  function answerActions(turn: ChatTurn): HTMLElement {
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
    const { turns } = store.state;
    const last = turns[turns.length - 1]?.id === turn.id;
    if (last && turn.status !== 'error') {
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
    return actionBar(buttons);
  }

  /** One turn that cannot be drawn must not take the conversation with it. */
  function safeTurnNode(turn: ChatTurn): HTMLElement {
    try {
      return turnNode(turn);
    } catch (error) {
      console.error('Keyward: could not render a turn', error);
      return element('article', { className: `turn ${turn.role}`, textContent: turn.text });
    }
  }

  /** The first screen: keys to set or import, a free model to try, what the secret guard does. */
  function renderEmpty(): void {
    const { state } = store;
    const empty = byId('empty');
    empty.hidden = state.turns.length > 0;
    // The first screen takes the conversation's place instead of sitting under an empty log.
    list().hidden = !empty.hidden;
    if (empty.hidden) return;
    empty.replaceChildren(
      emptyState({
        services: state.services,
        hasKey: state.hasKey,
        s,
        run: (action, service) => post({ type: 'action/run', action, service }),
        tryFree: hooks.tryFree,
      }),
    );
  }

  /**
   * Where an edited message was sent again: the turns it replaced are gone from the view, and this note says so
   * with an Undo that brings them back (Copilot Chat continues from an edited message the same way).
   */
  function replacedNote(count: number): HTMLElement {
    // `count` holds the edited message itself and every turn after it.
    const text =
      count <= 1
        ? s('replacedOne', 'Your edit replaced the earlier message.')
        : count === 2
          ? s('replacedAnswer', 'Your edit replaced the earlier message and its answer.')
          : s('replacedMany', 'Your edit replaced the earlier message and the {0} after it.').replace(
              '{0}',
              String(count - 1),
            );
    const undo = element('button', {
      type: 'button',
      className: 'text-button',
      id: 'undo-edit',
      textContent: s('undo', 'Undo'),
    });
    undo.setAttribute('aria-label', s('undoEdit', 'Undo the edit: bring back the replaced messages'));
    undo.addEventListener('click', () => hooks.undoEdit());
    const note = element(
      'div',
      { className: 'replaced-note' },
      codicon('edit'),
      element('span', { textContent: text }),
      undo,
    );
    note.setAttribute('role', 'note');
    return note;
  }

  function renderConversation(): void {
    const { turns, replacedNotice } = store.state;
    const nodes = turns.map(safeTurnNode);
    const at = replacedNotice ? turns.findIndex((t) => t.id === replacedNotice.userId) : -1;
    if (replacedNotice && at >= 0) nodes.splice(at, 0, replacedNote(replacedNotice.count));
    list().replaceChildren(...nodes);
    renderEmpty();
    scrollDown();
  }

  function renderTurn(id: string): void {
    const turn = store.state.turns.find((t) => t.id === id);
    const old = document.querySelector(`[data-turn-id="${id}"]`);
    if (!turn) return;
    const node = safeTurnNode(turn);
    if (old) old.replaceWith(node);
    else list().append(node);
    scrollDown();
  }

  /** The answer being streamed, drawn block by block as it grows. */
  let streamed: StreamedAnswer | undefined;

  const answerDrawing: AnswerDrawing = {
    blocks(texts) {
      const holder = document.createElement('div');
      holder.innerHTML = renderBlocks(texts);
      decorate(holder);
      return Array.from(holder.children) as HTMLElement[];
    },
    tail: (text) => render(text, { highlight: false }),
    changing(change) {
      const stick = nearBottom() && !store.state.editing;
      change();
      if (stick) scrollDown();
    },
  };

  /**
   * While an answer streams, finished blocks are rendered once and only the
   * growing tail again, so each frame costs the same however long the answer is.
   */
  function renderStreaming(id: string): void {
    const turn = store.state.turns.find((t) => t.id === id);
    if (!turn) return;
    let node = document.querySelector<HTMLElement>(`[data-turn-id="${id}"]`);
    if (!node) {
      node = safeTurnNode({ ...turn, text: '' });
      list().append(node);
    }
    if (streamed?.id !== id || !streamed.attached) {
      streamed?.dispose();
      const tail = element('div', { className: 'tail' });
      node.querySelector<HTMLElement>('.answer')!.replaceChildren(tail);
      streamed = new StreamedAnswer(id, tail, answerDrawing);
    }
    streamed.update(turn.text);
  }

  /** A streamed answer is finished in place: its blocks stay, the rest of the text and the extras are added. */
  function finishStreamed(turn: ChatTurn): boolean {
    const node = document.querySelector<HTMLElement>(`[data-turn-id="${turn.id}"]`);
    const answer = streamed;
    streamed = undefined;
    // A refusal or an early end changes more than the tail: draw the turn again.
    const inPlace =
      node &&
      answer?.id === turn.id &&
      answer.attached &&
      turn.status === 'done' &&
      !turn.refusal &&
      !finishNote(turn, s);
    if (
      inPlace &&
      answer.finish(turn.text, (tail, rest) => {
        tail.className = 'block';
        tail.innerHTML = render(rest);
        decorate(tail);
        node.classList.replace('streaming', 'done');
        node.removeAttribute('aria-busy');
        node.append(...answerExtras(turn), ...answerFooter(turn));
        const who = node.querySelector('.who');
        if (who) who.textContent = turn.model;
      })
    )
      return true;
    answer?.dispose();
    return false;
  }

  /** Whether the conversation shows its end: a stream follows it there, and leaves alone a reader who scrolled up. */
  function nearBottom(): boolean {
    const box = list();
    return box.scrollHeight - box.scrollTop - box.clientHeight < 40;
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

  /** Brings the message being edited into view; false when none is. */
  function revealEditing(): boolean {
    const { editing } = store.state;
    const node = editing ? list().querySelector<HTMLElement>(`[data-turn-id="${editing.turnId}"]`) : null;
    node?.scrollIntoView({ block: 'nearest' });
    return node !== null;
  }

  /** Links in answers open through the host, and only when they are https. */
  function wire(): void {
    list().addEventListener('click', (e) => {
      const link = (e.target as HTMLElement).closest('a');
      if (!link) return;
      e.preventDefault();
      const href = link.getAttribute('href') ?? '';
      if (/^https:\/\//i.test(href)) post({ type: 'link/open', url: href });
    });
  }

  return {
    renderConversation,
    renderEmpty,
    renderTurn,
    renderStreaming,
    finishStreamed,
    answerDrawing,
    revealEditing,
    wire,
  };
}
