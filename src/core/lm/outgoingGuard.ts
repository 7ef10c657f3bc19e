// The secret guard for language-model requests from VS Code: no one is asked (another extension may be sending),
// so a key anywhere in the messages (a text part, a tool call's input, a tool result) stops the request, and the
// error names where each key is. Nothing is redacted and sent in its place: the caller decides what to resend.
import { type ScanOptions, scanText } from '../scan/scanner.ts';
import type { LmMessage, LmPart } from './messages.ts';

export interface KeyLocation {
  /** 0-based, in the request's messages. */
  message: number;
  /** 0-based, in that message's parts. */
  part: number;
  kind: LmPart['kind'];
  masked: string;
  description: string;
}

function scannedText(part: LmPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'toolResult':
      return part.text;
    case 'toolCall':
      return `${part.name} ${JSON.stringify(part.input ?? {})}`;
    case 'image':
      return '';
  }
}

/** Every key in the messages, where it is. */
export function keysInMessages(messages: readonly LmMessage[], options: ScanOptions): KeyLocation[] {
  const found: KeyLocation[] = [];
  messages.forEach((message, m) =>
    message.parts.forEach((part, p) => {
      const text = scannedText(part);
      if (!text) return;
      for (const f of scanText(text, options))
        found.push({ message: m, part: p, kind: part.kind, masked: f.masked, description: f.description });
    }),
  );
  return found;
}

const PART_WORDS: Record<LmPart['kind'], string> = {
  text: 'text',
  toolCall: 'tool call',
  toolResult: 'tool result',
  image: 'image',
};

/** The places in English, 1-based as a person counts: "message 2, part 1 (tool result): sk-or-…a1b2 (…)". */
export function describeLocations(found: readonly KeyLocation[]): string {
  return found
    .map((f) => `message ${f.message + 1}, part ${f.part + 1} (${PART_WORDS[f.kind]}): ${f.masked} (${f.description})`)
    .join('; ');
}
