// A conversation as the services receive it and as the export writes it: pure
// functions over the panel's turns, so both can be tested without an editor.
import type { ServiceId } from '../shared/errorKinds.ts';
import type { Attachment, ChatTurn } from '../shared/protocol.ts';
import type { Turn } from './promptRunner.ts';

/** Prompt text with the attached code, as the service receives it. */
export function composePrompt(prompt: string, attachments: readonly Attachment[]): string {
  const blocks = attachments.map(
    (a) =>
      `File ${a.fileName} (${a.languageId}), lines ${a.startLine}-${a.endLine}:\n\`\`\`${a.languageId}\n${a.text}\n\`\`\``,
  );
  return [prompt, ...blocks].join('\n\n');
}

/**
 * The turns to send for a new prompt: this service's earlier turns that ended
 * with an answer (or were cut off with part of one), then the new prompt.
 */
export function promptTurns(
  history: readonly ChatTurn[],
  service: ServiceId,
  prompt: string,
  attachments: readonly Attachment[],
): Turn[] {
  const previous = history.filter(
    (turn) =>
      turn.service === service && (turn.role === 'user' || turn.status === 'done' || turn.status === 'interrupted'),
  );
  const turns: Turn[] = previous.map((turn) => ({
    role: turn.role,
    content: turn.role === 'user' ? composePrompt(turn.text, turn.attachments ?? []) : turn.text || turn.refusal || '',
  }));
  turns.push({ role: 'user', content: composePrompt(prompt, attachments) });
  return turns;
}

/** The stored response the direct service continues from, if the conversation has one. */
export function lastResponseId(history: readonly ChatTurn[]): string | undefined {
  return (
    [...history].reverse().find((turn) => turn.service === 'direct' && turn.role === 'assistant' && turn.responseId)
      ?.responseId ?? undefined
  );
}

/** The export's sentences, localised by the host. */
export interface ExportWords {
  declined: string;
  cutOff: string;
  filtered: string;
}

/** The conversation as Markdown; the caller masks keys before it reaches disk. */
export function conversationMarkdown(turns: readonly ChatTurn[], words: ExportWords): string {
  const parts = ['# Keyward conversation', ''];
  for (const turn of turns) {
    if (turn.role === 'user') {
      parts.push(`## You (${turn.service}, ${turn.model})`, '', composePrompt(turn.text, turn.attachments ?? []), '');
    } else {
      parts.push(`## ${turn.model}${turn.status !== 'done' ? ` (${turn.status})` : ''}`, '', turn.text, '');
      if (turn.refusal) parts.push(`> ${words.declined}: ${turn.refusal}`, '');
      if (turn.finishReason === 'length' || turn.finishReason === 'content_filter')
        parts.push(`_${turn.finishReason === 'length' ? words.cutOff : words.filtered}_`, '');
      if (turn.error) parts.push(`> ${turn.error.kind}: ${turn.error.message}`, '');
    }
  }
  return parts.join('\n');
}
