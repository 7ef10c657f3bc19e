// What a key in the prompt box means: pure, so the keyboard contract is tested
// without a DOM. Enter sends and Shift+Enter breaks the line (or the other way
// round with `keyward.chat.enterSends` off); Ctrl/Cmd+Enter always sends.
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An IME is composing: its Enter confirms a word, it never sends. */
  isComposing: boolean;
}

export interface ComposerContext {
  enterSends: boolean;
  streaming: boolean;
  /** The prompt box holds nothing but white space. */
  empty: boolean;
}

/** `none` leaves the key to the text box (a new line, a caret move). */
export type ComposerIntent = 'send' | 'stop' | 'recall' | 'none';

export function composerIntent(press: KeyPress, context: ComposerContext): ComposerIntent {
  if (press.isComposing) return 'none';
  if (press.key === 'Enter') {
    if (press.altKey) return 'none';
    if (press.ctrlKey || press.metaKey) return 'send';
    if (press.shiftKey) return context.enterSends ? 'none' : 'send';
    return context.enterSends ? 'send' : 'none';
  }
  const plain = !press.shiftKey && !press.ctrlKey && !press.metaKey && !press.altKey;
  if (press.key === 'Escape' && plain && context.streaming) return 'stop';
  if (press.key === 'ArrowUp' && plain && context.empty) return 'recall';
  return 'none';
}

/** The prompt Up brings back: the last one sent in this conversation. */
export function lastPrompt(turns: readonly { role: string; text: string }[]): string | undefined {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.role === 'user') return turns[i]!.text;
  return undefined;
}
