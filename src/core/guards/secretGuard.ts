// The secret guard's logic: a key in the prompt or the attached code never
// leaves the editor. The question to the person is a port, so the host asks
// with a modal and tests answer without one.
import type { Attachment } from '../../shared/protocol.ts';
import { redactSecrets } from '../redact.ts';
import { type Finding, type ScanOptions, scanText } from '../scan/scanner.ts';

export type GuardAnswer = 'redact' | 'cancel';

/** A key the guard found: in the prompt (`piece` 0) or in attachment `piece - 1`; line and column 0-based. */
export interface GuardHit {
  piece: number;
  line: number;
  column: number;
  masked: string;
  description: string;
  /** In an attachment: its file as the chat shows it (a key in the name masked), and the key's 1-based line there. */
  file?: string;
  fileLine?: number;
}

/**
 * Asks whether to send with the keys redacted; `names` lists each key masked, with what it is (empty when none was
 * found), and `hits` says where each one is (the CLI names the place in its refusal). `unread` says why the stored
 * keys could not be compared: a key of a free-form shape could then go unnoticed.
 */
export type GuardQuestion = (names: string, hits: readonly GuardHit[], unread?: string) => Promise<GuardAnswer>;

export interface Guarded {
  prompt: string;
  attachments: Attachment[];
}

/** One redaction: `placeholder` stands where `original` was. */
export interface Mask {
  placeholder: string;
  original: string;
}

function redactText(text: string, found: readonly Finding[], masks: Mask[] = []): string {
  const lines = text.split('\n');
  // From the end, so earlier columns stay valid.
  for (const f of [...found].reverse()) {
    // A key split over lines (splitKeys.ts) ends on a later line: the lines between go with it.
    const tail = lines[f.endLine]!.slice(f.endColumn);
    const line = lines[f.line]!;
    const placeholder = `[redacted key ${f.masked}]`;
    const spanned = lines.slice(f.line, f.endLine + 1).join('\n');
    masks.push({ placeholder, original: spanned.slice(f.column, spanned.length - tail.length) });
    lines.splice(f.line, f.endLine - f.line + 1, `${line.slice(0, f.column)}${placeholder}${tail}`);
  }
  return lines.join('\n');
}

/**
 * What the guard's redaction of `text` puts in place of what, for an answer written back where the text came from
 * (the inline edit puts a key back where its placeholder returns). Kept apart from what guardPrompt returns, which is
 * sent and may be shown: these pairs stay on this machine, in memory.
 */
export function redactionMasks(text: string, options: ScanOptions): Mask[] {
  const masks: Mask[] = [];
  redactText(text, scanText(text, { ...options, allowComments: false }), masks);
  return masks;
}

/**
 * The texts to send (keys redacted when the person agreed), or undefined to cancel. With `unread` (why the stored
 * keys could not be read) the guard fails closed: it asks even when it finds nothing, since a stored key that has
 * no fixed shape is found only by its value.
 */
export async function guardPrompt(
  prompt: string,
  attachments: Attachment[],
  options: ScanOptions,
  ask: GuardQuestion,
  unread?: string,
): Promise<Guarded | undefined> {
  const pieces = [prompt, ...attachments.map((a) => a.text)];
  // An allow comment says a string may stay in a file, not that it may be sent to a model service: none counts here.
  const found = pieces.map((text) => scanText(text, { ...options, allowComments: false }));
  const all = found.flat();
  if (all.length === 0 && unread === undefined) return { prompt, attachments };
  const names = [...new Set(all.map((f) => `${f.masked} (${f.description})`))].join(', ');
  const hits = found.flatMap((list, piece) => {
    const attachment = attachments[piece - 1];
    return list.map(({ line, column, masked, description }) => ({
      piece,
      line,
      column,
      masked,
      description,
      // An attachment is a range of its file: the line a person finds the key at is counted from the range's start.
      ...(attachment ? { file: redactSecrets(attachment.fileName), fileLine: attachment.startLine + line } : {}),
    }));
  });
  if ((await ask(names, hits, unread)) !== 'redact') return undefined;
  const redacted = pieces.map((text, i) => redactText(text, found[i]!));
  return { prompt: redacted[0]!, attachments: attachments.map((a, i) => ({ ...a, text: redacted[i + 1]! })) };
}
