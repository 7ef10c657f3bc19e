// The byte-level pre-check: whether a file's bytes can hold a key at all, before any is decoded to text.
// Most files of a tree end here. Hot: no allocation per byte or per candidate, one shape for its state.
import { DIRECT_INFIX, OTHER_PREFIXES, ROUTER_KEY_LENGTH } from '../../shared/keyShapes.ts';
import { mayHoldEncodedBytes } from './encodedKeys.ts';
import { isKeyChar } from './keyChars.ts';
import { beginCandidates, nextCandidate } from './precheck.ts';
import { MAX_TOKEN } from './rules.ts';
import type { ScanOptions } from './scanTypes.ts';
import { MAX_INDENT, PIECE_PREFIXES } from './splitPieces.ts';

const S = 0x73;
const K = 0x6b;
const DASH = 0x2d;
const UNDERSCORE = 0x5f;
const Z = 0x7a;
const A = 0x61;

const INFIX = Buffer.from(DIRECT_INFIX, 'latin1');
const INFIX_LAST = INFIX[INFIX.length - 1]!;

function isKeyByte(byte: number | undefined): boolean {
  return byte !== undefined && isKeyChar(byte);
}

function isQuoteByte(byte: number | undefined): boolean {
  return byte === 0x22 || byte === 0x27 || byte === 0x60;
}

/** Whether the infix ends at `last`. */
function endsInfix(bytes: Buffer, last: number): boolean {
  for (let j = 0; j < INFIX.length; j++) if (bytes[last - INFIX.length + 1 + j] !== INFIX[j]) return false;
  return true;
}

/** Whether `word` (ASCII) is in the bytes at `at`. */
function bytesAre(bytes: Buffer, at: number, word: string): boolean {
  if (at < 0 || at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** The end of the run of key characters from `from`, read at most MAX_TOKEN + 1 far. */
function runEndFrom(bytes: Buffer, from: number, start: number): number {
  let end = from;
  while (end < bytes.length && isKeyByte(bytes[end]) && end - start <= MAX_TOKEN) end++;
  return end;
}

/**
 * A quoted piece that starts with a documented prefix (splitKeys.ts), or such a run that ends its line or a
 * line-ending backslash (continuedKeys.ts): the text is decoded and the pieces looked at. "sk-" alone is no such
 * prefix, so `"sk-" + x` stays skipped.
 */
function quotedPrefixAt(bytes: Buffer, start: number, end: number, whole: boolean): boolean {
  if (whole) return false;
  if (!isQuoteByte(bytes[start - 1]) && !(continuesOnNextLine(bytes, end) && !isKeyByte(bytes[start - 1])))
    return false;
  return PIECE_PREFIXES.some((prefix) => bytesAre(bytes, start, prefix));
}

/** Key characters the next line must start with for a run at a line's end to be a piece: "AIza" ending a line is not. */
const NEXT_LINE_PIECE = 4;

/**
 * A line break at `at`, or a backslash that ends the line there (then indentation), and a run of key characters
 * starting the next line: where continuedKeys.ts can join the run with the next line's.
 */
function continuesOnNextLine(bytes: Buffer, at: number): boolean {
  const escaped = bytes[at] === 0x5c;
  let next = escaped ? at + 1 : at;
  if (bytes[next] === 0x0d) next++;
  if (bytes[next] !== 0x0a) return false;
  next++;
  if (escaped)
    for (const from = next; next - from <= MAX_INDENT && (bytes[next] === 0x20 || bytes[next] === 0x09);) next++;
  for (let i = 0; i < NEXT_LINE_PIECE; i++) if (!isKeyByte(bytes[next + i])) return false;
  return true;
}

/** Lengths of the other providers' whole keys, by the prefix that starts them (providerRules.ts). */
const OTHER_LENGTHS: Record<(typeof OTHER_PREFIXES)[number], readonly number[]> = {
  AIza: [39],
  gsk_: [56],
  'xai-': [84],
  hf_: [37],
  'pplx-': [53],
  r8_: [40],
  tgp_v1_: [50],
  fw_: [27],
};

/** Whether another provider's prefix ending just before `after` starts a whole key or a piece there. */
function otherAt(bytes: Buffer, prefix: (typeof OTHER_PREFIXES)[number], after: number): boolean {
  const start = after - prefix.length;
  if (!bytesAre(bytes, start, prefix) || isKeyByte(bytes[start - 1])) return false;
  const end = runEndFrom(bytes, after, start);
  const whole = OTHER_LENGTHS[prefix].includes(end - start);
  return whole || quotedPrefixAt(bytes, start, end, false);
}

/**
 * Whether something that could start a key occurs in the bytes. The bytes are searched in
 * WebAssembly (precheck.ts) for the places a prefix can end: "-" after "sk", "ai" or "lx"
 * ("sk-", "xai-", "pplx-"), "_" after "sk", "hf", "fw", "r8" or "gp", the "a" of "AIza". Checking
 * the token after a prefix at byte level means a file that only mentions one ("task-",
 * "hf_hub", a flag) is never decoded. A token is the rest of its run of key characters
 * (all ASCII, so bytes and text agree); each "sk-" run is measured once, so
 * "sk-sk-sk-…" stays linear. With `found`, every such start is listed (in order; a large
 * file's window then decodes only around them) rather than the first answering for the
 * whole buffer.
 */
function containsLiteral(bytes: Buffer, found?: number[]): boolean {
  // What can start a token is read out of line, so the loop stays small for the engine to compile.
  run.end = -1;
  beginCandidates(bytes);
  for (let at = nextCandidate(1); at !== -1; at = nextCandidate(at + 1)) {
    const last = bytes[at]!;
    const before = bytes[at - 1]!;
    let start = -1;
    if (last === DASH) {
      if (bytes[at - 2] !== BEFORE_DASH[before] || BEFORE_DASH[before] === 0) continue;
      run.resumeAt = at;
      start = dashToken(bytes, at, before);
      at = run.resumeAt;
    } else if (last === UNDERSCORE) {
      if (bytes[at - 2] !== BEFORE_UNDERSCORE[before] || BEFORE_UNDERSCORE[before] === 0) continue;
      start = underscoreToken(bytes, at, before);
    } else if (last === A && before === Z && otherAt(bytes, 'AIza', at + 1)) start = at - 3;
    if (start === -1) continue;
    if (!found) return true;
    found.push(start);
  }
  return found !== undefined && found.length > 0;
}

/**
 * By the byte before a dash or an underscore, the byte a prefix ending there has before it (0: no prefix ends
 * so): "sk-", "xai-", "pplx-"; "gsk_", "hf_", "fw_", "r8_", "tgp_v1_" ("p_"). Two loads and compares leave the
 * loops for the rare place a prefix ends.
 */
const BEFORE_DASH = new Uint8Array(256);
const BEFORE_UNDERSCORE = new Uint8Array(256);
for (const [table, pairs] of [
  [BEFORE_DASH, ['sk', 'ai', 'lx']],
  [BEFORE_UNDERSCORE, ['sk', 'hf', 'fw', 'r8', 'gp']],
] as const)
  for (const pair of pairs) table[pair.charCodeAt(1)] = pair.charCodeAt(0);

/**
 * The "sk-" run containsLiteral measured last: where it ends and where its last direct-service infix starts
 * (-1: none), and where its dash search goes on from after dashToken (past most of a run too long to be a key).
 * One object for the module rather than one per file, so a tree of small files allocates nothing here;
 * containsLiteral resets it.
 */
const run = { end: -1, lastInfix: -1, resumeAt: 0 };

/** The start of a token that may be a key at a dash after "sk", "ai" or "lx" ("sk-", "xai-", "pplx-"), or -1. */
function dashToken(bytes: Buffer, at: number, before: number): number {
  if (before === 0x69) return otherAt(bytes, 'xai-', at + 1) ? at - 3 : -1;
  if (before === 0x78) return otherAt(bytes, 'pplx-', at + 1) ? at - 4 : -1;
  if (bytes[at - 2] !== S) return -1;
  const start = at - 2;
  if (start >= run.end) {
    // Measured in locals, written back once: the loop stays on registers.
    let end = start + 3;
    let infix = -1;
    while (end < bytes.length && isKeyByte(bytes[end])) {
      if (bytes[end] === INFIX_LAST && end - start >= INFIX.length + 2 && endsInfix(bytes, end))
        infix = end - INFIX.length + 1;
      end++;
    }
    run.end = end;
    run.lastInfix = infix;
  }
  const runEnd = run.end;
  const length = runEnd - start;
  // Only the run's last MAX_TOKEN characters can start a token short enough to be a key.
  if (length > MAX_TOKEN) run.resumeAt = Math.max(at, runEnd - MAX_TOKEN - 1);
  return length === ROUTER_KEY_LENGTH ||
    (length <= MAX_TOKEN && run.lastInfix >= start + 3) ||
    // An Anthropic key: the version and 95 characters after "sk-ant-", the last two "AA".
    (length >= 100 && length <= 120 && bytesAre(bytes, start + 3, 'ant-') && bytesAre(bytes, runEnd - 2, 'AA')) ||
    (length <= MAX_TOKEN && quotedPrefixAt(bytes, start, runEnd, false))
    ? start
    : -1;
}

/** The start of a token that may be a key at an underscore after "sk", "hf", "fw", "r8" or "gp", or -1. */
function underscoreToken(bytes: Buffer, at: number, before: number): number {
  if (before === K) return otherAt(bytes, 'gsk_', at + 1) ? at - 3 : -1;
  if (before === 0x66) return otherAt(bytes, 'hf_', at + 1) ? at - 2 : -1;
  if (before === 0x77) return otherAt(bytes, 'fw_', at + 1) ? at - 2 : -1;
  if (before === 0x38) return otherAt(bytes, 'r8_', at + 1) ? at - 2 : -1;
  return bytesAre(bytes, at + 1, 'v1_') && otherAt(bytes, 'tgp_v1_', at + 4) ? at - 3 : -1;
}

/**
 * Where in the bytes a key can start, in order, for a window of a large file to be decoded only around them;
 * undefined when the options look for more than the shapes (a stored or rotated-out key, base64 values), which
 * only a whole read can answer.
 */
export function keyStarts(bytes: Buffer, options: ScanOptions): number[] | undefined {
  if (!shapesOnly(options)) return undefined;
  const found: number[] = [];
  containsLiteral(bytes, found);
  return found.sort((a, b) => a - b);
}

/**
 * Bytes that take every branch of the pre-check once, none of them a key: a tree's scan runs the pre-check
 * for every file, and the engine compiled it early from files that had taken only the common branches, then
 * threw that code away at the first file with a rarer one ("insufficient type feedback"), three times in a
 * scan of the bench's corpus, each an optimizing compile of 15-20 ms of CPU.
 */
const PRIMER = Buffer.from(
  [
    'a-b a--b',
    'xai-q pplx-q',
    `sk-${'a'.repeat(8)}`,
    `"sk-${'b'.repeat(4)}"`,
    `sk-${'c'.repeat(MAX_TOKEN + 4)}`,
    `sk-abc${DIRECT_INFIX}d`,
    `sk-ant-${'e'.repeat(100)}`,
    'gsk_q hf_q fw_q r8_q tgp_v1_q tgp_q a_b a__b AIzaq za',
  ].join(' \n'),
  'latin1',
);

/** Runs the pre-check once on bytes that take each of its branches (PRIMER), before a scan of many files. */
export function primeScanner(): void {
  containsLiteral(PRIMER, []);
  containsLiteral(PRIMER);
}

/**
 * Whether the options look for the key shapes alone: mayContainKey is then false wherever no prefix ends, and a
 * caller that found none in a larger buffer (chunkHints.ts) may skip its lines without asking.
 */
export function shapesOnly(options: ScanOptions): boolean {
  return !(options.known?.length || options.retired?.length || options.decodeBase64 || options.teamRules?.length);
}

/** Whether a file's bytes can hold a finding at all: the fast path that skips most files undecoded. */
export function mayContainKey(bytes: Buffer, options: ScanOptions = {}): boolean {
  if (containsLiteral(bytes)) return true;
  // A team's shapes have no prefix this check knows: their keywords decide, on the text (teamHits.ts).
  if (options.teamRules?.length) return true;
  if (options.decodeBase64 && mayHoldEncodedBytes(bytes)) return true;
  if (options.known?.some((k) => bytes.indexOf(k.value) !== -1)) return true;
  return options.retired?.some((r) => r.prefix.length >= 3 && bytes.indexOf(r.prefix) !== -1) ?? false;
}
