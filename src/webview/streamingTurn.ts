// The answer being streamed, drawn block by block as it grows, and finished in place when it ends.
import type { ChatTurn } from '../shared/protocol.ts';
import { answerExtras } from './answerParts.ts';
import type { ConversationScroll } from './conversationScroll.ts';
import { element } from './dom.ts';
import type { createBlockRenderer } from './markdown.ts';
import type { ChatStore } from './store.ts';
import { type AnswerDrawing, StreamedAnswer } from './streamedAnswer.ts';
import { finishNote } from './turnNotes.ts';
import { type TurnDrawing, answerFooter, safeTurnNode } from './turnNode.ts';

export interface StreamingParts {
  store: ChatStore;
  drawing: TurnDrawing;
  renderBlocks: ReturnType<typeof createBlockRenderer>;
  /** Markdown to HTML without code highlighting, for the tail that changes on every chunk. */
  renderPlain(text: string): string;
  scroll: ConversationScroll;
  list(): HTMLElement;
}

export function createStreamingTurn(parts: StreamingParts) {
  const { store, drawing, scroll } = parts;
  const { s } = drawing;
  /** The answer being streamed, drawn block by block as it grows. */
  let streamed: StreamedAnswer | undefined;

  const answerDrawing: AnswerDrawing = {
    blocks(texts) {
      const holder = document.createElement('div');
      holder.innerHTML = parts.renderBlocks(texts);
      drawing.decorate(holder);
      return Array.from(holder.children) as HTMLElement[];
    },
    tail: (text) => parts.renderPlain(text),
    changing(change) {
      const stick = scroll.nearBottom() && !store.state.editing;
      change();
      if (stick) scroll.scrollDown();
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
      node = safeTurnNode({ ...turn, text: '' }, drawing);
      parts.list().append(node);
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
        tail.innerHTML = drawing.render(rest);
        drawing.decorate(tail);
        node.classList.replace('streaming', 'done');
        node.removeAttribute('aria-busy');
        node.append(...answerExtras(turn, s), ...answerFooter(turn, drawing));
        const who = node.querySelector('.who');
        if (who) who.textContent = turn.model;
      })
    )
      return true;
    answer?.dispose();
    return false;
  }

  return { answerDrawing, renderStreaming, finishStreamed };
}
