// What the panel says around an answer, as plain data: pure, so it is tested
// without a DOM, and drawn the same however often the turn is drawn again.
import { missingScopesIn } from '../shared/scopes.ts';
import type { ChatTurn } from '../shared/protocol.ts';

export type { UiStrings as Strings } from '../shared/uiStrings.ts';
import type { UiStrings as Strings } from '../shared/uiStrings.ts';

/** The line under an answer that ended early: cut off at the token limit, or filtered. */
export function finishNote(turn: ChatTurn, s: Strings): { kind: 'length' | 'content_filter'; text: string } | null {
  if (turn.role !== 'assistant' || turn.refusal) return null;
  if (turn.finishReason === 'length')
    return { kind: 'length', text: s('finish.length', 'Cut off at the token limit.') };
  if (turn.finishReason === 'content_filter') {
    return {
      kind: 'content_filter',
      text:
        turn.text.trim() === ''
          ? s('finish.content_filter.empty', 'Filtered by the provider: its content filter withheld the whole answer.')
          : s('finish.content_filter', 'Filtered by the provider: the rest of the answer was withheld.'),
    };
  }
  return null;
}

/** The footer: model, tokens, cost, free count. Stopped and broken answers get one when the service reported usage. */
export function metaLine(turn: ChatTurn, s: Strings): string | null {
  if (turn.role !== 'assistant' || turn.status === 'streaming') return null;
  const reported = (turn.usage ?? null) !== null || (turn.costUsd ?? null) !== null;
  if (turn.status !== 'done' && turn.status !== 'interrupted' && !reported) return null;
  const parts = [turn.model];
  if (turn.usage) parts.push(`${turn.usage.inputTokens} + ${turn.usage.outputTokens} ${s('tokens', 'tokens')}`);
  if (turn.costUsd !== null && turn.costUsd !== undefined) parts.push(`$${turn.costUsd.toFixed(6)}`);
  // Capped: an account past its allowance must not read "1001/1000".
  if (turn.free && turn.free.limit !== null)
    parts.push(`${s('freeToday', 'free today')} ${Math.min(turn.free.used, turn.free.limit)}/${turn.free.limit}`);
  return parts.join(' · ');
}

/**
 * When the daily free allowance comes back: the moment fixed when the error
 * arrived. A turn saved before that moment was recorded says only "00:00 UTC",
 * never a time computed from whenever the card is drawn.
 */
export function resetText(
  turn: ChatTurn,
  s: Strings,
  format: (date: Date) => string = (d) => d.toLocaleString(),
): string | null {
  if (turn.error?.kind !== 'free_limit_day') return null;
  const at = turn.retryAt ? Date.parse(turn.retryAt) : NaN;
  if (Number.isNaN(at)) return s('resetsAtUtc', 'The free allowance resets at 00:00 UTC.');
  return `${s('resetsAt', 'The free allowance resets at')} ${format(new Date(at))}`;
}

/** The scopes a permission error says the key lacks, each with what it allows. */
export function missingScopes(turn: ChatTurn, s: Strings): { scope: string; meaning: string }[] {
  if (turn.error?.kind !== 'permission') return [];
  const named = missingScopesIn(turn.error.message);
  const scopes =
    named.length > 0 ? named : turn.error.code && /^[a-z]+(\.[a-z_]+)+$/.test(turn.error.code) ? [turn.error.code] : [];
  return scopes.map((scope) => ({ scope, meaning: s(`scope.${scope}`, 'a permission this request needs') }));
}

/** How long until a moment, the way a person says it: "in 40 s", "in 25 min", "in 3 h", "in 2 d". */
export function untilText(at: number, now: number, s: Strings): string {
  const seconds = Math.max(0, Math.round((at - now) / 1000));
  const [n, unit] =
    seconds < 60
      ? [seconds, s('unit.s', 's')]
      : seconds < 3600
        ? [Math.round(seconds / 60), s('unit.min', 'min')]
        : seconds < 86_400 * 2
          ? [Math.round(seconds / 3600), s('unit.h', 'h')]
          : [Math.round(seconds / 86_400), s('unit.d', 'd')];
  return `${s('in', 'in')} ${n} ${unit}`;
}

/** A moment in local time: the time alone when it is today, with the date otherwise. */
export function localMoment(date: Date, now = new Date()): string {
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return date.toDateString() === now.toDateString()
    ? time
    : `${date.toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric' })} ${time}`;
}
