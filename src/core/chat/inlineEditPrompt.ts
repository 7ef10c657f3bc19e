// What an inline edit asks a model (issue 34 §1), and how its answer becomes lines: the instruction and the lines
// it replaces, and for a follow-up ("make it shorter") the earlier instruction and answer as the turns before, so
// the model refines its last edit rather than starting over. The answer is code only; a Markdown fence a model adds
// anyway is dropped, and nothing after its closing fence is taken.
import type { Attachment } from '../../shared/protocol.ts';
import { composePrompt } from '../../shared/sentText.ts';
import type { Turn } from '../services/module.ts';

/** Where the lines are: the file as the person knows it, its language, the first line (1-based). */
export interface EditPlace {
  file: string;
  languageId: string;
  startLine: number;
}

/** One round of an inline edit: what was asked, the lines it replaced, and the answer that replaced them. */
export interface EditRound {
  instruction: string;
  code: string;
  answer: string;
}

export const INLINE_EDIT_INSTRUCTIONS = [
  'You edit code in the person’s editor.',
  'Answer with only the lines that replace the given code: no explanation, no Markdown fences.',
  'Keep the indentation and the style of the code around it; change only what the instruction asks.',
].join(' ');

function codeBlock(languageId: string, code: string): string {
  // A fence longer than any run of backticks in the code, so the code cannot close it.
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${languageId}\n${code}\n${fence}`;
}

function ask(instruction: string, code: string, place: EditPlace): string {
  return [
    `${place.file}, from line ${place.startLine}:`,
    codeBlock(place.languageId, code),
    `Instruction: ${instruction}`,
  ].join('\n');
}

/**
 * The turns of the request. A follow-up repeats the earlier round (its instruction and code, and the answer) and
 * then asks again for the lines as they are now, which the new answer replaces. What the instruction's `#`
 * references pointed at goes in the last turn before the lines, so the lines and the instruction are read last.
 */
export function inlineEditTurns(
  instruction: string,
  code: string,
  place: EditPlace,
  earlier?: EditRound,
  context: readonly Attachment[] = [],
): Turn[] {
  const pointed = context.length > 0 ? `${composePrompt('What the instruction points at:', context)}\n\n` : '';
  if (!earlier) return [{ role: 'user', content: pointed + ask(instruction, code, place) }];
  return [
    { role: 'user', content: ask(earlier.instruction, earlier.code, place) },
    { role: 'assistant', content: earlier.answer },
    {
      role: 'user',
      content:
        pointed +
        [
          `Follow-up on your last edit: ${instruction}`,
          'Answer again with only the lines that replace this code, as it is now:',
          codeBlock(place.languageId, code),
        ].join('\n'),
    },
  ];
}

/** The answer's text, as it streams, in whole lines; a leading fence and everything from its closing fence dropped. */
export class AnswerLines {
  private buffer = '';
  private seen = 0;
  private fenced = false;
  private closed = false;

  /** The lines this delta completes. */
  push(delta: string): string[] {
    this.buffer += delta;
    const parts = this.buffer.split('\n');
    this.buffer = parts.pop() ?? '';
    return parts.flatMap((line) => this.take(line.replace(/\r$/, '')));
  }

  /** The last line, when the answer did not end with a line break. */
  finish(): string[] {
    const last = this.buffer.replace(/\r$/, '');
    this.buffer = '';
    return last === '' ? [] : this.take(last);
  }

  private take(line: string): string[] {
    if (this.closed) return [];
    const fence = /^\s*(`{3,}|~{3,})/.test(line);
    if (this.seen === 0 && fence) {
      this.fenced = true;
      return [];
    }
    if (this.fenced && fence && line.trim().replace(/[`~]/g, '') === '') {
      this.closed = true;
      return [];
    }
    this.seen++;
    return [line];
  }
}
