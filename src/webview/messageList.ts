// The message list: the turns of the conversation drawn from the store, the answer being streamed
// drawn block by block, and the first screen in the conversation's place while it is empty. The parts live in
// turnNode.ts (one turn), streamingTurn.ts (the answer being streamed), conversationScroll.ts (where it scrolls).
import type { ChatTurn, WebviewMessage } from '../shared/protocol.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import type { ApplyStatuses } from './applyStatus.ts';
import { decorateCodeBlocks } from './codeBlocks.ts';
import { createConversationScroll } from './conversationScroll.ts';
import { byId } from './dom.ts';
import { emptyState } from './emptyState.ts';
import { icon } from './icons.ts';
import { createBlockRenderer, createRenderer } from './markdown.ts';
import { replacedNote } from './replacedNote.ts';
import type { ChatStore } from './store.ts';
import { createStreamingTurn } from './streamingTurn.ts';
import { type TurnDrawing, safeTurnNode } from './turnNode.ts';

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

/** How a turn is drawn, from the store and the list's hooks. */
function turnDrawing(store: ChatStore, hooks: MessageListHooks, render: (text: string) => string): TurnDrawing {
  const { s } = store;
  const { post, announce } = hooks;
  const hasCredits = (service: ServiceId) => store.state.services.find((x) => x.id === service)?.hasCredits ?? false;
  return {
    s,
    post,
    render,
    decorate: (container) => decorateCodeBlocks(container, s, post, announce, hooks.applies),
    cardHooks: { s, post, resend: hooks.resend, lockIcon: () => icon('lock'), hasCredits },
    actions: {
      s,
      post,
      announce,
      resend: hooks.resend,
      edit: hooks.edit,
      isLast: (turn) => store.state.turns.at(-1)?.id === turn.id,
    },
    applies: hooks.applies,
  };
}

export function createMessageList(store: ChatStore, hooks: MessageListHooks) {
  const { s } = store;
  const { post } = hooks;
  const render = createRenderer();
  const list = () => byId('conversation');
  const drawing = turnDrawing(store, hooks, (text) => render(text));
  const scroll = createConversationScroll(store, list);
  const streaming = createStreamingTurn({
    store,
    drawing,
    renderBlocks: createBlockRenderer(),
    renderPlain: (text) => render(text, { highlight: false }),
    scroll,
    list,
  });

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

  function renderConversation(): void {
    const { turns, replacedNotice } = store.state;
    const nodes = turns.map((turn) => safeTurnNode(turn, drawing));
    const at = replacedNotice ? turns.findIndex((t) => t.id === replacedNotice.userId) : -1;
    if (replacedNotice && at >= 0) nodes.splice(at, 0, replacedNote(replacedNotice.count, s, hooks.undoEdit));
    list().replaceChildren(...nodes);
    renderEmpty();
    scroll.scrollDown();
  }

  function renderTurn(id: string): void {
    const turn = store.state.turns.find((t) => t.id === id);
    const old = document.querySelector(`[data-turn-id="${id}"]`);
    if (!turn) return;
    const node = safeTurnNode(turn, drawing);
    if (old) old.replaceWith(node);
    else list().append(node);
    scroll.scrollDown();
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
    renderStreaming: streaming.renderStreaming,
    finishStreamed: streaming.finishStreamed,
    answerDrawing: streaming.answerDrawing,
    revealEditing: scroll.revealEditing,
    wire,
  };
}
