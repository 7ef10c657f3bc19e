// The allow comments people already write for other scanners, honoured with
// their own meaning and no more: a same-line marker names its line, a
// next-line marker the line after it, a disable/enable pair the lines between,
// and a secretlint comment that names rules only hides keys those rules find
// (an AWS rule does not hide a direct-service key).
import type { KeyOwner } from '../../shared/keyShapes.ts';
import { perService } from '../../shared/serviceIds.ts';
import { SERVICES } from '../services/descriptors.ts';

/** On the line before a key: ignore the next line. */
export const NEXT_LINE_MARKER = 'keyward-ignore-next-line';

// detect-secrets' allowlist filter (detect_secrets/filters/allowlist.py): the pragma must follow a comment start
// of one of these syntaxes, and a closing syntax must end the line, so a pragma in a string value is no comment.
// "whitelist" is the legacy spelling, same-line only. Its next-line pragma may have no text before it on its
// line ("foo = 'bar' # pragma: allowlist nextline secret" hides nothing); indentation is allowed here where
// detect-secrets refuses it, since an indented comment line hides nothing either.
const PRAGMA_COMMENTS: readonly (readonly [string, string])[] = [
  ['#', ''],
  ['//', ''],
  ['/\\*', ' *\\*/'],
  ["'", ''],
  ['--', ''],
  ['<!--[# \\t]*?', ' *?-->'],
];
const pragma = (nextLine: boolean, comments = PRAGMA_COMMENTS) =>
  new RegExp(
    comments
      .map(
        ([open, close]) =>
          `${nextLine ? '^[ \\t]*' : ''}${open}[ \\t]* *pragma: ?${nextLine ? 'allowlist[ -]nextline' : '(?:allow|white)list'}[ -]secret.*?${close}[ \\t\\r]*$`,
      )
      .join('|'),
  );
const PRAGMA_SAME_LINE = pragma(false);
const PRAGMA_NEXT_LINE = pragma(true);
// In YAML detect-secrets knows only '#' comments (its allowlist filter picks the syntax by file name): elsewhere in
// a YAML line "// pragma: …" is part of a value.
const YAML_COMMENTS = PRAGMA_COMMENTS.filter(([open]) => open === '#');
const PRAGMA_SAME_LINE_YAML = pragma(false, YAML_COMMENTS);
const PRAGMA_NEXT_LINE_YAML = pragma(true, YAML_COMMENTS);
// "keyward-ignore" alone, not the start of "keyward-ignore-next-line".
const KEYWARD_SAME_LINE = /keyward-ignore(?!-next-line)/;
const SECRETLINT = /secretlint-(disable-next-line|disable-line|disable|enable)\b(.*)/g;
const KEYWARD_BLOCK = /keyward-(disable|enable)\b(?!-)/g;

const PRESETS = ['@secretlint/secretlint-rule-preset-recommend', '@secretlint/secretlint-rule-preset-canary'];

/** Rule ids (secretlint's, and the presets that include them) that find each owner's keys: a service's from its row. */
const SECRETLINT_RULES: Record<KeyOwner, readonly string[]> = {
  ...perService((id) => SERVICES[id].secretlintRules),
  // secretlint's preset-recommend holds the anthropic, gcp, groq and huggingface rules; it has none for the others.
  anthropic: ['@secretlint/secretlint-rule-anthropic', ...PRESETS],
  google: ['@secretlint/secretlint-rule-gcp', ...PRESETS],
  groq: ['@secretlint/secretlint-rule-groq', ...PRESETS],
  huggingface: ['@secretlint/secretlint-rule-huggingface', ...PRESETS],
  xai: [],
  perplexity: [],
  replicate: [],
  together: [],
  fireworks: [],
};

/**
 * Rule ids in a secretlint comment, as secretlint's parseComment reads them: "a, b -- why" gives [a, b]
 * (everything from the first "--" is the reason, which also ends "-->"). Unlike secretlint, a comment's
 * own closer ("*\/", "#>", "%>", "-}}") is no rule id: secretlint would read "/* secretlint-disable *\/"
 * as naming a rule "*\/" and so hide nothing, which is not what its writer meant.
 */
export function secretlintRules(options: string): string[] {
  const reason = options.indexOf('--');
  return (reason === -1 ? options : options.slice(0, reason))
    .replace(/(?:\*\/|#>|%>|-}}).*$/, '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/** Whether a secretlint comment naming these rules (none: all rules) covers a key of this service. */
export function secretlintCovers(rules: readonly string[], service: KeyOwner): boolean {
  return rules.length === 0 || rules.some((id) => SECRETLINT_RULES[service].includes(id));
}

function lineAt(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end === -1) end = text.length;
  return { start, end };
}

function secretlintOn(line: string, kinds: readonly string[], service: KeyOwner): boolean {
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
export function lineAllows(text: string, offset: number, service: KeyOwner, yaml = false): boolean {
  const { start, end } = lineAt(text, offset);
  const line = text.slice(start, end);
  if (
    KEYWARD_SAME_LINE.test(line) ||
    line.includes('gitleaks:allow') ||
    (yaml ? PRAGMA_SAME_LINE_YAML : PRAGMA_SAME_LINE).test(line) ||
    secretlintOn(line, ['disable-line'], service)
  )
    return true;
  // A dotenv value cannot carry a trailing comment (docker --env-file and systemd keep it as part of the value).
  if (start === 0) return false;
  const previous = text.slice(text.lastIndexOf('\n', start - 2) + 1, start - 1);
  return (
    previous.includes(NEXT_LINE_MARKER) ||
    (yaml ? PRAGMA_NEXT_LINE_YAML : PRAGMA_NEXT_LINE).test(previous) ||
    secretlintOn(previous, ['disable-next-line'], service)
  );
}

interface Region {
  from: number;
  /** End of the region (the enable comment), or the end of the text. */
  to: number;
  /** The secretlint rule id the region names ('*': all); undefined for a keyward block (every key). */
  rule?: string;
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
      // As secretlint's CommentState: one open entry per rule a disable names ('*' for none); an enable
      // naming rules closes the latest open entry of each, a bare enable the entries of the latest open disable.
      const entries: { from: number; to?: number; rule: string }[] = [];
      for (const match of text.matchAll(SECRETLINT)) {
        const rules = secretlintRules(match[2]!);
        if (match[1] === 'disable')
          for (const rule of rules.length === 0 ? ['*'] : rules) entries.push({ from: match.index, rule });
        else if (match[1] === 'enable' && rules.length > 0) {
          for (const rule of rules) {
            const entry = entries.findLast((e) => e.to === undefined && e.rule === rule);
            if (entry) entry.to = match.index;
          }
        } else if (match[1] === 'enable') {
          const latest = entries.findLast((e) => e.to === undefined);
          for (const entry of entries)
            if (entry.to === undefined && entry.from === latest?.from) entry.to = match.index;
        }
      }
      for (const { from, to, rule } of entries) this.regions.push({ from, to: to ?? text.length, rule });
    }
  }

  get empty(): boolean {
    return this.regions.length === 0;
  }

  covers(offset: number, service: KeyOwner): boolean {
    return this.regions.some(
      (r) =>
        offset > r.from &&
        offset < r.to &&
        (r.rule === undefined || r.rule === '*' || secretlintCovers([r.rule], service)),
    );
  }
}

/** Whether a text holds a block comment, so that a change to one line can change what others allow. */
export function hasBlockComment(text: string): boolean {
  return /keyward-(?:disable|enable)\b(?!-)|secretlint-(?:disable|enable)\b(?!-)/.test(text);
}
