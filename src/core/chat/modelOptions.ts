// Model lists as the panel's picker shows them: prices per million tokens, and
// the router's free models first, its free router at the top.
import type { ModelOption } from '../../shared/protocol.ts';
import { FREE_ROUTER_MODEL, type RouterModelInfo } from './chatCompletionsClient.ts';

export function routerOptions(
  models: (Pick<RouterModelInfo, 'id' | 'name' | 'free' | 'promptPrice' | 'completionPrice'> &
    Partial<Pick<RouterModelInfo, 'contextLength'>>)[],
): ModelOption[] {
  const options = models.map((m) => ({
    id: m.id,
    name: m.name,
    free: m.free,
    inputPerMillion: m.promptPrice === null ? null : m.promptPrice * 1e6,
    outputPerMillion: m.completionPrice === null ? null : m.completionPrice * 1e6,
    contextLength: m.contextLength ?? null,
  }));
  const rank = (m: ModelOption) => (m.id === FREE_ROUTER_MODEL ? 0 : m.free ? 1 : 2);
  return options.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The direct service lists ids only, without names or prices. */
export function directOptions(ids: string[]): ModelOption[] {
  return [...ids].sort().map((id) => ({ id, name: id, free: false, inputPerMillion: null, outputPerMillion: null }));
}
