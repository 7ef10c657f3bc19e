// Finds key strings in text, offline. The literal "sk-" comes first (indexOf
// skips to it), then one bounded pass over the token: linear even on megabytes
// of "sk-sk-sk-". Findings carry the masked key and a fingerprint, never the key.
// The parts live beside it, by what they do: scanTypes.ts (the shapes), keyChars.ts (the key alphabet),
// textHits.ts (where a text holds a key), listedFindings.ts (hits to findings). The byte-level check before any
// decoding (literalPrecheck.ts) and scanBuffer (byteScan.ts) are imported from their own files: the editor scans
// text, and holding them here put the byte check and its WebAssembly into the extension bundle (bench/bundle.ts).
import { fingerprint as fingerprintOf } from '../keys/fingerprint.ts';
import { MAX_DECODE_DEPTH, anchoredRegions, encodedRuns } from './encodedKeys.ts';
import { NEXT_LINE_MARKER } from './allowComments.ts';
import { listedFindings } from './listedFindings.ts';
import type { Finding, ScanOptions, ScanResult } from './scanTypes.ts';
import { type Hit, type StoredLookup, splitHits, storedAs, storedHits, tokenHits } from './textHits.ts';
import { teamHits } from './teamHits.ts';

export { NEXT_LINE_MARKER };
export type { Finding, KnownKey, RetiredKey, ScanOptions, ScanResult } from './scanTypes.ts';
export { LOOSE_CAP } from './scanTypes.ts';
export { boundaryBefore, isKeyChar } from './keyChars.ts';
export { fingerprintOf };

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

const NO_ENTRIES: ReadonlyMap<string, never> = new Map<string, never>();

/** Scans a text; findings come in order of position. */
export function scanText(text: string, options: ScanOptions = {}): Finding[] {
  return scanTextCounted(text, options).findings;
}

/** Scans a text, and says how many medium-confidence findings the cap left out. */
export function scanTextCounted(text: string, options: ScanOptions = {}): ScanResult {
  const known = options.known ?? [];
  const retired = options.retired ?? [];
  // Most texts are scanned for no stored key: no maps to build then.
  const lookup: StoredLookup = {
    known: known.length > 0 ? new Map(known.map((k) => [fingerprintOf(k.value), k])) : NO_ENTRIES,
    retired: retired.length > 0 ? new Map(retired.map((r) => [r.fingerprint, r])) : NO_ENTRIES,
  };
  const hits: Hit[] = [];
  const lineEnds: number[] = [];
  tokenHits(text, lookup, hits, lineEnds);
  // Keys split into pieces: the joined text must be a whole key of a known shape, and not a placeholder.
  splitHits(text, lookup, hits, hits.length, lineEnds);
  encodedHits(text, options, hits);
  storedHits(text, known, retired, hits);
  if (options.teamRules?.length) teamHits(text, options.teamRules, (f) => storedAs(lookup, f), hits);
  if (hits.length === 0) return { findings: [], omitted: 0 };
  hits.sort((a, b) => a.start - b.start);
  return listedFindings(text, hits, options);
}

/**
 * Keys in base64, decoded where such a value can be kept; reported at the encoded text. Here rather than in
 * textHits.ts because the decoded text is scanned by scanTextCounted itself.
 */
function encodedHits(text: string, options: ScanOptions, hits: Hit[]): void {
  const depth = options.decodeDepth ?? 0;
  // Decoded text is read whole (it is small, and base64 inside it is itself the clue); a file's own
  // text only where an anchor says a base64 value can be.
  const places = depth === 0 ? anchoredRegions(text) : undefined;
  if (depth >= MAX_DECODE_DEPTH || (places !== undefined && places.length === 0)) return;
  for (const run of encodedRuns(text, places)) {
    const keys = new Map<string, string>();
    const inner = scanTextCounted(run.decoded, {
      known: options.known ?? [],
      retired: options.retired ?? [],
      allowComments: false,
      looseCap: Number.POSITIVE_INFINITY,
      decodeDepth: depth + 1,
      ...(options.teamRules ? { teamRules: options.teamRules } : {}),
      onKey: (fingerprint, key) => keys.set(fingerprint, key),
    });
    for (const f of inner.findings) {
      const { service, fingerprint, stored } = f;
      const key = keys.get(fingerprint)!;
      hits.push({ start: run.start, end: run.end, ruleId: 'encoded-key', service, fingerprint, stored, key });
    }
  }
}
