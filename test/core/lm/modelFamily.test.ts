// A model's family as VS Code and extensions select it (`selectChatModels({ family })`): the model's own name, as
// Copilot's families are (`gpt-4o`, `gpt-4o-mini`, `claude-sonnet-4`), without the owner, variant or date.
import { describe, expect, it } from 'vitest';
import { modelFamily } from '../../../src/core/lm/modelFamily.ts';

describe('modelFamily', () => {
  it.each([
    ['openai/gpt-4o-mini', 'gpt-4o-mini'],
    ['openai/gpt-4o', 'gpt-4o'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4.5'],
    ['meta-llama/llama-3.3-70b-instruct:free', 'llama-3.3-70b-instruct'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet'],
    ['gpt-3.5-turbo-0125', 'gpt-3.5-turbo'],
    ['chatgpt-4o-latest', 'chatgpt-4o'],
    ['o3', 'o3'],
    ['gpt-5.4-mini', 'gpt-5.4-mini'],
    ['openrouter/free', 'free'],
  ])('%s is of the family %s', (id, family) => {
    expect(modelFamily(id)).toBe(family);
  });

  it('an id with nothing left falls back to the whole id', () => {
    expect(modelFamily('x/:free')).toBe('x/:free');
  });
});
