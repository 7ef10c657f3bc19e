// What the model picker lists and how it reads: pure, so the filtering, the
// order and the labels are tested without a DOM.
import type { ModelOption } from '../shared/protocol.ts';
import type { Strings } from './turnNotes.ts';

export const MAX_RECENT = 5;

/**
 * The models matching every word of the query (in the id or the name), the
 * recently used first, most recent on top; the rest keep the host's order
 * (the free router first, then free models, then by name).
 */
export function pickerList(models: readonly ModelOption[], query: string, recent: readonly string[]): ModelOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = models.filter((m) => {
    const hay = `${m.id} ${m.name}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  const rank = (m: ModelOption) => {
    const i = recent.indexOf(m.id);
    return i < 0 ? recent.length : i;
  };
  // Array.prototype.sort is stable: equal ranks keep the host's order.
  return matches.map((m) => m).sort((a, b) => rank(a) - rank(b));
}

/** The list of recently used models with this one on top. */
export function withRecent(recent: readonly string[], id: string): string[] {
  return [id, ...recent.filter((r) => r !== id)].slice(0, MAX_RECENT);
}

const dollars = (n: number) => `$${n < 0.1 && n > 0 ? n.toPrecision(2) : n.toFixed(2)}`;

/**
 * Price per million tokens, input / output. The direct service's list carries no
 * prices, and none is invented: it says nothing. A router's missing price means it varies.
 */
export function priceLabel(model: ModelOption, pricedModels: boolean, s: Strings): string {
  if (model.free) return s('free', 'free');
  if (model.inputPerMillion === null && model.outputPerMillion === null)
    return pricedModels ? s('variablePrice', 'variable price') : '';
  if (model.inputPerMillion === null || model.outputPerMillion === null) return s('variablePrice', 'variable price');
  return `${dollars(model.inputPerMillion)} / ${dollars(model.outputPerMillion)} ${s('perMillion', 'per M tokens')}`;
}

/** Context length, short: 8K, 128K, 1M. Nothing when the service does not say. */
export function contextLabel(tokens: number | null | undefined, s: Strings): string {
  if (!tokens || tokens <= 0) return '';
  const short =
    tokens >= 1_000_000
      ? `${Number((tokens / 1_000_000).toFixed(1))}M`
      : tokens >= 1000
        ? `${Math.round(tokens / 1000)}K`
        : String(tokens);
  return `${short} ${s('context', 'context')}`;
}

/** The option a list key moves to; wraps at both ends, as a listbox does. */
export function moveActive(index: number, key: string, length: number): number {
  if (length === 0) return -1;
  switch (key) {
    case 'ArrowDown':
      return index < 0 ? 0 : (index + 1) % length;
    case 'ArrowUp':
      return index <= 0 ? length - 1 : index - 1;
    case 'Home':
      return 0;
    case 'End':
      return length - 1;
    case 'PageDown':
      return Math.min(length - 1, Math.max(0, index) + 10);
    case 'PageUp':
      return Math.max(0, index - 10);
    default:
      return index;
  }
}
