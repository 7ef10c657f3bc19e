// Splits streamed markdown into finished blocks and the tail still growing, so a
// long answer is not re-rendered whole on every frame. A blank line outside a
// code fence ends a block.
const FENCE = /^\s{0,3}(```|~~~)/;

/**
 * Fed a text that only grows, each call reads only the lines that arrived
 * complete since the last one, so a frame of a long answer costs what the new
 * text costs, not the whole answer again.
 */
export class BlockSplitter {
  /** Where the block being built starts. */
  private start = 0;
  /** Where the first line not yet read starts. */
  private next = 0;
  private inFence = false;

  /** The blocks `text` finished since the last call; `text` must extend the text of that call. */
  feed(text: string): string[] {
    const done: string[] = [];
    // Only complete lines: the last one may still grow, and it cannot end a block until its newline arrives.
    for (let end = text.indexOf('\n', this.next); end !== -1; end = text.indexOf('\n', this.next)) {
      const lineStart = this.next;
      this.next = end + 1;
      if (FENCE.test(text.slice(lineStart, Math.min(end, lineStart + 8)))) this.inFence = !this.inFence;
      else if (!this.inFence && lineStart > this.start && isBlank(text, lineStart, end)) {
        done.push(text.slice(this.start, lineStart));
        this.start = end + 1;
      }
    }
    return done;
  }

  /** The text after the last finished block. */
  tail(text: string): string {
    return text.slice(this.start);
  }
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!/\s/.test(text[i]!)) return false;
  return true;
}
