import { describe, expect, it } from 'vitest';
import type { ModelOption } from '../../src/shared/protocol.ts';
import {
  MAX_RECENT,
  contextLabel,
  moveActive,
  pickerList,
  priceLabel,
  withRecent,
} from '../../src/webview/modelPicker.ts';

const s = (_key: string, fallback: string) => fallback;
const model = (id: string, name: string, extra: Partial<ModelOption> = {}): ModelOption => ({
  id,
  name,
  free: false,
  inputPerMillion: 1,
  outputPerMillion: 2,
  ...extra,
});
const models = [
  model('openrouter/free', 'Free Models Router', { free: true, inputPerMillion: 0, outputPerMillion: 0 }),
  model('meta-llama/llama-3.3-70b-instruct:free', 'Llama 3.3 70B (free)', { free: true }),
  model('anthropic/claude-sonnet', 'Claude Sonnet', { contextLength: 200_000 }),
  model('openai/gpt-4o-mini', 'GPT-4o mini', { inputPerMillion: 0.15, outputPerMillion: 0.6 }),
];

describe('the model picker', () => {
  it('keeps the host order when nothing was used yet', () => {
    expect(pickerList(models, '', []).map((m) => m.id)).toEqual(models.map((m) => m.id));
  });

  it('lists recently used models first, newest on top', () => {
    const recent = withRecent(withRecent([], 'anthropic/claude-sonnet'), 'openai/gpt-4o-mini');
    expect(pickerList(models, '', recent).map((m) => m.id)).toEqual([
      'openai/gpt-4o-mini',
      'anthropic/claude-sonnet',
      'openrouter/free',
      'meta-llama/llama-3.3-70b-instruct:free',
    ]);
  });

  it('filters on every word, in the id or the name, ignoring case', () => {
    expect(pickerList(models, 'LLAMA free', []).map((m) => m.id)).toEqual(['meta-llama/llama-3.3-70b-instruct:free']);
    expect(pickerList(models, 'openai mini', []).map((m) => m.id)).toEqual(['openai/gpt-4o-mini']);
    expect(pickerList(models, 'nothing-like-it', [])).toEqual([]);
  });

  it('remembers a few recent models, without repeats', () => {
    let recent: string[] = [];
    for (const id of ['a', 'b', 'a', 'c', 'd', 'e', 'f', 'g']) recent = withRecent(recent, id);
    expect(recent).toHaveLength(MAX_RECENT);
    expect(recent[0]).toBe('g');
    expect(new Set(recent).size).toBe(recent.length);
  });

  it('shows prices per million tokens, and never invents one for the direct service', () => {
    expect(priceLabel(models[3]!, true, s)).toBe('$0.15 / $0.60 per M tokens');
    expect(priceLabel(models[2]!, true, s)).toBe('$1.00 / $2.00 per M tokens');
    expect(priceLabel(models[0]!, true, s)).toBe('free');
    const unpriced = model('gpt-5.4-mini', 'gpt-5.4-mini', { inputPerMillion: null, outputPerMillion: null });
    expect(priceLabel(unpriced, false, s)).toBe('');
    expect(priceLabel(unpriced, true, s)).toBe('variable price');
  });

  it('shows the context length short, and nothing when unknown', () => {
    expect(contextLabel(200_000, s)).toBe('200K context');
    expect(contextLabel(1_048_576, s)).toBe('1M context');
    expect(contextLabel(null, s)).toBe('');
    expect(contextLabel(undefined, s)).toBe('');
  });

  it('arrow keys move through the list and wrap', () => {
    expect(moveActive(-1, 'ArrowDown', 3)).toBe(0);
    expect(moveActive(2, 'ArrowDown', 3)).toBe(0);
    expect(moveActive(0, 'ArrowUp', 3)).toBe(2);
    expect(moveActive(1, 'End', 3)).toBe(2);
    expect(moveActive(1, 'Home', 3)).toBe(0);
    expect(moveActive(1, 'x', 3)).toBe(1);
    expect(moveActive(0, 'ArrowDown', 0)).toBe(-1);
  });
});
