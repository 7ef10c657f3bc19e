// Counting tokens without shipping a tokenizer: the real ones' tables (o200k_base is 2.4 MB of JavaScript) would
// weigh several times the whole extension. Instead a text is cut the way the GPT tokenizers' pre-tokenizer cuts it
// (words, digit runs, punctuation, line breaks, runs of another script) and each piece is costed with figures
// calibrated per tokenizer against gpt-tokenizer on a fixed corpus of code, prose, JSON, Markdown, logs and text in
// other scripts (test/core/lm/tokenCount.test.ts). Where the test holds the figures within 10 % of the model
// family's tokenizer the count is `measured`; everywhere else (another tokenizer, or one no one publishes) it is a
// stated estimate, and the meter and the provider's documentation say so.

/** The tokenizers whose figures are calibrated here; `null`: the family's tokenizer is not known. */
export type TokenizerName = 'o200k_base' | 'cl100k_base';

interface PieceCosts {
  /** A word of at most this many letters is one token; a longer one costs one per `longWordChars` letters. */
  shortWord: number;
  longWordChars: number;
  /** Extra per accented Latin letter (é, ü, ß), which the older tokenizer splits off. */
  accent: number;
  punctuationChars: number;
  cyrillicChars: number;
  /** Per Han, kana or Hangul character. */
  cjk: number;
}

/** Fitted on the corpus (the test prints each text's error); see the file's head. */
const COSTS: Record<TokenizerName, PieceCosts> = {
  o200k_base: { shortWord: 10, longWordChars: 5.5, accent: 0.25, punctuationChars: 3, cyrillicChars: 4.5, cjk: 0.7 },
  cl100k_base: { shortWord: 8, longWordChars: 5, accent: 1, punctuationChars: 3, cyrillicChars: 2, cjk: 1.1 },
};

/**
 * Whether the test holds a tokenizer's figures within 10 % on every text of the corpus. cl100k_base is not (it
 * splits accented words, code and Japanese in ways one set of figures does not follow): its count is an estimate.
 */
export const MEASURED: Record<TokenizerName, boolean> = { o200k_base: true, cl100k_base: false };

/** The families OpenAI documents on o200k_base (GPT-4o and later, the o-series, gpt-oss) and on cl100k_base. */
const O200K = /^(chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)(?![a-z])/;
const CL100K = /^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)(?![a-z])/;

export interface TokenCounting {
  /** The tokenizer whose figures count the text; null: none is known for the family (o200k_base's figures stand in). */
  tokenizer: TokenizerName | null;
  /** Within 10 % of the family's tokenizer on the corpus; false: a stated estimate. */
  measured: boolean;
}

/** How a model's text is counted, from its id (`openai/gpt-4o-mini`, `gpt-4.1-2025-04-14`, `anthropic/claude-…`). */
export function tokenCounting(modelId: string): TokenCounting {
  const name = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  const tokenizer = O200K.test(name) ? 'o200k_base' : CL100K.test(name) ? 'cl100k_base' : null;
  return { tokenizer, measured: tokenizer !== null && MEASURED[tokenizer] };
}

const PIECE =
  /[A-Za-z\u00C0-\u024F]+|\d+|[\u0370-\u052F]+|[\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]+|\n\s*|[ \t]+|[^\sA-Za-z\d\u00C0-\u024F\u0370-\u052F\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]+/gu;
const LETTER = /^[A-Za-z\u00C0-\u024F]/;
const ACCENTED = /[\u00C0-\u024F]/g;
const CYRILLIC = /^[\u0370-\u052F]/;
const CJK = /^[\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/;

function pieceCost(piece: string, costs: PieceCosts): number {
  if (LETTER.test(piece)) {
    const word = piece.length <= costs.shortWord ? 1 : Math.ceil(piece.length / costs.longWordChars);
    return word + (piece.match(ACCENTED)?.length ?? 0) * costs.accent;
  }
  const first = piece.charCodeAt(0);
  // Both tokenizers take digits in runs of at most three.
  if (first >= 48 && first <= 57) return Math.ceil(piece.length / 3);
  if (CYRILLIC.test(piece)) return Math.ceil(piece.length / costs.cyrillicChars);
  if (CJK.test(piece)) return piece.length * costs.cjk;
  if (piece[0] === '\n') return 1;
  // One space before a word belongs to the word's token; a run of them (indentation) is one.
  if (piece[0] === ' ' || piece[0] === '\t') return piece.length > 1 ? 1 : 0;
  return Math.ceil(piece.length / costs.punctuationChars);
}

/** The tokens of a text for a tokenizer's figures (o200k_base's when the family's is not known). */
export function countTextTokens(text: string, tokenizer: TokenizerName | null): number {
  const costs = COSTS[tokenizer ?? 'o200k_base'];
  let tokens = 0;
  for (const [piece] of text.matchAll(PIECE)) tokens += pieceCost(piece, costs);
  return Math.ceil(tokens);
}

/** The tokens of a text for a model, by its id. */
export function modelTextTokens(text: string, modelId: string): number {
  return countTextTokens(text, tokenCounting(modelId).tokenizer);
}
