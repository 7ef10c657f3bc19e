// The figures under the prompt box: how many tokens the next request carries against the model's context window,
// and what the conversation has cost so far. Reported usage wins where the service gave it (the last answer's input
// and output tokens hold everything before it); the rest is counted (tokenCount.ts). A cost the service did not
// report is estimated from the reported tokens and the model list's prices, and said to be; an answer with neither
// is counted as unknown rather than as free.
import { answerVersions } from './answerVersions.ts';
import type { Attachment, ChatTurn, ModelOption } from './protocol.ts';
import type { ServiceId } from './serviceIds.ts';
import { modelTextTokens, tokenCounting } from './tokenCount.ts';

/** Role and framing tokens per message, as OpenAI's cookbook counts them (as core/lm/tokenEstimate.ts). */
const PER_MESSAGE = 4;
/** The words around an attached file ("File a.ts (typescript), lines 1-9:" and the fence). */
const PER_ATTACHMENT = 16;

export interface ContextFigures {
  /** Tokens of the conversation the next request sends, before the prompt box's text. */
  conversation: number;
  /** The prompt box's text and attached code. */
  draft: number;
  /** The selected model's context window; null when its list does not say (the direct service's). */
  window: number | null;
  /** Some of the count is neither reported nor within 10 % of the model's tokenizer: an estimate. */
  estimate: boolean;
}

export interface CostFigures {
  usd: number;
  /** Some of it was estimated from tokens and prices, as the service reported no cost. */
  estimated: boolean;
  /** Answers whose cost nobody knows (no cost reported, no price listed). */
  unknown: number;
}

/** A turn the next request carries: every prompt, and answers that ended with text (core/chat/conversation.ts). */
const isSent = (turn: ChatTurn) => turn.role === 'user' || turn.status === 'done' || turn.status === 'interrupted';

function turnTokens(turn: ChatTurn, model: string): number {
  const text = turn.role === 'user' ? turn.text : turn.text || turn.refusal || '';
  const attached = (turn.attachments ?? []).reduce((n, a) => n + PER_ATTACHMENT + modelTextTokens(a.text, model), 0);
  return PER_MESSAGE + modelTextTokens(text, model) + attached;
}

/** What the prompt box adds to the next request. */
export function draftTokens(draft: string, attachments: readonly Attachment[], model: string): number {
  if (draft.trim() === '' && attachments.length === 0) return 0;
  return turnTokens({ role: 'user', text: draft, attachments: [...attachments] } as ChatTurn, model);
}

/** The conversation's tokens for `model` (the one selected), and its window from the model list. */
export function contextFigures(
  turns: readonly ChatTurn[],
  model: string,
  option: ModelOption | undefined,
  draft = 0,
): ContextFigures {
  const sent = turns.filter(isSent);
  // The last answer whose usage was reported: its input held every turn before it.
  let from = 0;
  let conversation = 0;
  for (let i = sent.length - 1; i >= 0; i--) {
    const usage = sent[i]!.usage;
    if (sent[i]!.role === 'assistant' && usage) {
      conversation = usage.inputTokens + usage.outputTokens;
      from = i + 1;
      break;
    }
  }
  const counted = sent.slice(from);
  for (const turn of counted) conversation += turnTokens(turn, model);
  const measured = tokenCounting(model).measured;
  return {
    conversation,
    draft,
    window: option?.contextLength ?? null,
    estimate: !measured && (counted.length > 0 || draft > 0),
  };
}

/** Every answer and each of its earlier versions (a regenerated answer was paid for too). */
function answers(turns: readonly ChatTurn[]): ChatTurn[] {
  return turns.filter((t) => t.role === 'assistant').flatMap(answerVersions);
}

/** The conversation's cost so far: reported where the service said, estimated from usage and prices elsewhere. */
export function costFigures(
  turns: readonly ChatTurn[],
  models: Partial<Record<ServiceId, ModelOption[] | null>>,
): CostFigures {
  const figures: CostFigures = { usd: 0, estimated: false, unknown: 0 };
  for (const turn of answers(turns)) {
    if (typeof turn.costUsd === 'number' && Number.isFinite(turn.costUsd)) {
      figures.usd += turn.costUsd;
      continue;
    }
    const option = models[turn.service]?.find((m) => m.id === turn.model);
    if (option?.free || turn.model.endsWith(':free')) continue;
    const { usage } = turn;
    if (!usage) {
      // A request that failed before an answer began charged nothing; one that answered and reported nothing did.
      if (turn.text !== '' || turn.status === 'done') figures.unknown += 1;
      continue;
    }
    if (option && option.inputPerMillion !== null && option.outputPerMillion !== null) {
      figures.usd += (usage.inputTokens * option.inputPerMillion + usage.outputTokens * option.outputPerMillion) / 1e6;
      figures.estimated = true;
    } else figures.unknown += 1;
  }
  return figures;
}
