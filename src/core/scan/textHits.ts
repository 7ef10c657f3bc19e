// The places a text holds a key, before they become findings: tokens of a known shape, keys split into
// pieces, and stored or rotated-out keys found exactly. Each collector appends to one list of hits.
import { fingerprint as fingerprintOf } from '../keys/fingerprint.ts';
import { type KeyOwner, OTHER_PREFIXES } from '../../shared/keyShapes.ts';
import { boundaryAfter, boundaryBefore, isKeyChar } from './keyChars.ts';
import { type FindingRuleId, MAX_TOKEN, RULES, classifyToken, keyBody, looksFake } from './rules.ts';
import type { KnownKey, RetiredKey } from './scanTypes.ts';
import { assembledKeys } from './splitKeys.ts';

export interface Hit {
  start: number;
  end: number;
  ruleId: FindingRuleId;
  service: KeyOwner;
  /** A team rule's description (its findings carry it; Keyward's own rules' are in RULES). */
  description?: string;
  fingerprint: string;
  stored: 'active' | 'retired' | null;
  /** The key, when the text at start..end is not the key itself (split or encoded). */
  key?: string;
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

/** The stored and rotated-out keys a scan looks for, by fingerprint (empty maps when there are none). */
export interface StoredLookup {
  known: ReadonlyMap<string, KnownKey>;
  retired: ReadonlyMap<string, unknown>;
}

export function storedAs(lookup: StoredLookup, fingerprint: string): 'active' | 'retired' | null {
  return lookup.known.has(fingerprint) ? 'active' : lookup.retired.has(fingerprint) ? 'retired' : null;
}

/** Tokens of a known shape ("sk-…", other providers' prefixes), in order of start. */
export function tokenHits(text: string, lookup: StoredLookup, hits: Hit[]): void {
  // One closure per text, not per token.
  const consider = (start: number, end: number) => {
    if (!boundaryBefore(text, start)) return;
    const token = text.slice(start, end);
    const ruleId = classifyToken(token);
    if (!ruleId) return;
    // Hashed later, for listed findings only, unless it decides whether the key is one Keyward holds.
    const fingerprint = lookup.known.size > 0 || lookup.retired.size > 0 ? fingerprintOf(token) : '';
    const stored = storedAs(lookup, fingerprint);
    if (stored || !looksFake(keyBody(token, ruleId))) {
      // The management key Keyward holds looks like any routing key: only its fingerprint tells it apart.
      const manages = stored === 'active' && ruleId === 'router-key' && lookup.known.get(fingerprint)?.manages;
      const rule = manages ? 'router-management-key' : ruleId;
      hits.push({ start, end, ruleId: rule, service: RULES[ruleId].service!, fingerprint, stored });
    }
  };
  tokensAfter(text, 'sk-', consider);
  for (const prefix of otherPrefixesIn(text)) tokensAfter(text, prefix, consider);
  if (hits.length > 1) hits.sort((a, b) => a.start - b.start);
}

/** The joined text must be a whole key of a known shape, and not a placeholder. */
function isKey(joined: string): boolean {
  const rule = classifyToken(joined);
  return rule !== undefined && !looksFake(keyBody(joined, rule));
}

/** Keys split into pieces, where no token hit (the first `tokenCount`, in order) already covers them. */
export function splitHits(text: string, lookup: StoredLookup, hits: Hit[], tokenCount: number): void {
  for (const piece of assembledKeys(text, isKey)) {
    if (overlapsToken(hits, tokenCount, piece.start, piece.end)) continue;
    const fingerprint = fingerprintOf(piece.key);
    const service = RULES[classifyToken(piece.key)!].service!;
    hits.push({
      start: piece.start,
      end: piece.end,
      ruleId: 'split-key',
      service,
      fingerprint,
      stored: storedAs(lookup, fingerprint),
      key: piece.key,
    });
  }
}

/** Stored keys of any shape, found exactly; rotated-out keys by prefix, suffix, length and fingerprint. */
export function storedHits(
  text: string,
  known: readonly KnownKey[],
  retired: readonly RetiredKey[],
  hits: Hit[],
): void {
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
  for (const old of retired) retiredHits(text, old, hits);
}

function retiredHits(text: string, old: RetiredKey, hits: Hit[]): void {
  if (old.prefix.length < 3) return;
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
