// The token count the meter and the LM provider give, measured against the real tokenizers (gpt-tokenizer, a
// devDependency never bundled) on a fixed corpus: within 10 % on every text where the figures say `measured`, and
// labelled an estimate where they are not.
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { MEASURED, countTextTokens, tokenCounting, type TokenizerName } from '../../../src/shared/tokenCount.ts';
import { TOKEN_CORPUS } from './tokenCorpus.ts';

const REAL: Record<TokenizerName, (text: string) => number> = { o200k_base: o200k, cl100k_base: cl100k };

function errors(tokenizer: TokenizerName): Record<string, number> {
  const texts = { ...TOKEN_CORPUS, all: Object.values(TOKEN_CORPUS).join('\n\n') };
  return Object.fromEntries(
    Object.entries(texts).map(([name, text]) => {
      const real = REAL[tokenizer](text);
      return [name, Math.round(((countTextTokens(text, tokenizer) - real) / real) * 1000) / 10];
    }),
  );
}

describe('the token count against the real tokenizers', () => {
  it('o200k_base (GPT-4o and later, the o-series): within 10 % on every text of the corpus', () => {
    const off = errors('o200k_base');
    console.info('o200k_base, % off per text:', off);
    for (const [name, percent] of Object.entries(off)) expect(Math.abs(percent), name).toBeLessThanOrEqual(10);
    expect(MEASURED.o200k_base).toBe(true);
  });

  it('cl100k_base is labelled an estimate exactly because some text is more than 10 % off', () => {
    const off = errors('cl100k_base');
    console.info('cl100k_base, % off per text:', off);
    const within = Object.values(off).every((percent) => Math.abs(percent) <= 10);
    expect(MEASURED.cl100k_base).toBe(within);
    // Still near enough to warn before an overflow: the whole corpus within 10 %.
    expect(Math.abs(off.all!)).toBeLessThanOrEqual(10);
  });

  it('is not the old four characters a token, which misses Chinese by half', () => {
    const text = TOKEN_CORPUS.chinese!;
    expect(Math.abs(countTextTokens(text, 'o200k_base') - o200k(text)) / o200k(text)).toBeLessThan(0.1);
    expect(Math.abs(Math.ceil(text.length / 4) - o200k(text)) / o200k(text)).toBeGreaterThan(0.5);
  });
});

describe('which tokenizer counts a model', () => {
  it.each([
    ['openai/gpt-4o-mini', 'o200k_base', true],
    ['gpt-4.1-2025-04-14', 'o200k_base', true],
    ['o3-mini', 'o200k_base', true],
    ['openai/gpt-5', 'o200k_base', true],
    ['gpt-4-turbo', 'cl100k_base', false],
    ['gpt-3.5-turbo-0125', 'cl100k_base', false],
    ['anthropic/claude-sonnet-4', null, false],
    ['meta-llama/llama-3.3-70b-instruct:free', null, false],
    ['openrouter/auto', null, false],
  ] as const)('%s: %s, measured %s', (id, tokenizer, measured) => {
    expect(tokenCounting(id)).toEqual({ tokenizer, measured });
  });
});
