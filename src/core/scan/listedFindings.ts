// Hits become the findings a scan lists: in order, with lines, columns and UTF-8 offsets counted in one pass,
// allow comments honoured (never for the stored key), and medium-confidence ones past the cap counted, not listed.
import { fingerprint as fingerprintOf } from '../keys/fingerprint.ts';
import { maskKey } from '../redact.ts';
import { AllowedHits } from './allowComments.ts';
import { utf8Length } from './keyChars.ts';
import { RULES, isOwnRule } from './rules.ts';
import { type Finding, LOOSE_CAP, type ScanOptions, type ScanResult } from './scanTypes.ts';
import type { Hit } from './textHits.ts';

function descriptionOf(stored: Hit['stored'], ruleDescription: string): string {
  return stored === 'active'
    ? 'the key stored in Keyward'
    : stored === 'retired'
      ? 'a key Keyward rotated out, still valid until deleted at the service'
      : ruleDescription;
}

function newlinesIn(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The findings of hits sorted by start (none: no findings). */
export function listedFindings(text: string, hits: readonly Hit[], options: ScanOptions): ScanResult {
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
    // A team rule's finding counts like a high-confidence one: the team wrote the rule to be told.
    const rule = isOwnRule(hit.ruleId)
      ? RULES[hit.ruleId]
      : { confidence: 'high' as const, description: hit.description ?? hit.ruleId };
    if (rule.confidence === 'medium' && !hit.stored && ++loose > looseCap) {
      omitted++;
      continue;
    }
    bytes += utf8Length(text, counted, hit.start);
    counted = hit.start;
    const value = hit.key ?? text.slice(hit.start, hit.end);
    // Pieces of a split key can span lines; every other finding ends on its own line.
    const endLine = hit.end > lineEnd ? line + newlinesIn(text, hit.start, hit.end) : line;
    const endLineStart = hit.end > lineEnd ? text.lastIndexOf('\n', hit.end - 1) + 1 : lineStart;
    // Only listed findings pay for a fingerprint; the --verify hand-off is keyed by the same one.
    const fingerprint = hit.fingerprint || fingerprintOf(value);
    options.onKey?.(fingerprint, value);
    findings.push({
      ruleId: hit.ruleId,
      service: hit.service,
      confidence: rule.confidence,
      description: descriptionOf(hit.stored, rule.description),
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
