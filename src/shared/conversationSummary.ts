// "Start a new conversation with a summary", the way out of a conversation that no longer fits the model's window.
// The summary is built here, from the conversation's own words, not asked of a model: the conversation already
// overflows the selected model's window, so sending it for a summary would overflow the same way (or cost a second
// model the whole conversation), and a local summary costs nothing, sends nothing, and is shown in the prompt box of
// the new conversation to be read and changed before it goes, through the secret guard and spend cap as any prompt.
// Each exchange keeps its beginning, the newest ones more of it, within a token budget.
import type { ChatTurn } from './protocol.ts';
import { modelTextTokens } from './tokenCount.ts';

export interface SummaryWords {
  /** The first line: what this is and how it was made. */
  heading: string;
  asked: string;
  answered: string;
  /** "{0} earlier exchanges are left out." */
  leftOut: string;
}

/** Characters kept of a prompt and an answer: the last exchange most, the ones before it less. */
const NEWEST = { prompt: 1200, answer: 2000 };
const OLDER = { prompt: 300, answer: 400 };

function clip(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars).trimEnd()}…`;
}

interface Exchange {
  prompt: string;
  answer: string;
}

function exchanges(turns: readonly ChatTurn[]): Exchange[] {
  const list: Exchange[] = [];
  for (const turn of turns) {
    if (turn.role === 'user') list.push({ prompt: turn.text, answer: '' });
    else if (list.length > 0 && (turn.status === 'done' || turn.status === 'interrupted'))
      list[list.length - 1]!.answer = turn.text || turn.refusal || '';
  }
  return list;
}

/** The summary, newest exchange fullest, within `budget` tokens of `model`; '' for an empty conversation. */
export function conversationSummary(
  turns: readonly ChatTurn[],
  words: SummaryWords,
  model: string,
  budget: number,
): string {
  const all = exchanges(turns);
  if (all.length === 0) return '';
  const kept: string[] = [];
  let used = modelTextTokens(words.heading, model);
  for (let i = all.length - 1; i >= 0; i--) {
    const size = i === all.length - 1 ? NEWEST : OLDER;
    const { prompt, answer } = all[i]!;
    const lines = [`- ${words.asked} ${clip(prompt, size.prompt)}`];
    if (answer) lines.push(`  ${words.answered} ${clip(answer, size.answer)}`);
    const text = lines.join('\n');
    const cost = modelTextTokens(text, model);
    if (kept.length > 0 && used + cost > budget) {
      kept.unshift(words.leftOut.replace('{0}', String(i + 1)));
      break;
    }
    kept.unshift(text);
    used += cost;
  }
  return [words.heading, ...kept].join('\n');
}
