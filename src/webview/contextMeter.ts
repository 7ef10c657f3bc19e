// The line under the prompt box: the conversation's tokens against the selected model's context window, and what
// it has cost so far (shared/conversationMeter.ts counts both). In words a screen reader reads, with a bar beside
// them that only repeats what they say: "nearly full" and "over the window" are words too, never colour alone.
// Drawn at most once a frame, whatever changed (the draft, a streamed answer, the model).
import { contextFigures, costFigures, draftTokens, type ContextFigures } from '../shared/conversationMeter.ts';
import type { ModelOption } from '../shared/protocol.ts';
import { tokenCounting } from '../shared/tokenCount.ts';
import { element } from './dom.ts';
import type { ChatStore } from './store.ts';

/** From this share of the window on, the meter says the conversation is nearly full. */
export const NEARLY_FULL = 0.8;

const numbers = () => new Intl.NumberFormat(document.documentElement.lang || undefined);
const percent = (share: number) =>
  new Intl.NumberFormat(document.documentElement.lang || undefined, { style: 'percent' }).format(share);

/** Dollars as the turn notes write them: small amounts with their significant digits. */
export function dollars(usd: number): string {
  return `$${usd > 0 && usd < 0.01 ? usd.toPrecision(2) : usd.toFixed(2)}`;
}

export function selectedOption(store: ChatStore, model: string): ModelOption | undefined {
  return store.state.models[store.state.service]?.find((m) => m.id === model);
}

/** The figures for the model selected now, with the prompt box's text. */
export function meterFigures(store: ChatStore, model: string, draft = store.state.draft): ContextFigures {
  const { state } = store;
  return contextFigures(state.turns, model, selectedOption(store, model), draftTokens(draft, state.attachments, model));
}

export function tokensText(store: ChatStore, f: ContextFigures): string {
  const { s } = store;
  const total = f.conversation + f.draft;
  const count = numbers().format(total);
  let text =
    f.window === null
      ? s('meter.noWindow', '{0} tokens, window unknown').replace('{0}', count)
      : s('meter.tokens', '{0} of {1} tokens ({2})')
          .replace('{0}', count)
          .replace('{1}', numbers().format(f.window))
          .replace('{2}', percent(total / f.window));
  if (f.estimate) text += ` ${s('meter.estimate', '(estimate)')}`;
  if (f.window !== null && total > f.window) text += `, ${s('meter.over', 'over the window')}`;
  else if (f.window !== null && total >= f.window * NEARLY_FULL) text += `, ${s('meter.nearlyFull', 'nearly full')}`;
  return text;
}

export function costText(store: ChatStore): string {
  const { s } = store;
  const cost = costFigures(store.state.turns, store.state.models);
  if (cost.unknown > 0 && cost.usd === 0) return s('meter.costUnknown', 'cost unknown: the service reports none');
  const amount = dollars(cost.usd);
  if (cost.unknown > 0) return s('meter.costAtLeast', 'cost at least {0}').replace('{0}', amount);
  if (cost.estimated) return s('meter.costEstimated', 'cost {0}, estimated').replace('{0}', amount);
  return s('meter.cost', 'cost {0}').replace('{0}', amount);
}

export function createContextMeter(store: ChatStore, currentModel: () => string) {
  const { s } = store;
  const node = element('div', { className: 'context-meter', id: 'context-meter' });
  const label = element('span', { className: 'visually-hidden' });
  const bar = element('div', { className: 'context-bar' });
  bar.setAttribute('aria-hidden', 'true');
  const fill = element('div', { className: 'context-fill' });
  bar.append(fill);
  const tokens = element('span', { className: 'context-tokens', id: 'context-tokens' });
  const cost = element('span', { className: 'context-cost', id: 'context-cost' });
  node.append(label, bar, tokens, element('span', { className: 'context-sep', textContent: ' · ' }), cost);
  let scheduled = false;

  function render(): void {
    scheduled = false;
    const model = currentModel();
    node.hidden = model === '';
    if (model === '') return;
    const f = meterFigures(store, model);
    const share = f.window === null ? 0 : (f.conversation + f.draft) / f.window;
    label.textContent = `${s('meter.label', 'Conversation size and cost:')} `;
    tokens.textContent = tokensText(store, f);
    cost.textContent = costText(store);
    fill.style.width = `${Math.min(100, Math.round(share * 100))}%`;
    bar.hidden = f.window === null;
    node.dataset.level = share > 1 ? 'over' : share >= NEARLY_FULL ? 'high' : 'ok';
    node.title = tokenCounting(model).measured
      ? s(
          'meter.measured',
          'Reported usage where the service gave it; the rest counted within 10 % of the model’s tokenizer.',
        )
      : s(
          'meter.estimated',
          'Reported usage where the service gave it; the rest is an estimate: Keyward knows no tokenizer for this model’s family.',
        );
  }

  /** At most once a frame: a streamed answer or fast typing redraws it once. */
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(render);
  }

  return { node, render, schedule };
}
