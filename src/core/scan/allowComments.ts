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
// detect-secrets refuses it, since an indented comment line hides nothing either. Read by hand, not by its regular
// expressions: their `[ \t]* *` and `.*?[ \t\r]*$` backtrack over a run of spaces, and a line of a megabyte of
// them after "# pragma: allowlist secret" took minutes.
const PRAGMA_SAME_LINE = /pragma: ?(?:allow|white)list[ -]secret/g;
const PRAGMA_NEXT_LINE = /pragma: ?allowlist[ -]nextline[ -]secret/g;
/** What `.` in a regular expression does not match: a pragma's comment runs to the line's end without one. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Whether a line holds the pragma as a comment of one of detect-secrets' syntaxes: `#`, `//`, `--`, `'` (the
 * comment runs to the line's end), `/* … *\/`, `<!-- … -->` (its closer ends the line); in YAML `#` alone; for the
 * next-line pragma, only spaces before the comment's opener. One pass over the line and each pragma in it.
 */
function pragmaIn(line: string, nextLine: boolean, yaml: boolean): boolean {
  if (!line.includes('pragma:')) return false;
  // The line without its trailing [ \t\r], and the last line break before that: a comment's text has none.
  let end = line.length;
  while (end > 0 && ' \t\r'.includes(line[end - 1]!)) end--;
  let lastBreak = -1;
  for (let i = end - 1; i >= 0; i--)
    if (LINE_BREAK.test(line[i]!)) {
      lastBreak = i;
      break;
    }
  const pattern = nextLine ? PRAGMA_NEXT_LINE : PRAGMA_SAME_LINE;
  for (const match of line.matchAll(pattern)) {
    const after = match.index + match[0].length;
    if (lastBreak >= after) continue;
    let opener = match.index;
    while (opener > 0 && (line[opener - 1] === ' ' || line[opener - 1] === '\t')) opener--;
    const closes = (closer: string) => closer === '' || (end - closer.length >= after && line.endsWith(closer, end));
    const alone = (start: number) => !nextLine || /^[ \t]*$/.test(line.slice(0, start));
    for (const [open, closer] of yaml ? YAML_COMMENTS : PRAGMA_COMMENTS)
      if (line.endsWith(open, opener) && alone(opener - open.length) && closes(closer)) return true;
    // `<!--` may have `#` between it and the pragma (detect-secrets' `<!--[# \t]*?`).
    if (yaml) continue;
    let html = opener;
    while (html > 0 && '# \t'.includes(line[html - 1]!)) html--;
    if (line.endsWith('<!--', html) && alone(html - 4) && closes('-->')) return true;
  }
  return false;
}
const PRAGMA_COMMENTS: readonly (readonly [string, string])[] = [
  ['#', ''],
  ['//', ''],
  ['/*', '*/'],
  ["'", ''],
  ['--', ''],
  ['<!--', '-->'],
];
// In YAML detect-secrets knows only '#' comments (its allowlist filter picks the syntax by file name): elsewhere in
// a YAML line "// pragma: …" is part of a value.
const YAML_COMMENTS = PRAGMA_COMMENTS.filter(([open]) => open === '#');
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
  // A team's rule is no secretlint rule: only a secretlint comment naming no rule covers its findings.
  team: [],
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
    pragmaIn(line, false, yaml) ||
    secretlintOn(line, ['disable-line'], service)
  )
    return true;
  // A dotenv value cannot carry a trailing comment (docker --env-file and systemd keep it as part of the value).
  if (start === 0) return false;
  const previous = text.slice(text.lastIndexOf('\n', start - 2) + 1, start - 1);
  return (
    previous.includes(NEXT_LINE_MARKER) ||
    pragmaIn(previous, true, yaml) ||
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

interface Entry {
  from: number;
  to?: number;
  rule: string;
}

/** A region that hides every key: a keyward block, or a secretlint one naming no rule. */
const EVERY_KEY = '*';

/**
 * The disabled regions of a text: from a `keyward-disable` or
 * `secretlint-disable` comment to its `-enable` (or the end of the text), in
 * any comment syntax (`<!-- secretlint-disable -->` in Markdown too). Asked in
 * order of position, as the scanner does, each region is passed once: the
 * regions open at the last offset asked are counted by the rule they name.
 */
export class DisabledRegions {
  private readonly regions: Region[] = [];
  private byStart: Region[] = [];
  private byEnd: Region[] = [];
  private started = 0;
  private ended = 0;
  private last = -1;
  /** Regions open at `last`, by the rule they name (EVERY_KEY: all rules). */
  private readonly open = new Map<string, number>();

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
    if (text.includes('secretlint-disable'))
      for (const { from, to, rule } of secretlintEntries(text))
        this.regions.push({ from, to: to ?? text.length, rule });
  }

  get empty(): boolean {
    return this.regions.length === 0;
  }

  covers(offset: number, service: KeyOwner): boolean {
    if (offset < this.last || this.last === -1) this.restart();
    this.last = offset;
    for (; this.started < this.byStart.length && this.byStart[this.started]!.from < offset; this.started++)
      this.count(this.byStart[this.started]!, 1);
    for (; this.ended < this.byEnd.length && this.byEnd[this.ended]!.to <= offset; this.ended++)
      this.count(this.byEnd[this.ended]!, -1);
    if ((this.open.get(EVERY_KEY) ?? 0) > 0) return true;
    return SECRETLINT_RULES[service].some((id) => (this.open.get(id) ?? 0) > 0);
  }

  private count(region: Region, by: number): void {
    const rule = region.rule ?? EVERY_KEY;
    this.open.set(rule, (this.open.get(rule) ?? 0) + by);
  }

  private restart(): void {
    this.byStart = [...this.regions].sort((a, b) => a.from - b.from);
    this.byEnd = [...this.regions].sort((a, b) => a.to - b.to);
    this.started = 0;
    this.ended = 0;
    this.open.clear();
  }
}

/**
 * secretlint's CommentState: one open entry per rule a disable names ('*' for none); an enable naming rules closes
 * the latest open entry of each, a bare enable the entries of the latest disable with one open. Open entries are kept
 * by rule and by comment, and a closed one is dropped when next met, so each is passed a bounded number of times.
 */
function secretlintEntries(text: string): Entry[] {
  const entries: Entry[] = [];
  const byRule = new Map<string, Entry[]>();
  const byComment: Entry[][] = [];
  for (const match of text.matchAll(SECRETLINT)) {
    const rules = secretlintRules(match[2]!);
    if (match[1] === 'disable') {
      const comment = (rules.length === 0 ? [EVERY_KEY] : rules).map((rule) => ({ from: match.index, rule }));
      for (const entry of comment) {
        entries.push(entry);
        const stack = byRule.get(entry.rule) ?? [];
        stack.push(entry);
        byRule.set(entry.rule, stack);
      }
      byComment.push(comment);
    } else if (match[1] === 'enable' && rules.length > 0) {
      for (const rule of rules) {
        const stack = byRule.get(rule) ?? [];
        while (stack.length > 0 && stack[stack.length - 1]!.to !== undefined) stack.pop();
        const entry = stack.pop();
        if (entry) entry.to = match.index;
      }
    } else if (match[1] === 'enable') {
      while (byComment.length > 0 && byComment[byComment.length - 1]!.every((e) => e.to !== undefined)) byComment.pop();
      for (const entry of byComment.pop() ?? []) if (entry.to === undefined) entry.to = match.index;
    }
  }
  return entries;
}

/** Whether a text holds a block comment, so that a change to one line can change what others allow. */
export function hasBlockComment(text: string): boolean {
  return /keyward-(?:disable|enable)\b(?!-)|secretlint-(?:disable|enable)\b(?!-)/.test(text);
}

/** Characters in a key's line and the one before past which allow comments are looked up, not read. */
const LONG_LINES = 4096;

/**
 * Whether an allow comment hides each key of a text, asked in order of position: the line (with the one before) and
 * the disabled regions. A line's answer for an owner is read once: a long line with a key every few characters was
 * read whole for each of them.
 */
export class AllowedHits {
  private readonly regions: DisabledRegions;
  /** Where the text mentions an allow comment, found on the first key whose lines are long. */
  private markers: number[] | undefined;
  private readonly lines = new Map<string, boolean>();
  private readonly text: string;
  private readonly yaml: boolean | undefined;

  constructor(text: string, yaml: boolean | undefined) {
    this.text = text;
    this.yaml = yaml;
    this.regions = new DisabledRegions(text);
  }

  /** `from`: the start of the line before the key's (its own on the first line); [lineStart, lineEnd): its line. */
  allows(at: number, service: KeyOwner, from: number, lineStart: number, lineEnd: number): boolean {
    // Short lines are read as they are: searching a whole window cost more than reading them.
    if (lineEnd - from < LONG_LINES || markerWithin((this.markers ??= allowMarkers(this.text)), from, lineEnd)) {
      const key = `${lineStart}:${service}`;
      let allowed = this.lines.get(key);
      if (allowed === undefined) this.lines.set(key, (allowed = lineAllows(this.text, at, service, this.yaml)));
      if (allowed) return true;
    }
    return !this.regions.empty && this.regions.covers(at, service);
  }
}
