// Resolving the `#` references of a prompt (shared/contextRefs.ts) into the pieces sent with it, without an
// editor: the host reads each one (host/chat/contextReaders.ts) and this decides what goes, how it is worded, and
// what is too big to send. The chat and the inline edit both resolve through here.
import type { Attachment } from '../../shared/protocol.ts';
import { type ContextRefName, findContextRefs, withoutContextRefs } from '../../shared/contextRefs.ts';

/**
 * The most text one reference may add: 200,000 characters is about 50,000 tokens, a quarter to a half of most
 * models' windows. A bigger piece is refused by name, with its size and this limit, rather than cut silently.
 */
export const CONTEXT_MAX_CHARS = 200_000;

/** One reference as the host read it. */
export interface ContextPiece {
  name: ContextRefName;
  /** The file (workspace-relative), or the terminal's name, or what the diff covers. */
  label: string;
  languageId: string;
  text: string;
  /** 1-based, inclusive: the range of the file it covers; 1 to its line count when it is not a range of a file. */
  startLine?: number;
  endLine?: number;
}

/** Why a reference was not sent: the host words it (host/chat/contextReaders.ts). */
export type ContextRefusal =
  | { name: ContextRefName; why: 'noEditor' | 'noSelection' | 'noProblems' | 'noChanges' | 'noTerminal' | 'noFolder' }
  | { name: ContextRefName; why: 'tooLarge'; chars: number; limit: number }
  | { name: ContextRefName; why: 'unreadable'; detail: string };

export type ContextRead = ContextPiece | ContextRefusal;

export const isRefusal = (read: ContextRead): read is ContextRefusal => 'why' in read;

/** The piece as an attachment (its chip, and its block in the sent text), or the refusal when it is too big. */
export function contextAttachment(piece: ContextPiece, id: string): Attachment | ContextRefusal {
  if (piece.text.length > CONTEXT_MAX_CHARS)
    return { name: piece.name, why: 'tooLarge', chars: piece.text.length, limit: CONTEXT_MAX_CHARS };
  const lines = piece.text.split('\n').length;
  const attachment: Attachment = {
    id,
    fileName: piece.label,
    languageId: piece.languageId,
    startLine: piece.startLine ?? 1,
    endLine: piece.endLine ?? lines,
    text: piece.text,
  };
  // A file or a selection is a file's code, sent and applied as any attached code; the others say what they are.
  if (piece.name !== 'file' && piece.name !== 'selection') attachment.context = piece.name;
  return attachment;
}

/** What a prompt with references resolves to: its words without them, the pieces, and what could not go. */
export interface ResolvedPrompt {
  prompt: string;
  attachments: Attachment[];
  refused: ContextRefusal[];
}

/**
 * Reads each reference of `prompt` once (a name said twice is sent once), in the order they appear. The caller
 * sends nothing when `refused` is not empty: a prompt that says "#changes" and goes without them would be answered
 * as if the model had seen them.
 */
export async function resolvePrompt(
  prompt: string,
  read: (name: ContextRefName) => Promise<ContextRead>,
  newId: () => string,
): Promise<ResolvedPrompt> {
  const tokens = findContextRefs(prompt);
  const names = [...new Set(tokens.map((t) => t.name))];
  const attachments: Attachment[] = [];
  const refused: ContextRefusal[] = [];
  for (const name of names) {
    const got = await read(name);
    const resolved = isRefusal(got) ? got : contextAttachment(got, newId());
    if ('why' in resolved) refused.push(resolved);
    else attachments.push(resolved);
  }
  return { prompt: tokens.length > 0 ? withoutContextRefs(prompt, tokens) : prompt, attachments, refused };
}

/** A diagnostic as the problems reference lists it (VS Code's, mapped by the host). */
export interface Problem {
  /** 1-based. */
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string | undefined;
  code?: string | undefined;
}

/** The problems as lines the model reads: `12:5 error [ts 2304] Cannot find name 'x'.` */
export function problemsText(problems: readonly Problem[]): string {
  return [...problems]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map((p) => {
      const origin = [p.source, p.code].filter(Boolean).join(' ');
      return `${p.line}:${p.column} ${p.severity}${origin ? ` [${origin}]` : ''} ${p.message.replace(/\s*\n\s*/g, ' ')}`;
    })
    .join('\n');
}
