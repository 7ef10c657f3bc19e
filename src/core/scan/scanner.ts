// Finds key strings in text, offline. The literal "sk-" comes first (indexOf
// skips to it), then one bounded pass over the token: linear even on megabytes
// of "sk-sk-sk-". Findings carry the masked key and a fingerprint, never the key.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { fingerprint as fingerprintOf } from '../keys/fingerprint.ts';
import { maskKey } from '../redact.ts';
import { MAX_TOKEN, RULES, type RuleId, classifyToken, keyBody, looksFake } from './rules.ts';
import { DIRECT_INFIX, type KeyOwner, OTHER_PREFIXES, ROUTER_KEY_LENGTH } from '../../shared/keyShapes.ts';
import { MAX_DECODE_DEPTH, anchoredRegions, encodedRuns, mayHoldEncodedBytes } from './encodedKeys.ts';
import { PIECE_PREFIXES, assembledKeys } from './splitKeys.ts';
import { beginCandidates, nextCandidate } from './precheck.ts';
import { AllowedHits, NEXT_LINE_MARKER } from './allowComments.ts';

export { NEXT_LINE_MARKER };

/** A key Keyward holds: matched wherever it appears exactly, whatever its shape. */
export interface KnownKey {
  value: string;
  service: ServiceId;
}

/** A rotated-out key, known only by its fingerprint, prefix, last four and length. */
export interface RetiredKey {
  service: ServiceId;
  fingerprint: string;
  prefix: string;
  suffix: string;
  length: number;
}

export interface ScanOptions {
  known?: readonly KnownKey[];
  retired?: readonly RetiredKey[];
  /** Honour the allow comments of allowComments.ts (keyward, secretlint, detect-secrets, gitleaks). Default true. */
  allowComments?: boolean;
  /** The text is YAML, where a detect-secrets pragma counts only after '#' (see optionsFor). */
  yaml?: boolean;
  /**
   * Hands each reported key to the caller, in this process only: `--verify`
   * needs the key itself to ask its service, and findings never carry it.
   */
  onKey?: (fingerprint: string, key: string) => void;
  /** How many base64 layers the text is inside (encodedKeys.ts); 0 for a file's own text. */
  decodeDepth?: number;
  /** The file is of a kind that keeps base64 secrets (a Secret, .npmrc, docker config): decoded when it names one. */
  decodeBase64?: boolean;
  /**
   * At most this many medium-confidence findings per text (default LOOSE_CAP);
   * the rest are counted, not listed, so generated near-misses cannot flood a report.
   */
  looseCap?: number;
}

const YAML_NAME = /\.ya?ml$/i;
/**
 * Files that keep base64 secrets: Kubernetes manifests, npm and yarn settings, docker's config, env and HTTP files,
 * scripts. YAML is among them, so a name this does not match is no YAML either: one test for most names.
 */
const ENCODED_NAME =
  /(?:\.(?:ya?ml|npmrc|yarnrc|env(?:\.[\w.-]+)?|dockerconfigjson|http|rest|sh|bash|zsh|ps1)|config\.json)$/i;

/**
 * The options for one file: its name says whether it is YAML, whose comments detect-secrets reads
 * its own way, and whether it is a kind that keeps base64 secrets (decoded even when nothing else is).
 */
export function optionsFor(path: string, options: ScanOptions): ScanOptions {
  // Two patterns per file were a visible part of a scan of many small files.
  const encoded = ENCODED_NAME.test(path);
  const yaml = encoded && YAML_NAME.test(path);
  return yaml || encoded
    ? { ...options, ...(yaml ? { yaml: true } : {}), ...(encoded ? { decodeBase64: true } : {}) }
    : options;
}

/** Medium-confidence findings listed per file; more are summarised as a count. */
export const LOOSE_CAP = 20;

export interface ScanResult {
  findings: Finding[];
  /** Medium-confidence findings past the cap: counted, not listed. */
  omitted: number;
}

export interface Finding {
  ruleId: RuleId;
  /** Whose key: a service Keyward prompts, or another AI provider (providerRules.ts). */
  service: KeyOwner;
  confidence: 'high' | 'medium';
  description: string;
  /** 0-based line; columns are 0-based UTF-16 code units as VS Code counts them, end exclusive. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** UTF-8 byte offsets into the scanned text, end exclusive. */
  startByte: number;
  endByte: number;
  masked: string;
  fingerprint: string;
  /** This is the key stored in Keyward, or one it rotated out. */
  stored: 'active' | 'retired' | null;
  /** An allow comment covers it, and was not honoured: it is the key stored in Keyward (never hidden by a file). */
  allowRefused?: true;
}

export { fingerprintOf };

export function isKeyChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 45 ||
    code === 95
  );
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * The token may start here: nothing of the key alphabet before it, or the tail
 * of an escape (\n, \t, %20, \u0022, \x22) that glued a letter or digit to it.
 */
export function boundaryBefore(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  if (!isKeyChar(before)) return true;
  if (start >= 2 && text.charCodeAt(start - 2) === 92 && 'nrtbfv0'.includes(text[start - 1]!)) return true;
  if (start >= 3 && text.charCodeAt(start - 3) === 37 && isHex(before) && isHex(text.charCodeAt(start - 2)))
    return true;
  if (
    start >= 6 &&
    text.charCodeAt(start - 6) === 92 &&
    text[start - 5] === 'u' &&
    [2, 3, 4].every((i) => isHex(text.charCodeAt(start - i))) &&
    isHex(before)
  )
    return true;
  if (
    start >= 4 &&
    text.charCodeAt(start - 4) === 92 &&
    text[start - 3] === 'x' &&
    isHex(text.charCodeAt(start - 2)) &&
    isHex(before)
  )
    return true;
  return false;
}

/**
 * Calls `found` with each run of key characters that starts with `prefix`: one bounded
 * pass over the run, so megabytes of "sk-sk-sk-" stay linear.
 */
function tokensAfter(text: string, prefix: string, found: (start: number, end: number) => void): void {
  let pos = text.indexOf(prefix);
  while (pos !== -1) {
    const start = pos;
    let end = start + prefix.length;
    while (end < text.length && isKeyChar(text.charCodeAt(end)) && end - start <= MAX_TOKEN) end++;
    if (end - start > MAX_TOKEN) {
      // Far too long for a key: skip the whole run so adversarial input stays linear.
      while (end < text.length && isKeyChar(text.charCodeAt(end))) end++;
    } else found(start, end);
    pos = text.indexOf(prefix, end);
  }
}

function boundaryAfter(text: string, end: number): boolean {
  return end >= text.length || !isKeyChar(text.charCodeAt(end));
}

/** UTF-8 bytes of a part of the text (a lone surrogate counts 3, as the encoder writes U+FFFD). */
function utf8Length(text: string, from: number, to: number): number {
  // Native: a character loop here was most of the cost of scanning a large text with keys in it.
  return to - from < 64 ? jsUtf8Length(text, from, to) : Buffer.byteLength(text.slice(from, to), 'utf8');
}

function jsUtf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < to) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

interface Hit {
  start: number;
  end: number;
  ruleId: RuleId;
  service: KeyOwner;
  fingerprint: string;
  stored: 'active' | 'retired' | null;
  /** The key, when the text at start..end is not the key itself (split or encoded). */
  key?: string;
}

/** The other providers' prefixes, by the character each ends with ("AIza": its "za"). */
const ENDING_IN: Record<'_' | '-' | 'za', readonly (typeof OTHER_PREFIXES)[number][]> = {
  _: OTHER_PREFIXES.filter((p) => p.endsWith('_')),
  '-': OTHER_PREFIXES.filter((p) => p.endsWith('-')),
  za: OTHER_PREFIXES.filter((p) => p.endsWith('za')),
};

/**
 * Where a prefix of another provider may end: its ending ("_", "-", "za") after the two characters the
 * prefix has before it ("gsk_": "sk"). One regular expression, which the engine compiles to native code:
 * a loop of `indexOf` over every "_" and "-" of the text cost an optimizing compile of its own (4-5 ms of
 * CPU in a scan of the bench's corpus) on top of its run, and most endings ("__esModule", "a - b") end no
 * prefix.
 */
const PREFIX_ENDS = new RegExp(
  (['_', '-', 'za'] as const)
    .filter((ending) => ENDING_IN[ending].length > 0)
    .map((ending) => {
      const priors = ENDING_IN[ending].map((p) => p.slice(p.length - ending.length - 2, p.length - ending.length));
      return `(?<=${[...new Set(priors)].join('|')})${ending}`;
    })
    .join('|'),
  'g',
);

/** The other providers' prefixes the text holds, in OTHER_PREFIXES' order. */
function otherPrefixesIn(text: string): (typeof OTHER_PREFIXES)[number][] {
  let found: Set<string> | undefined;
  PREFIX_ENDS.lastIndex = 0;
  for (let match = PREFIX_ENDS.exec(text); match !== null; match = PREFIX_ENDS.exec(text)) {
    const ending = match[0] as keyof typeof ENDING_IN;
    const end = match.index + ending.length;
    for (const prefix of ENDING_IN[ending])
      if (text.startsWith(prefix, end - prefix.length)) (found ??= new Set()).add(prefix);
  }
  return found ? OTHER_PREFIXES.filter((p) => found.has(p)) : [];
}

/**
 * Whether a token hit (the first `count` hits, in order of start, none longer than MAX_TOKEN) overlaps [start, end):
 * found by halving, as every piece was compared with every token before.
 */
function overlapsToken(hits: readonly Hit[], count: number, start: number, end: number): boolean {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hits[mid]!.start <= start - MAX_TOKEN - 1) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < count && hits[i]!.start < end; i++) if (start < hits[i]!.end) return true;
  return false;
}

const NO_ENTRIES: ReadonlyMap<string, unknown> = new Map();

/** Scans a text; findings come in order of position. */
export function scanText(text: string, options: ScanOptions = {}): Finding[] {
  return scanTextCounted(text, options).findings;
}

/** Scans a text, and says how many medium-confidence findings the cap left out. */
export function scanTextCounted(text: string, options: ScanOptions = {}): ScanResult {
  const known = options.known ?? [];
  const retired = options.retired ?? [];
  // Most texts are scanned for no stored key: no maps to build then.
  const knownFingerprints = known.length > 0 ? new Map(known.map((k) => [fingerprintOf(k.value), k])) : NO_ENTRIES;
  const retiredFingerprints = retired.length > 0 ? new Map(retired.map((r) => [r.fingerprint, r])) : NO_ENTRIES;
  const hits: Hit[] = [];

  const consider = (start: number, end: number) => {
    if (!boundaryBefore(text, start)) return;
    const token = text.slice(start, end);
    const ruleId = classifyToken(token);
    if (!ruleId) return;
    // Hashed later, for listed findings only, unless it decides whether the key is one Keyward holds.
    const fingerprint = knownFingerprints.size > 0 || retiredFingerprints.size > 0 ? fingerprintOf(token) : '';
    const stored = knownFingerprints.has(fingerprint)
      ? 'active'
      : retiredFingerprints.has(fingerprint)
        ? 'retired'
        : null;
    if (stored || !looksFake(keyBody(token, ruleId)))
      hits.push({ start, end, ruleId, service: RULES[ruleId].service!, fingerprint, stored });
  };
  tokensAfter(text, 'sk-', consider);
  for (const prefix of otherPrefixesIn(text)) tokensAfter(text, prefix, consider);
  if (hits.length > 1) hits.sort((a, b) => a.start - b.start);
  const tokenHits = hits.length;
  // Keys split into pieces: the joined text must be a whole key of a known shape, and not a placeholder.
  const isKey = (joined: string) => {
    const rule = classifyToken(joined);
    return rule !== undefined && !looksFake(keyBody(joined, rule));
  };
  for (const piece of assembledKeys(text, isKey)) {
    if (overlapsToken(hits, tokenHits, piece.start, piece.end)) continue;
    const fingerprint = fingerprintOf(piece.key);
    const stored = knownFingerprints.has(fingerprint)
      ? 'active'
      : retiredFingerprints.has(fingerprint)
        ? 'retired'
        : null;
    const service = RULES[classifyToken(piece.key)!].service!;
    hits.push({
      start: piece.start,
      end: piece.end,
      ruleId: 'split-key',
      service,
      fingerprint,
      stored,
      key: piece.key,
    });
  }
  // Keys in base64, decoded where such a value can be kept; reported at the encoded text.
  const depth = options.decodeDepth ?? 0;
  // Decoded text is read whole (it is small, and base64 inside it is itself the clue); a file's own
  // text only where an anchor says a base64 value can be.
  const places = depth === 0 ? anchoredRegions(text) : undefined;
  if (depth < MAX_DECODE_DEPTH && (places === undefined || places.length > 0)) {
    for (const run of encodedRuns(text, places)) {
      const keys = new Map<string, string>();
      const inner = scanTextCounted(run.decoded, {
        known,
        retired,
        allowComments: false,
        looseCap: Number.POSITIVE_INFINITY,
        decodeDepth: depth + 1,
        onKey: (fingerprint, key) => keys.set(fingerprint, key),
      });
      for (const f of inner.findings) {
        const { service, fingerprint, stored } = f;
        const key = keys.get(fingerprint)!;
        hits.push({ start: run.start, end: run.end, ruleId: 'encoded-key', service, fingerprint, stored, key });
      }
    }
  }

  // Stored keys of any shape, found exactly.
  for (const key of known) {
    if (classifyToken(key.value)) continue;
    for (let at = text.indexOf(key.value); at !== -1; at = text.indexOf(key.value, at + key.value.length)) {
      if (boundaryBefore(text, at) && boundaryAfter(text, at + key.value.length)) {
        hits.push({
          start: at,
          end: at + key.value.length,
          ruleId: 'stored-key',
          service: key.service,
          fingerprint: fingerprintOf(key.value),
          stored: 'active',
        });
      }
    }
  }
  for (const old of retired) {
    if (old.prefix.length < 3) continue;
    for (let at = text.indexOf(old.prefix); at !== -1; at = text.indexOf(old.prefix, at + 1)) {
      const end = at + old.length;
      if (end > text.length || !text.startsWith(old.suffix, end - old.suffix.length)) continue;
      if (!boundaryBefore(text, at) || !boundaryAfter(text, end)) continue;
      const value = text.slice(at, end);
      if (classifyToken(value) || fingerprintOf(value) !== old.fingerprint) continue;
      hits.push({
        start: at,
        end,
        ruleId: 'retired-key',
        service: old.service,
        fingerprint: old.fingerprint,
        stored: 'retired',
      });
    }
  }
  if (hits.length === 0) return { findings: [], omitted: 0 };
  hits.sort((a, b) => a.start - b.start);

  const allow = options.allowComments !== false ? new AllowedHits(text, options.yaml) : undefined;
  const looseCap = options.looseCap ?? LOOSE_CAP;
  let loose = 0;
  let omitted = 0;
  const findings: Finding[] = [];
  let line = 0;
  let lineStart = 0;
  // The line before the hit's (-1: none), and the newline that ends the hit's line: each newline is
  // looked for once, so a long minified line is not read again for every key on it.
  let previousStart = -1;
  let lineEnd = text.indexOf('\n');
  if (lineEnd === -1) lineEnd = text.length;
  let counted = 0;
  let bytes = 0;
  for (const hit of hits) {
    while (lineEnd < hit.start) {
      line++;
      previousStart = lineStart;
      lineStart = lineEnd + 1;
      lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd === -1) lineEnd = text.length;
    }
    const allowed =
      allow?.allows(hit.start, hit.service, previousStart === -1 ? lineStart : previousStart, lineStart, lineEnd) ??
      false;
    // The person's own stored key is never hidden by what a file says: a comment next to it is the repository's word.
    if (allowed && hit.stored !== 'active') continue;
    const rule = RULES[hit.ruleId];
    if (rule.confidence === 'medium' && !hit.stored && ++loose > looseCap) {
      omitted++;
      continue;
    }
    bytes += utf8Length(text, counted, hit.start);
    counted = hit.start;
    const value = hit.key ?? text.slice(hit.start, hit.end);
    // Pieces of a split key can span lines; every other finding ends on its own line.
    let endLine = line;
    let endLineStart = lineStart;
    if (hit.end > lineEnd) {
      for (let at = text.indexOf('\n', hit.start); at !== -1 && at < hit.end; at = text.indexOf('\n', at + 1)) {
        endLine++;
        endLineStart = at + 1;
      }
    }
    // Only listed findings pay for a fingerprint; the --verify hand-off is keyed by the same one.
    const fingerprint = hit.fingerprint || fingerprintOf(value);
    options.onKey?.(fingerprint, value);
    findings.push({
      ruleId: hit.ruleId,
      service: hit.service,
      confidence: rule.confidence,
      description:
        hit.stored === 'active'
          ? 'the key stored in Keyward'
          : hit.stored === 'retired'
            ? 'a key Keyward rotated out, still valid until deleted at the service'
            : rule.description,
      line,
      column: hit.start - lineStart,
      endLine,
      endColumn: hit.end - endLineStart,
      startByte: bytes,
      endByte: bytes + utf8Length(text, hit.start, hit.end),
      masked: maskKey(value),
      fingerprint,
      stored: hit.stored,
      ...(allowed ? { allowRefused: true as const } : {}),
    });
  }
  return { findings, omitted };
}

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
 * A quoted piece that starts with a documented prefix (splitKeys.ts): the text is decoded
 * and the pieces looked at. "sk-" alone is no such prefix, so `"sk-" + x` stays skipped.
 */
function quotedPrefixAt(bytes: Buffer, start: number, end: number, whole: boolean): boolean {
  if (whole || !isQuoteByte(bytes[start - 1])) return false;
  return PIECE_PREFIXES.some((prefix) => bytesAre(bytes, start, prefix));
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
  runEnd = -1;
  beginCandidates(bytes);
  for (let at = nextCandidate(1); at !== -1; at = nextCandidate(at + 1)) {
    const last = bytes[at]!;
    const before = bytes[at - 1]!;
    let start = -1;
    if (last === DASH) {
      if (bytes[at - 2] !== BEFORE_DASH[before] || BEFORE_DASH[before] === 0) continue;
      resumeAt = at;
      start = dashToken(bytes, at, before);
      at = resumeAt;
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
 * (-1: none). Module state rather than an object per file; containsLiteral resets it.
 */
let runEnd = -1;
let lastInfix = -1;
/** Where containsLiteral's dash search goes on from after dashToken: past most of a run too long to be a key. */
let resumeAt = 0;

/** The start of a token that may be a key at a dash after "sk", "ai" or "lx" ("sk-", "xai-", "pplx-"), or -1. */
function dashToken(bytes: Buffer, at: number, before: number): number {
  if (before === 0x69) return otherAt(bytes, 'xai-', at + 1) ? at - 3 : -1;
  if (before === 0x78) return otherAt(bytes, 'pplx-', at + 1) ? at - 4 : -1;
  if (bytes[at - 2] !== S) return -1;
  const start = at - 2;
  if (start >= runEnd) {
    runEnd = start + 3;
    lastInfix = -1;
    while (runEnd < bytes.length && isKeyByte(bytes[runEnd])) {
      if (bytes[runEnd] === INFIX_LAST && runEnd - start >= INFIX.length + 2 && endsInfix(bytes, runEnd))
        lastInfix = runEnd - INFIX.length + 1;
      runEnd++;
    }
  }
  const length = runEnd - start;
  // Only the run's last MAX_TOKEN characters can start a token short enough to be a key.
  if (length > MAX_TOKEN) resumeAt = Math.max(at, runEnd - MAX_TOKEN - 1);
  return length === ROUTER_KEY_LENGTH ||
    (length <= MAX_TOKEN && lastInfix >= start + 3) ||
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
  if (options.known?.length || options.retired?.length || options.decodeBase64) return undefined;
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

/** Whether a file's bytes can hold a finding at all: the fast path that skips most files undecoded. */
export function mayContainKey(bytes: Buffer, options: ScanOptions = {}): boolean {
  if (containsLiteral(bytes)) return true;
  if (options.decodeBase64 && mayHoldEncodedBytes(bytes)) return true;
  if (options.known?.some((k) => bytes.indexOf(k.value) !== -1)) return true;
  return options.retired?.some((r) => r.prefix.length >= 3 && bytes.indexOf(r.prefix) !== -1) ?? false;
}

export function scanBuffer(bytes: Buffer, options: ScanOptions = {}): Finding[] {
  return mayContainKey(bytes, options) ? scanText(bytes.toString('utf8'), options) : [];
}
