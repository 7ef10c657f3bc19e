// The places a text holds a key, before they become findings: tokens of a known shape, keys split into
// pieces, and stored or rotated-out keys found exactly. Each collector appends to one list of hits.
import { fingerprint as fingerprintOf } from '../keys/fingerprint.ts';
import type { KeyOwner } from '../../shared/keyShapes.ts';
import { boundaryAfter, boundaryBefore } from './keyChars.ts';
import { endsLine, prefixedRuns } from './prefixedRuns.ts';
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
 * The token hits (of the first `count` hits, in order of start, none longer than MAX_TOKEN) that overlap [start, end):
 * found by halving, as every piece was compared with every token before.
 */
function overlappingTokens(hits: readonly Hit[], count: number, start: number, end: number): number[] {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hits[mid]!.start <= start - MAX_TOKEN - 1) lo = mid + 1;
    else hi = mid;
  }
  const found: number[] = [];
  for (let i = lo; i < count && hits[i]!.start < end; i++) if (start < hits[i]!.end) found.push(i);
  return found;
}

/**
 * Whether the token hits `overlapping` are only the loose reading of a split key's first piece: a direct key
 * hard-wrapped after its infix leaves a first line that is a (medium, loose) key of its own, and the whole key,
 * joined, is the finding to report.
 */
function onlyLoosePieces(
  hits: readonly Hit[],
  overlapping: readonly number[],
  start: number,
  end: number,
  key: string,
): boolean {
  if (overlapping.length === 0) return true;
  return (
    classifyToken(key) !== 'direct-key-loose' &&
    overlapping.every((i) => hits[i]!.ruleId === 'direct-key-loose' && hits[i]!.start >= start && hits[i]!.end <= end)
  );
}

/** The stored and rotated-out keys a scan looks for, by fingerprint (empty maps when there are none). */
export interface StoredLookup {
  known: ReadonlyMap<string, KnownKey>;
  retired: ReadonlyMap<string, unknown>;
}

export function storedAs(lookup: StoredLookup, fingerprint: string): 'active' | 'retired' | null {
  return lookup.known.has(fingerprint) ? 'active' : lookup.retired.has(fingerprint) ? 'retired' : null;
}

/**
 * Tokens of a known shape ("sk-…", other providers' prefixes), in order of start. With `lineEnds`, the runs that end a
 * line (or a line-ending backslash) are listed there too, as start, end pairs: where a key continued over lines can
 * start (continuedKeys.ts), found by the same pass.
 */
export function tokenHits(text: string, lookup: StoredLookup, hits: Hit[], lineEnds?: number[]): void {
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
  prefixedRuns(text, (start, end) => {
    consider(start, end);
    if (lineEnds && endsLine(text, end) && boundaryBefore(text, start)) lineEnds.push(start, end);
  });
  if (hits.length > 1) hits.sort((a, b) => a.start - b.start);
}

/** The joined text must be a whole key of a known shape, and not a placeholder. */
function isKey(joined: string): boolean {
  const rule = classifyToken(joined);
  return rule !== undefined && !looksFake(keyBody(joined, rule));
}

/** Keys split into pieces, where no token hit (the first `tokenCount`, in order) already covers them. */
export function splitHits(
  text: string,
  lookup: StoredLookup,
  hits: Hit[],
  tokenCount: number,
  lineEnds: readonly number[],
): void {
  const replaced = new Set<number>();
  for (const piece of assembledKeys(text, isKey, lineEnds)) {
    const overlapping = overlappingTokens(hits, tokenCount, piece.start, piece.end);
    if (!onlyLoosePieces(hits, overlapping, piece.start, piece.end, piece.key)) continue;
    for (const i of overlapping) replaced.add(i);
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
  if (replaced.size > 0) {
    const kept = hits.filter((_, i) => !replaced.has(i));
    hits.splice(0, hits.length, ...kept);
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
