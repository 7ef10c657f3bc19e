// The allow comments people already write for other scanners, honoured with
// their own meaning and no more: a same-line marker names its line, a
// next-line marker the line after it, a disable/enable pair the lines between,
// and a secretlint comment that names rules only hides keys those rules find
// (an AWS rule does not hide a direct-service key).
import type { ServiceId } from '../../shared/errorKinds.ts';

/** On the line before a key: ignore the next line. */
export const NEXT_LINE_MARKER = 'keyward-ignore-next-line';

// detect-secrets accepts "pragma: allowlist secret", an optional space after the colon,
// a dash for the space, and the older "whitelist" spelling; the next-line form adds "nextline".
const PRAGMA_SAME_LINE = /pragma: ?(?:allowlist|whitelist)[ -]secret/;
const PRAGMA_NEXT_LINE = /pragma: ?(?:allowlist|whitelist)[ -]nextline[ -]secret/;
// "keyward-ignore" alone, not the start of "keyward-ignore-next-line".
const KEYWARD_SAME_LINE = /keyward-ignore(?!-next-line)/;
const SECRETLINT = /secretlint-(disable-next-line|disable-line|disable|enable)\b(.*)/g;
const KEYWARD_BLOCK = /keyward-(disable|enable)\b(?!-)/g;

/** Rule ids (secretlint's, and the presets that include them) that find each service's keys. */
const SECRETLINT_RULES: Record<ServiceId, readonly string[]> = {
  direct: [
    '@secretlint/secretlint-rule-openai',
    '@secretlint/secretlint-rule-preset-recommend',
    '@secretlint/secretlint-rule-preset-canary',
  ],
  router: ['@secretlint/secretlint-rule-openrouter'],
  // A compatible service's key has no fixed shape, so no secretlint rule is known to find it.
  compatible: [],
};

/** Rule ids in a secretlint comment: "a, b -- why" (and whatever closes the comment) gives [a, b]. */
export function secretlintRules(options: string): string[] {
  const beforeReason = options.split(/\s-{2,}(?:\s|$)/u)[0] ?? '';
  return beforeReason
    .replace(/(?:-->|\*\/|#>|%>|-}}).*$/, '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/** Whether a secretlint comment naming these rules (none: all rules) covers a key of this service. */
export function secretlintCovers(rules: readonly string[], service: ServiceId): boolean {
  return rules.length === 0 || rules.some((id) => SECRETLINT_RULES[service].includes(id));
}

function lineAt(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end === -1) end = text.length;
  return { start, end };
}

function secretlintOn(line: string, kinds: readonly string[], service: ServiceId): boolean {
  if (!line.includes('secretlint-')) return false;
  for (const match of line.matchAll(SECRETLINT))
    if (kinds.includes(match[1]!) && secretlintCovers(secretlintRules(match[2]!), service)) return true;
  return false;
}

// Every same-line or next-line allow comment contains one of these, so a key with none
// on its line or the line before is not allowed, and its line need not be read.
// Searched one by one with indexOf: an alternation regex over a window was slower than four skip searches.
const MARKERS = ['keyward-ignore', 'gitleaks:allow', 'pragma:', 'secretlint-'];

/** Where the text mentions an allow comment at all, in order: a key far from all of them skips lineAllows. */
export function allowMarkers(text: string): number[] {
  const at: number[] = [];
  for (const marker of MARKERS)
    for (let i = text.indexOf(marker); i !== -1; i = text.indexOf(marker, i + marker.length)) at.push(i);
  return at.sort((a, b) => a - b);
}

/** Whether a marker of allowMarkers starts in [from, to). */
export function markerWithin(markers: readonly number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (markers[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < markers.length && markers[lo]! < to;
}

/** The line allows its own key: a same-line marker, or a next-line marker on the line before. */
export function lineAllows(text: string, offset: number, service: ServiceId): boolean {
  const { start, end } = lineAt(text, offset);
  const line = text.slice(start, end);
  if (
    KEYWARD_SAME_LINE.test(line) ||
    line.includes('gitleaks:allow') ||
    PRAGMA_SAME_LINE.test(line) ||
    secretlintOn(line, ['disable-line'], service)
  )
    return true;
  // A dotenv value cannot carry a trailing comment (docker --env-file and systemd keep it as part of the value).
  if (start === 0) return false;
  const previous = text.slice(text.lastIndexOf('\n', start - 2) + 1, start - 1);
  return (
    previous.includes(NEXT_LINE_MARKER) ||
    PRAGMA_NEXT_LINE.test(previous) ||
    secretlintOn(previous, ['disable-next-line'], service)
  );
}

interface Region {
  from: number;
  /** End of the region (the enable comment), or the end of the text. */
  to: number;
  /** secretlint rule ids the region names; undefined for a keyward block (every key). */
  rules?: string[];
}

/**
 * The disabled regions of a text: from a `keyward-disable` or
 * `secretlint-disable` comment to its `-enable` (or the end of the text), in
 * any comment syntax (`<!-- secretlint-disable -->` in Markdown too).
 */
export class DisabledRegions {
  private readonly regions: Region[] = [];

  constructor(text: string) {
    if (text.includes('keyward-disable')) {
      let open: number | undefined;
      for (const match of text.matchAll(KEYWARD_BLOCK)) {
        if (match[1] === 'disable') open ??= match.index;
        else if (open !== undefined) {
          this.regions.push({ from: open, to: match.index });
          open = undefined;
        }
      }
      if (open !== undefined) this.regions.push({ from: open, to: text.length });
    }
    if (text.includes('secretlint-disable')) {
      // secretlint keeps one open region per comment; an enable closes the ones it names (or all).
      const open: { from: number; rules: string[] }[] = [];
      for (const match of text.matchAll(SECRETLINT)) {
        const rules = secretlintRules(match[2]!);
        if (match[1] === 'disable') open.push({ from: match.index, rules });
        else if (match[1] === 'enable') {
          for (let i = open.length - 1; i >= 0; i--) {
            const region = open[i]!;
            if (rules.length === 0 || region.rules.some((id) => rules.includes(id))) {
              this.regions.push({ from: region.from, to: match.index, rules: region.rules });
              open.splice(i, 1);
            }
          }
        }
      }
      for (const region of open) this.regions.push({ from: region.from, to: text.length, rules: region.rules });
    }
  }

  get empty(): boolean {
    return this.regions.length === 0;
  }

  covers(offset: number, service: ServiceId): boolean {
    return this.regions.some(
      (r) => offset > r.from && offset < r.to && (r.rules === undefined || secretlintCovers(r.rules, service)),
    );
  }
}

/** Whether a text holds a block comment, so that a change to one line can change what others allow. */
export function hasBlockComment(text: string): boolean {
  return /keyward-(?:disable|enable)\b(?!-)|secretlint-(?:disable|enable)\b(?!-)/.test(text);
}
