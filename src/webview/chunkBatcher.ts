// Chunks of a streamed answer are applied once per animation frame, so a fast stream never floods the DOM.
// The batcher owns what is waiting and the frame it waits for.

export class ChunkBatcher {
  private waiting: { requestId: string; text: string } | null = null;
  private frame = 0;
  private readonly apply: (requestId: string, text: string) => void;

  /** `apply` receives what arrived since the last frame, joined, for one request. */
  constructor(apply: (requestId: string, text: string) => void) {
    this.apply = apply;
  }

  /** A chunk waits for the next frame; a chunk of another request first applies what waits. */
  add(requestId: string, text: string): void {
    if (this.waiting && this.waiting.requestId !== requestId) this.flush();
    this.waiting = this.waiting ? { requestId, text: this.waiting.text + text } : { requestId, text };
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** Applies what waits now (the stream ended, or another began). */
  flush(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (!this.waiting) return;
    const { requestId, text } = this.waiting;
    this.waiting = null;
    this.apply(requestId, text);
  }
}
