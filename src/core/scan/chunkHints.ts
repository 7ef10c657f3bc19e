// Which lines of a piece of `git log -p` output can need more than counting (historyParser.ts's plain hunks): the
// places a key prefix may end (precheck.ts's search, run once over the whole piece instead of once per line) and the
// NUL bytes (UTF-16 text). An added line with neither cannot hold a key the line's own pre-check would let through,
// so the parser counts it and goes on without a view of its bytes, a decode or a search of its own: most of a
// history's lines are such lines, and a Buffer per line was most of what its parse allocated.
import { candidatesOf } from './precheck.ts';

export class ChunkHints {
  private chunk: Uint8Array = new Uint8Array(0);
  /** Where a prefix may end in the chunk (nextCandidate), in order, and the first not yet passed. */
  private candidates: number[] = [];
  private nextCandidate = 0;
  /** The first NUL byte at or after the last line asked about, or the chunk's length for none. */
  private nul = 0;

  /** Starts on a new chunk: searched once, whole. */
  reset(chunk: Uint8Array): void {
    this.chunk = chunk;
    this.candidates = candidatesOf(chunk);
    this.nextCandidate = 0;
    this.nul = -1;
  }

  /**
   * Whether chunk[start, end) (a line's text, asked in order) has a place where a prefix may end, or a NUL byte.
   * Never false where the line alone would say true: a prefix ends two bytes or more into a line, and the search
   * reads two bytes back, all in the line; one that starts in the line before is a false alarm at worst.
   */
  worthReading(start: number, end: number): boolean {
    const found = this.candidates;
    let at = this.nextCandidate;
    while (at < found.length && found[at]! < start) at++;
    this.nextCandidate = at;
    if (at < found.length && found[at]! < end) return true;
    if (this.nul < start) {
      const nul = this.chunk.indexOf(0, start);
      this.nul = nul === -1 ? this.chunk.length : nul;
    }
    return this.nul < end;
  }
}
