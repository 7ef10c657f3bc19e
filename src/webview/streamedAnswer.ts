// The answer that is streaming, drawn as it grows: finished blocks once each,
// the growing tail again every frame. Blocks are drawn within a time budget per
// frame, so a burst of text (a fast model, a tab that was hidden) is spread over
// frames instead of freezing the panel in one long task.
import { BlockSplitter } from './blocks.ts';

/** How long one frame may spend drawing finished blocks (the long-task threshold is 50 ms). */
const BUDGET_MS = 8;
/** Blocks sanitised in one pass at most: small enough to stop near the budget. */
const MAX_BATCH = 4;
/**
 * Finished blocks are kept in groups of this many: a block added to one flat list made the browser walk every
 * earlier block again to lay the list out, a cost that grew with the answer; a group is laid out on its own
 * (and skipped while off screen, see panel.css).
 */
const GROUP_SIZE = 24;

export interface AnswerDrawing {
  /** Finished blocks, as elements to insert (highlighted, with their code tools). */
  blocks(texts: readonly string[]): HTMLElement[];
  /** The growing tail's HTML (not highlighted: it changes every frame). */
  tail(text: string): string;
  /** Around every change: keeps the conversation at its end if it was there. */
  changing(change: () => void): void;
}

export class StreamedAnswer {
  private readonly splitter = new BlockSplitter();
  /** Finished blocks not drawn yet, in order. */
  private readonly queue: string[] = [];
  private text = '';
  private frame = 0;
  private onFinished: ((rest: string) => void) | undefined;
  private group: HTMLElement | undefined;

  readonly id: string;
  private readonly tailNode: HTMLElement;
  private readonly drawing: AnswerDrawing;

  constructor(id: string, tailNode: HTMLElement, drawing: AnswerDrawing) {
    this.id = id;
    this.tailNode = tailNode;
    this.drawing = drawing;
  }

  /** Still on screen (a conversation drawn again replaces it). */
  get attached(): boolean {
    return this.tailNode.isConnected;
  }

  /** The text grew to `text`. */
  update(text: string): void {
    this.text = text;
    this.queue.push(...this.splitter.feed(text));
    this.draw();
  }

  /**
   * The answer ended with `text`: once every block is drawn, `finished` gets the tail element and the last
   * block's text. False when `text` is not the streamed text grown (what is on screen would not be it).
   */
  finish(text: string, finished: (tail: HTMLElement, rest: string) => void): boolean {
    if (!text.startsWith(this.text)) return false;
    this.onFinished = (rest) => finished(this.tailNode, rest);
    this.update(text);
    return true;
  }

  /** Stops drawing: the turn is drawn some other way now. */
  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.onFinished = undefined;
  }

  private groupWithRoom(): HTMLElement {
    if (!this.group || this.group.childElementCount >= GROUP_SIZE) {
      this.group = document.createElement('div');
      this.group.className = 'blocks';
      this.tailNode.before(this.group);
    }
    return this.group;
  }

  private draw(): void {
    if (!this.attached) return this.dispose();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    const until = performance.now() + BUDGET_MS;
    this.drawing.changing(() => {
      // Batches grow while they stay cheap: the first blocks also pay for compiling grammars.
      let batch = 1;
      while (this.queue.length > 0 && performance.now() < until) {
        for (const block of this.drawing.blocks(this.queue.splice(0, batch))) this.groupWithRoom().append(block);
        batch = Math.min(batch * 2, MAX_BATCH);
      }
      // Behind: the tail (still showing the start of the next block) waits, and the next frame goes on.
      if (this.queue.length > 0) return;
      const rest = this.splitter.tail(this.text);
      if (this.onFinished) {
        const finished = this.onFinished;
        this.onFinished = undefined;
        finished(rest);
      } else this.tailNode.innerHTML = this.drawing.tail(rest);
    });
    if (this.queue.length > 0) this.frame = requestAnimationFrame(() => this.draw());
  }
}
