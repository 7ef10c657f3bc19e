// Finds key strings in text, offline. The literal "sk-" comes first (indexOf
// skips to it), then one bounded pass over the token: linear even on megabytes
// of "sk-sk-sk-". Findings carry the masked key and a fingerprint, never the key.
import type { ServiceId } from '../../shared/errorKinds.ts';
import { fingerprint as fingerprintOf } from '../fingerprint.ts';
import { maskKey } from '../redact.ts';
import { MAX_TOKEN, RULES, type RuleId, classifyToken, keyBody, looksFake } from './rules.ts';
import { DIRECT_INFIX, ROUTER_KEY_LENGTH } from '../../shared/keyShapes.ts';
import { DisabledRegions, NEXT_LINE_MARKER, allowMarkers, lineAllows, markerWithin } from './allowComments.ts';

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
  /**
   * At most this many medium-confidence findings per text (default LOOSE_CAP);
   * the rest are counted, not listed, so generated near-misses cannot flood a report.
   */
  looseCap?: number;
}

const YAML_NAME = /\.ya?ml$/i;

/** The options for one file: its name says whether it is YAML, whose comments detect-secrets reads its own way. */
export function optionsFor(path: string, options: ScanOptions): ScanOptions {
  return YAML_NAME.test(path) ? { ...options, yaml: true } : options;
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
  service: ServiceId;
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
}

export { fingerprintOf };

function isKeyChar(code: number): boolean {
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
  service: ServiceId;
  fingerprint: string;
  stored: 'active' | 'retired' | null;
}

/** Characters in a key's line and the one before past which allow comments are looked up, not read. */
const LONG_LINES = 4096;

/** Scans a text; findings come in order of position. */
export function scanText(text: string, options: ScanOptions = {}): Finding[] {
  return scanTextCounted(text, options).findings;
}

/** Scans a text, and says how many medium-confidence findings the cap left out. */
export function scanTextCounted(text: string, options: ScanOptions = {}): ScanResult {
  const known = options.known ?? [];
  const retired = options.retired ?? [];
  const knownFingerprints = new Map(known.map((k) => [fingerprintOf(k.value), k]));
  const retiredFingerprints = new Map(retired.map((r) => [r.fingerprint, r]));
  const hits: Hit[] = [];

  let pos = text.indexOf('sk-');
  while (pos !== -1) {
    const start = pos;
    let end = start + 3;
    while (end < text.length && isKeyChar(text.charCodeAt(end)) && end - start <= MAX_TOKEN) end++;
    if (end - start > MAX_TOKEN) {
      // Far too long for a key: skip the whole run so adversarial input stays linear.
      while (end < text.length && isKeyChar(text.charCodeAt(end))) end++;
    } else if (boundaryBefore(text, start)) {
      const token = text.slice(start, end);
      const ruleId = classifyToken(token);
      if (ruleId) {
        // Hashed later, for listed findings only, unless it decides whether the key is one Keyward holds.
        const fingerprint = knownFingerprints.size > 0 || retiredFingerprints.size > 0 ? fingerprintOf(token) : '';
        const stored = knownFingerprints.has(fingerprint)
          ? 'active'
          : retiredFingerprints.has(fingerprint)
            ? 'retired'
            : null;
        if (stored || !looksFake(keyBody(token, ruleId)))
          hits.push({ start, end, ruleId, service: RULES[ruleId].service, fingerprint, stored });
      }
    }
    pos = text.indexOf('sk-', end);
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

  const allow = options.allowComments !== false;
  const regions = allow ? new DisabledRegions(text) : undefined;
  const looseCap = options.looseCap ?? LOOSE_CAP;
  let loose = 0;
  let omitted = 0;
  // Found on the first key whose line (with the one before) is long: a minified line is then not
  // read again per key. Short lines are read as they are: searching a whole window cost more.
  let markers: number[] | undefined;
  const mayAllow = (from: number, to: number) =>
    to - from < LONG_LINES || markerWithin((markers ??= allowMarkers(text)), from, to);
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
    if (
      allow &&
      ((mayAllow(previousStart === -1 ? lineStart : previousStart, lineEnd) &&
        lineAllows(text, hit.start, hit.service, options.yaml)) ||
        (!regions!.empty && regions!.covers(hit.start, hit.service)))
    )
      continue;
    const rule = RULES[hit.ruleId];
    if (rule.confidence === 'medium' && !hit.stored && ++loose > looseCap) {
      omitted++;
      continue;
    }
    bytes += utf8Length(text, counted, hit.start);
    counted = hit.start;
    const value = text.slice(hit.start, hit.end);
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
            ? 'a key Keyward rotated out (still valid until deleted at the service)'
            : rule.description,
      line,
      column: hit.start - lineStart,
      endLine: line,
      endColumn: hit.end - lineStart,
      startByte: bytes,
      endByte: bytes + utf8Length(text, hit.start, hit.end),
      masked: maskKey(value),
      fingerprint,
      stored: hit.stored,
    });
  }
  return { findings, omitted };
}

const S = 0x73;
const K_DASH = Buffer.from('k-', 'latin1');

const INFIX = Buffer.from(DIRECT_INFIX, 'latin1');
const INFIX_LAST = INFIX[INFIX.length - 1]!;

function isKeyByte(byte: number | undefined): boolean {
  return byte !== undefined && isKeyChar(byte);
}

/** Whether the infix ends at `last`. */
function endsInfix(bytes: Buffer, last: number): boolean {
  for (let j = 0; j < INFIX.length; j++) if (bytes[last - INFIX.length + 1 + j] !== INFIX[j]) return false;
  return true;
}

/**
 * Whether an "sk-" that could start a key occurs in the bytes. A one-byte
 * search for "k" runs at memchr speed; checking its neighbours is cheaper than
 * a three-byte search, and checking the token after it at byte level means a
 * file that only mentions "sk-" ("task-", "desk-", a flag) is never decoded.
 * A token is the rest of its run of key characters (all ASCII, so bytes and
 * text agree); each run is measured once, so "sk-sk-sk-…" stays linear.
 */
function containsLiteral(bytes: Buffer): boolean {
  let runEnd = -1;
  /** Start of the last direct-service infix in the current run, or -1. */
  let lastInfix = -1;
  // "k-", searched natively: a loop over every "k" called back into JS once per
  // letter, and "k" is common in source (it cost half the in-process scan).
  for (let at = bytes.indexOf(K_DASH, 1); at !== -1; at = bytes.indexOf(K_DASH, at + 1)) {
    if (bytes[at - 1] !== S) continue;
    const start = at - 1;
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
    if (length === ROUTER_KEY_LENGTH) return true;
    if (length <= MAX_TOKEN && lastInfix >= start + 3) return true;
    // Only the run's last MAX_TOKEN characters can start a token short enough to be a key.
    if (length > MAX_TOKEN) at = Math.max(at, runEnd - MAX_TOKEN - 1);
  }
  return false;
}

/** Whether a file's bytes can hold a finding at all: the fast path that skips most files undecoded. */
export function mayContainKey(bytes: Buffer, options: ScanOptions = {}): boolean {
  if (containsLiteral(bytes)) return true;
  if (options.known?.some((k) => bytes.indexOf(k.value) !== -1)) return true;
  return options.retired?.some((r) => r.prefix.length >= 3 && bytes.indexOf(r.prefix) !== -1) ?? false;
}

export function scanBuffer(bytes: Buffer, options: ScanOptions = {}): Finding[] {
  return mayContainKey(bytes, options) ? scanText(bytes.toString('utf8'), options) : [];
}
