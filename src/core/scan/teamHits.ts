// Where a text matches a team's rules (teamRules.ts), as gitleaks' detectRule reads a rule (detect/detect.go): the
// keywords first (a text holding none is not searched), the regex, the secret from its group, the entropy floor, and
// the rule's allowlists. A span one of Keyward's own rules already reports is not reported twice.
import { fingerprint as fingerprintOf } from '../keys/fingerprint.ts';
import { entropy } from './rules.ts';
import type { TeamAllowlist, TeamRule } from './teamRules.ts';
import type { Hit, StoredLookup } from './textHits.ts';

/** The secret's span in a match: the rule's group, else the first non-empty group, else the match less its newlines. */
function secretSpan(match: RegExpExecArray, group: number): [number, number] {
  const indices = match.indices!;
  if (group > 0) return indices[group] ?? [match.index, match.index];
  for (let i = 1; i < indices.length; i++) {
    const span = indices[i];
    if (span && span[1] > span[0]) return span;
  }
  let [start, end] = indices[0]!;
  // gitleaks trims newlines from the match (strings.Trim(match, "\n")).
  while (start < end && match.input.charCodeAt(start) === 10) start++;
  while (end > start && match.input.charCodeAt(end - 1) === 10) end--;
  return [start, end];
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

/** gitleaks' checkFindingAllowed for one rule's allowlists (commits and paths are not read: teamRules.ts names them). */
function allowed(lists: readonly TeamAllowlist[], secret: string, match: RegExpExecArray, span: [number, number]) {
  for (const list of lists) {
    const target =
      list.regexTarget === 'match'
        ? match[0]
        : list.regexTarget === 'line'
          ? lineAround(match.input, span[0], span[1])
          : secret;
    const lower = secret.toLowerCase();
    const byRegex = list.regexes.some((r) => r.test(target));
    const byWord = list.stopwords.some((w) => lower.includes(w));
    const checks = [...(list.regexes.length > 0 ? [byRegex] : []), ...(list.stopwords.length > 0 ? [byWord] : [])];
    if (list.condition === 'and' ? checks.length > 0 && checks.every(Boolean) : byRegex || byWord) return true;
  }
  return false;
}

function overlapsOwn(hits: readonly Hit[], own: number, start: number, end: number): boolean {
  for (let i = 0; i < own; i++) if (hits[i]!.start < end && start < hits[i]!.end) return true;
  return false;
}

/** Appends each team rule's matches; `own` is how many hits Keyward's own rules made (they come first). */
export function teamHits(
  text: string,
  rules: readonly TeamRule[],
  storedAs: (fingerprint: string) => Hit['stored'],
  hits: Hit[],
): void {
  const own = hits.length;
  let lower: string | undefined;
  for (const rule of rules) {
    if (rule.keywords.length > 0) {
      lower ??= text.toLowerCase();
      const words = lower;
      if (!rule.keywords.some((k) => words.includes(k))) continue;
    }
    const regex = rule.regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0].length === 0) regex.lastIndex++;
      const span = secretSpan(match, rule.secretGroup);
      if (span[1] <= span[0]) continue;
      const secret = text.slice(span[0], span[1]);
      if (rule.entropy > 0 && entropy(secret) <= rule.entropy) continue;
      if (allowed(rule.allowlists, secret, match, span) || overlapsOwn(hits, own, span[0], span[1])) continue;
      const fingerprint = fingerprintOf(secret);
      hits.push({
        start: span[0],
        end: span[1],
        ruleId: rule.id,
        service: 'team',
        fingerprint,
        stored: storedAs(fingerprint),
        description: rule.description,
      });
    }
  }
}

export type { StoredLookup };
