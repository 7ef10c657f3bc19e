// An answer written back where its text came from (the inline edit) must not write a redaction's placeholder over
// the person's key: the model saw "[redacted key sk-…abcd]" where the key stands, and answers with it. This puts the
// key back where the placeholder comes back, on this machine, as the answer streams. A placeholder split over two
// deltas is held back until it is whole; text that cannot start one goes on at once. Two different keys behind the
// same placeholder (the same masked form) are ambiguous: that placeholder stays, and is counted as left.
import type { Mask } from '../guards/secretGuard.ts';

/** The mark every placeholder starts with (core/guards/secretGuard.ts). */
const OPENING = '[redacted key ';
/** Longer than any placeholder: a masked key is a prefix, an ellipsis and four characters. */
const LONGEST = 200;

export class MaskRestorer {
  private readonly originals = new Map<string, string>();
  private readonly ambiguous = new Set<string>();
  private held = '';
  /** Placeholders that went on as they are: changed by the model, or ambiguous. */
  left = 0;

  constructor(masks: readonly Mask[]) {
    for (const { placeholder, original } of masks) {
      const known = this.originals.get(placeholder);
      if (known !== undefined && known !== original) this.ambiguous.add(placeholder);
      this.originals.set(placeholder, original);
    }
    for (const placeholder of this.ambiguous) this.originals.delete(placeholder);
  }

  /** The text to pass on for `delta`: placeholders made whole are replaced, a possible start is held back. */
  push(delta: string): string {
    const text = this.held + delta;
    let out = '';
    let from = 0;
    for (;;) {
      const first = text.indexOf(OPENING, from);
      if (first < 0) break;
      const close = text.indexOf(']', first + OPENING.length);
      // "[redacted key [redacted key sk-…]": the placeholder is the last opening before the bracket.
      const at = close < 0 ? first : text.lastIndexOf(OPENING, close - OPENING.length);
      const line = text.indexOf('\n', at);
      if (close < 0 || (line >= 0 && line < close)) {
        // Not closed yet: held back while it could still be one (a placeholder is one short line).
        if (line < 0 && text.length - at <= LONGEST) {
          this.held = text.slice(at);
          return out + text.slice(from, at);
        }
        out += text.slice(from, at + 1);
        from = at + 1;
        continue;
      }
      out += text.slice(from, at) + this.restored(text.slice(at, close + 1));
      from = close + 1;
    }
    // A tail that may be the start of the opening waits for the next delta.
    let keep = text.length;
    for (let k = Math.min(OPENING.length - 1, text.length - from); k > 0; k--)
      if (text.endsWith(OPENING.slice(0, k))) {
        keep = text.length - k;
        break;
      }
    this.held = text.slice(keep);
    return out + text.slice(from, keep);
  }

  /** The end of the answer: whatever was held back goes on as it is. */
  end(): string {
    const rest = this.held;
    this.held = '';
    if (rest.startsWith(OPENING)) this.left++;
    return rest;
  }

  private restored(candidate: string): string {
    if (!candidate.startsWith(OPENING)) return candidate;
    const original = this.originals.get(candidate);
    if (original !== undefined) return original;
    this.left++;
    return candidate;
  }
}
