// Keys assembled from string pieces to slip past a scanner that reads tokens:
// 'sk-or-v1-' + 'a1b2…', two adjacent literals (a comment or a line-ending backslash
// between them, a Python string prefix on them), a template of two constants, an
// array joined with ''; a value continued over lines is continuedKeys.ts'. Only a literal that starts with a documented prefix and is
// not a whole key starts a look, so ordinary code costs one prefix search per file;
// the joined text must then be a whole key of a known shape, so unrelated adjacent
// strings never make one.
import { continuedKeys, holdsLineEndPiece } from './continuedKeys.ts';
import { isKeyChar } from './keyChars.ts';
import { MAX_TOKEN } from './rules.ts';
import { type Assembled, MAX_PIECES, MAX_STARTS, PIECE_PREFIXES } from './splitPieces.ts';

export { PIECE_PREFIXES, type Assembled };

const QUOTED_PREFIX = new RegExp(`['"\`](?:${PIECE_PREFIXES.join('|')})`, 'g');

/** How far back a constant's definition, and how far ahead its use, is looked for: a small scope. */
const SCOPE = 4000;
const QUOTES = '\'"`';

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

function skipSpaceBack(text: string, at: number): number {
  while (at > 0 && /\s/.test(text[at - 1]!)) at--;
  return at;
}

/** A literal of key characters only at `at` (its opening quote): its content and where it ends. */
function literalAt(text: string, at: number): { content: string; end: number } | undefined {
  const quote = text[at];
  if (quote === undefined || !QUOTES.includes(quote)) return undefined;
  let end = at + 1;
  while (end < text.length && isKeyChar(text.charCodeAt(end)) && end - at <= MAX_TOKEN) end++;
  if (text[end] !== quote) return undefined;
  return { content: text.slice(at + 1, end), end: end + 1 };
}

const IDENT = /[A-Za-z_$][\w$]*/y;

function identAt(text: string, at: number): string | undefined {
  IDENT.lastIndex = at;
  const match = IDENT.exec(text);
  return match ? match[0] : undefined;
}

/** The value of a constant defined as a literal of key characters in the scope before `before`. */
function constantValue(text: string, name: string, before: number): string | undefined {
  const from = Math.max(0, before - SCOPE);
  const scope = text.slice(from, before);
  const escaped = name.replace(/\$/g, '\\$');
  const definition = new RegExp(
    `(?<![\\w$.])${escaped}\\s*(?::\\s*[\\w.<>\\[\\]]+\\s*)?[:=]\\s*(['"\`])([A-Za-z0-9_-]*)\\1`,
    'g',
  );
  let value: string | undefined;
  for (const match of scope.matchAll(definition)) value = match[2];
  return value;
}

/** Longest comment read between two pieces (`"sk-or-v1-"  # the prefix`): a note, not a page. */
const MAX_COMMENT = 200;

/**
 * Past what may stand between two pieces: white space, a line-ending backslash (Python's explicit line joining, a
 * shell command continued), and a line comment (`#`, `//`) that ends its line. Bounded per gap: a piece is followed
 * by at most MAX_PIECES gaps, so a flood costs each character a bounded number of reads.
 */
function skipGap(text: string, at: number): number {
  for (;;) {
    at = skipSpace(text, at);
    if (text[at] === '\\' && (text[at + 1] === '\n' || (text[at + 1] === '\r' && text[at + 2] === '\n'))) {
      at += text[at + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (text[at] !== '#' && !text.startsWith('//', at)) return at;
    const newline = text.indexOf('\n', at);
    if (newline === -1 || newline - at > MAX_COMMENT) return at;
    at = newline + 1;
  }
}

/**
 * Past a Python string prefix (`r"…"`, `f'…'`, `rb"…"`: Python reference §2.4.1) to the quote it opens, or `at`
 * itself: a literal written so is still a literal, and implicit concatenation joins it like any other.
 */
function quoteAfterPrefix(text: string, at: number): number {
  const prefix = /[rRuUbBfF]{1,2}(?=['"])/y;
  prefix.lastIndex = at;
  const match = prefix.exec(text);
  return match ? at + match[0].length : at;
}

/** A literal or a constant's name at `at`: its text and where it ends. */
function pieceAt(text: string, at: number): { content: string; end: number } | undefined {
  const literal = literalAt(text, quoteAfterPrefix(text, at));
  if (literal) return literal;
  const name = identAt(text, at);
  if (!name) return undefined;
  const value = constantValue(text, name, at);
  return value === undefined ? undefined : { content: value, end: at + name.length };
}

/** `first` + piece + piece…, or adjacent literals, from the piece that ends at `end`. */
function concatenation(text: string, start: number, first: string, end: number): Assembled | undefined {
  let joined = first;
  let at = end;
  let pieces = 1;
  for (;;) {
    let next = skipGap(text, at);
    if (text[next] === '+') next = skipGap(text, next + 1);
    else if (!QUOTES.includes(text[quoteAfterPrefix(text, next)] ?? '')) break;
    const piece = pieceAt(text, next);
    if (!piece) break;
    joined += piece.content;
    at = piece.end;
    if (++pieces > MAX_PIECES || joined.length > MAX_TOKEN) return undefined;
  }
  return pieces > 1 ? { start, end: at, key: joined } : undefined;
}

/** [piece, piece, …].join('') around the literal at `quote`. */
function joinedArray(text: string, quote: number): Assembled | undefined {
  const open = skipSpaceBack(text, quote) - 1;
  if (text[open] !== '[') return undefined;
  let joined = '';
  let at = quote;
  for (let pieces = 1; ; pieces++) {
    const piece = pieceAt(text, at);
    if (!piece) return undefined;
    joined += piece.content;
    if (pieces > MAX_PIECES || joined.length > MAX_TOKEN) return undefined;
    at = skipSpace(text, piece.end);
    if (text[at] === ',') at = skipSpace(text, at + 1);
    if (text[at] === ']') break;
  }
  const join = /\]\s*\.join\(\s*(['"`])\1\s*\)/y;
  join.lastIndex = at;
  const match = join.exec(text);
  return match ? { start: open, end: at + match[0].length, key: joined } : undefined;
}

/** A template literal made of constants (and literal text) only, at the backtick `tick`. */
function template(text: string, tick: number): Assembled | undefined {
  let joined = '';
  let at = tick + 1;
  let pieces = 0;
  while (at < text.length && text[at] !== '`') {
    if (text.startsWith('${', at)) {
      if (++pieces > MAX_PIECES) return undefined;
      const inner = skipSpace(text, at + 2);
      const name = identAt(text, inner);
      if (!name) return undefined;
      const close = skipSpace(text, inner + name.length);
      if (text[close] !== '}') return undefined;
      const value = constantValue(text, name, tick);
      if (value === undefined) return undefined;
      joined += value;
      at = close + 1;
    } else if (isKeyChar(text.charCodeAt(at))) joined += text[at++];
    else return undefined;
    if (joined.length > MAX_TOKEN) return undefined;
  }
  return text[at] === '`' ? { start: tick, end: at + 1, key: joined } : undefined;
}

/** The backtick that opens the template around `at`, looked for within a line's reach. */
function backtickBefore(text: string, at: number): number {
  for (let i = at - 1; i >= 0 && i >= at - MAX_TOKEN * 2; i--) if (text[i] === '`') return i;
  return -1;
}

/** Where the constant that holds a literal is used with other pieces, in the scope after it. */
function usesOfConstant(text: string, name: string, from: number): Assembled[] {
  const found: Assembled[] = [];
  const escaped = name.replace(/\$/g, '\\$');
  const use = new RegExp(`(?<![\\w$.])${escaped}(?![\\w$])`, 'g');
  use.lastIndex = from;
  const limit = Math.min(text.length, from + SCOPE);
  // Searched in the scope only: a name used nowhere after its definition was looked for to the text's end, for each
  // of up to MAX_STARTS literals.
  const scope = text.slice(0, limit);
  let uses = 0;
  for (let match = use.exec(scope); match && ++uses <= MAX_PIECES; match = use.exec(scope)) {
    const at = match.index;
    if (text.startsWith('${', skipSpaceBack(text, at) - 2)) {
      const tick = backtickBefore(text, at);
      const assembled = tick === -1 ? undefined : template(text, tick);
      if (assembled && assembled.end > at) found.push(assembled);
      continue;
    }
    const value = constantValue(text, name, at);
    if (value === undefined) continue;
    const assembled = concatenation(text, at, value, at + name.length);
    if (assembled) found.push(assembled);
  }
  return found;
}

/** The name a literal at `quote` is assigned to (`const A = '…'`, `A: '…'`), if it is. */
function assignedName(text: string, quote: number): string | undefined {
  const before = text.slice(Math.max(0, quote - 200), quote);
  const match = /([A-Za-z_$][\w$]*)\s*(?::\s*[\w.<>[\]]+\s*)?[:=]\s*$/.exec(before);
  return match?.[1];
}

/**
 * Keys assembled from pieces in `text`; `isKey` says whether a joined text is a whole key. `lineEnds` lists the
 * prefixed runs that end a line (start, end pairs, from the token pass): where a key continued over lines can start.
 */
export function assembledKeys(
  text: string,
  isKey: (joined: string) => boolean,
  lineEnds: readonly number[],
): Assembled[] {
  const found = new Map<number, Assembled>();
  const consider = (assembled: Assembled | undefined) => {
    if (assembled && !found.has(assembled.start) && isKey(assembled.key)) found.set(assembled.start, assembled);
  };
  let starts = 0;
  // One pass for every quoted prefix: a search per prefix was fourteen passes over each text.
  for (const match of text.matchAll(QUOTED_PREFIX)) {
    const quote = match.index;
    if (++starts > MAX_STARTS) break;
    if (text[quote] === '`') consider(template(text, quote));
    const literal = literalAt(text, quote);
    // A whole key in one literal is the token rules' finding, not a piece.
    if (!literal || isKey(literal.content)) continue;
    consider(concatenation(text, quote, literal.content, literal.end));
    consider(joinedArray(text, quote));
    const name = assignedName(text, quote);
    if (name) for (const use of usesOfConstant(text, name, literal.end)) consider(use);
  }
  for (const assembled of continuedKeys(text, isKey, lineEnds)) consider(assembled);
  return [...found.values()];
}

/**
 * Whether a text holds a quoted piece that starts with a documented prefix and is not a whole
 * key by itself (`isKey`), or such a run at a line's end: where a split key can start. A quoted
 * whole key is no such piece.
 */
export function holdsPiece(text: string, isKey: (literal: string) => boolean): boolean {
  for (const match of text.matchAll(QUOTED_PREFIX)) {
    const literal = literalAt(text, match.index);
    if (!literal || !isKey(literal.content)) return true;
  }
  return holdsLineEndPiece(text, isKey);
}
