// The secret guard's logic: a key in the prompt or the attached code never
// leaves the editor. The question to the person is a port, so the host asks
// with a modal and tests answer without one.
import type { Attachment } from '../shared/protocol.ts';
import { type Finding, type ScanOptions, scanText } from './scan/scanner.ts';

export type GuardAnswer = 'redact' | 'cancel';

/** Asks whether to send with the keys redacted; `names` lists each key masked, with what it is. */
export type GuardQuestion = (names: string) => Promise<GuardAnswer>;

export interface Guarded {
  prompt: string;
  attachments: Attachment[];
}

function redactText(text: string, found: readonly Finding[]): string {
  const lines = text.split('\n');
  // From the end, so earlier columns stay valid.
  for (const f of [...found].reverse()) {
    // A key split over lines (splitKeys.ts) ends on a later line: the lines between go with it.
    const tail = lines[f.endLine]!.slice(f.endColumn);
    const line = lines[f.line]!;
    lines.splice(f.line, f.endLine - f.line + 1, `${line.slice(0, f.column)}[redacted key ${f.masked}]${tail}`);
  }
  return lines.join('\n');
}

/** The texts to send (keys redacted when the person agreed), or undefined to cancel. */
export async function guardPrompt(
  prompt: string,
  attachments: Attachment[],
  options: ScanOptions,
  ask: GuardQuestion,
): Promise<Guarded | undefined> {
  const pieces = [prompt, ...attachments.map((a) => a.text)];
  const found = pieces.map((text) => scanText(text, options));
  const all = found.flat();
  if (all.length === 0) return { prompt, attachments };
  const names = [...new Set(all.map((f) => `${f.masked} (${f.description})`))].join(', ');
  if ((await ask(names)) !== 'redact') return undefined;
  const redacted = pieces.map((text, i) => redactText(text, found[i]!));
  return { prompt: redacted[0]!, attachments: attachments.map((a, i) => ({ ...a, text: redacted[i + 1]! })) };
}
