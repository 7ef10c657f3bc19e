// A conversation as the services receive it and as the export writes it: pure
// functions over the panel's turns, so both can be tested without an editor.
import type { Attachment, ChatTurn } from '../../shared/protocol.ts';
import type { Turn } from './promptRunner.ts';
import { fingerprint } from '../keys/fingerprint.ts';
import { SERVICES } from '../services/descriptors.ts';
import { composePrompt } from '../../shared/sentText.ts';

export { composePrompt };

/**
 * The turns to send for a new prompt: every earlier turn that ended with an
 * answer (or was cut off with part of one), whichever service answered it, so
 * a conversation that switches services keeps one memory; then the new prompt.
 */
export function promptTurns(history: readonly ChatTurn[], prompt: string, attachments: readonly Attachment[]): Turn[] {
  const previous = history.filter(
    (turn) => turn.role === 'user' || turn.status === 'done' || turn.status === 'interrupted',
  );
  const turns: Turn[] = previous.map((turn) => ({
    role: turn.role,
    content: turn.role === 'user' ? composePrompt(turn.text, turn.attachments ?? []) : turn.text || turn.refusal || '',
  }));
  turns.push({ role: 'user', content: composePrompt(prompt, attachments) });
  return turns;
}

/**
 * The stored response the direct service continues from: only when it is the
 * last thing in the conversation, since it then holds everything before it.
 * After a turn from the other service, or a failed one, the direct service
 * gets the whole visible history instead.
 */
export function lastResponseId(history: readonly ChatTurn[], responseKey?: string): string | undefined {
  const last = history.at(-1);
  // A response stored under another key (or organisation, or base URL) is unknown to this one: the service would
  // answer 400 previous_response_not_found. The visible history goes instead. Turns from before the key was
  // recorded keep their chain; if it breaks, the error says so and Send again sends the history.
  if (last?.responseKey && responseKey !== undefined && last.responseKey !== responseKey) return undefined;
  return last?.role === 'assistant' &&
    SERVICES[last.service].capabilities.chainsResponses &&
    last.status === 'done' &&
    last.responseId
    ? last.responseId
    : undefined;
}

/**
 * Edit-and-resend: the turns that stay when the user's turn `turnId` is sent again as edited (everything before
 * it), and the turns it replaces (it and everything after), as Copilot Chat continues from the edited message.
 * The kept turns end where the edited one began, so the direct service's chain restarts from the answer before
 * it (`lastResponseId` of the kept turns). Undefined when the conversation has no such user turn.
 */
export function splitAtEdit(
  turns: readonly ChatTurn[],
  turnId: string,
): { kept: ChatTurn[]; replaced: ChatTurn[] } | undefined {
  const index = turns.findIndex((turn) => turn.id === turnId);
  if (index < 0 || turns[index]!.role !== 'user') return undefined;
  return { kept: turns.slice(0, index), replaced: turns.slice(index) };
}

/**
 * Regenerate: the answer `answerId` asked again from the context that produced it. `before` is what was sent ahead
 * of its prompt (so `promptTurns(before, prompt.text, prompt.attachments)` is what that request sent, neither the
 * old answer nor the prompt a second time), and the new answer goes where the old one was, with `after` kept as it
 * is. Undefined when the conversation has no such answer, or its prompt is not right before it.
 */
export function splitAtAnswer(
  turns: readonly ChatTurn[],
  answerId: string,
): { before: ChatTurn[]; prompt: ChatTurn; answer: ChatTurn; after: ChatTurn[] } | undefined {
  const index = turns.findIndex((turn) => turn.id === answerId);
  if (index < 1 || turns[index]!.role !== 'assistant' || turns[index - 1]!.role !== 'user') return undefined;
  return {
    before: turns.slice(0, index - 1),
    prompt: turns[index - 1]!,
    answer: turns[index]!,
    after: turns.slice(index + 1),
  };
}

/** Names the key and base URL a stored response belongs to, without holding the key. */
export function responseKeyOf(key: string, baseUrl: string): string {
  return fingerprint(`${baseUrl}\n${key.trim()}`);
}

/** The export's sentences, localised by the host. */
export interface ExportWords {
  declined: string;
  cutOff: string;
  filtered: string;
  /** "Tokens: {0} in, {1} out" */
  tokens: string;
  /** "Cost: {0}" */
  cost: string;
}

/** An answer's tokens and cost, as the chat shows them under it (webview/turnNotes.ts); null when none were reported. */
function usageLine(turn: ChatTurn, words: ExportWords): string | null {
  const parts: string[] = [];
  if (turn.usage)
    parts.push(
      words.tokens.replace('{0}', String(turn.usage.inputTokens)).replace('{1}', String(turn.usage.outputTokens)),
    );
  if (turn.costUsd !== null && turn.costUsd !== undefined)
    parts.push(words.cost.replace('{0}', `$${turn.costUsd.toFixed(6)}`));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The conversation as Markdown; the caller masks keys before it reaches disk. */
export function conversationMarkdown(turns: readonly ChatTurn[], words: ExportWords, title?: string): string {
  const parts = [title ? `# Keyward conversation: ${title.replace(/\s+/g, ' ')}` : '# Keyward conversation', ''];
  for (const turn of turns) {
    if (turn.role === 'user') {
      parts.push(`## You (${turn.service}, ${turn.model})`, '', composePrompt(turn.text, turn.attachments ?? []), '');
    } else {
      parts.push(`## ${turn.model}${turn.status !== 'done' ? ` (${turn.status})` : ''}`, '', turn.text, '');
      if (turn.refusal) parts.push(`> ${words.declined}: ${turn.refusal}`, '');
      if (turn.finishReason === 'length' || turn.finishReason === 'content_filter')
        parts.push(`_${turn.finishReason === 'length' ? words.cutOff : words.filtered}_`, '');
      if (turn.error) parts.push(`> ${turn.error.kind}: ${turn.error.message}`, '');
      const usage = usageLine(turn, words);
      if (usage) parts.push(`_${usage}_`, '');
    }
  }
  return parts.join('\n');
}
