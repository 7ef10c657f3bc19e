// A team's own key shapes: `[[rules]]` in .keyward.toml at the repository's root (or a file given with --config), in
// gitleaks' format so a team's gitleaks.toml rules run unchanged. gitleaks reads these fields (config/config.go
// ViperConfig.Rules and viperRuleAllowlist; detect/detect.go detectRule and checkFindingAllowed): id, description,
// regex, secretGroup, keywords, entropy and allowlists (description, condition, regexTarget, regexes, stopwords).
// Field names are matched without regard to case, as gitleaks' viper does. Any other field is named as not supported:
// one that only describes (tags, title, minVersion) changes no finding; one that changes what is found (path,
// allowlist paths or commits, [extend], [[allowlists]], required, skipReport) makes the scan exit 2 unless a key
// counts. A bad rule is refused with its file and line, and stops the scan. Nothing a config names is ever run.
import { TomlError, parse } from 'smol-toml';
import { redactSecrets } from '../redact.ts';
import { RULES, type TeamRuleId } from './rules.ts';
import { TeamRegexError, jsSource, parseRe2 } from './teamRegex.ts';
import { checkLinear } from './teamRegexSafety.ts';
import type { TeamRuleProblem } from './teamRuleProblem.ts';

export { TEAM_RULES_FILE, type TeamRuleProblem, teamProblemText } from './teamRuleProblem.ts';

export interface TeamAllowlist {
  condition: 'or' | 'and';
  /** What `regexes` are tested against: the secret (gitleaks' default), the whole match, or the line. */
  regexTarget: 'secret' | 'match' | 'line';
  regexes: RegExp[];
  /** Lowercase; a secret containing one is allowed. */
  stopwords: string[];
}

export interface TeamRule {
  id: TeamRuleId;
  description: string;
  /** Global, with indices ('dg'): linear per teamRegexSafety.ts. */
  regex: RegExp;
  /** The capture group holding the secret; 0: the first non-empty group, else the whole match (as gitleaks). */
  secretGroup: number;
  /** Lowercase; a text holding none of them is not searched (none: always searched). */
  keywords: string[];
  /** A secret of this Shannon entropy or less is not reported (0: no check). */
  entropy: number;
  allowlists: TeamAllowlist[];
  line: number;
}

export interface TeamRules {
  file: string;
  rules: TeamRule[];
  problems: TeamRuleProblem[];
}

// "allowlist": gitleaks' older single [rules.allowlist], still read by gitleaks (config.go, "backwards-compatibility").
const RULE_FIELDS = ['id', 'description', 'regex', 'secretgroup', 'keywords', 'entropy', 'allowlists', 'allowlist'];
const ALLOWLIST_FIELDS = ['description', 'condition', 'regextarget', 'regexes', 'stopwords'];
/** Fields that describe and change no finding: named, and the scan goes on as if they were absent. */
const DESCRIPTIVE = new Set(['title', 'description', 'minversion', 'tags']);

/** Where each `[[rules]]` table starts, and each field line inside it, for messages that name a line. */
class Lines {
  private readonly lines: string[];
  private readonly starts: number[] = [];

  constructor(text: string) {
    this.lines = text.split(/\r?\n/);
    this.lines.forEach((line, i) => {
      if (/^\s*\[\[\s*rules\s*\]\]/.test(line)) this.starts.push(i);
    });
  }

  /** The 1-based line of rule `index`'s header (or of its field `key`, when found inside the rule). */
  of(index: number, key?: string, table?: RegExp): number {
    const start = this.starts[index];
    if (start === undefined) return this.top(key ?? 'rules');
    const end = this.starts[index + 1] ?? this.lines.length;
    let from = start;
    if (table) for (let i = start; i < end; i++) if (table.test(this.lines[i]!)) from = i;
    if (key === undefined) return from + 1;
    const field = new RegExp(`^\\s*["']?${key}["']?\\s*=`, 'i');
    for (let i = from; i < end; i++) if (field.test(this.lines[i]!)) return i + 1;
    return from + 1;
  }

  /** The 1-based line of a top-level key or table, else 1. */
  top(key: string): number {
    const re = new RegExp(`^\\s*(?:\\[+\\s*${key}\\b|["']?${key}["']?\\s*=)`, 'i');
    const at = this.lines.findIndex((line) => re.test(line));
    return at === -1 ? 1 : at + 1;
  }
}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);
const lowerKeys = (t: Table): Table => Object.fromEntries(Object.entries(t).map(([k, v]) => [k.toLowerCase(), v]));

/** Reads a config's text; never throws: what is wrong is in `problems`, each with its file and line. */
export function readTeamRules(text: string, file: string): TeamRules {
  const problems: TeamRuleProblem[] = [];
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : 1;
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    return { file, rules: [], problems: [{ file, line, severity: 'error', message: `not valid TOML: ${message}` }] };
  }
  const lines = new Lines(text);
  const note = (line: number, severity: TeamRuleProblem['severity'], message: string) =>
    problems.push({ file, line, severity, message });
  for (const [key, value] of Object.entries(doc)) {
    if (key.toLowerCase() === 'rules') continue;
    const lower = key.toLowerCase();
    note(
      lines.top(key),
      DESCRIPTIVE.has(lower) ? 'ignored' : 'unsupported',
      DESCRIPTIVE.has(lower)
        ? `"${key}" is not supported (it describes the config and changes no finding)`
        : `"${key}" is not supported: ${unsupportedTop(lower, value)}`,
    );
  }
  const raw = Object.entries(doc).find(([k]) => k.toLowerCase() === 'rules')?.[1];
  if (raw !== undefined && !Array.isArray(raw)) note(lines.top('rules'), 'error', '"rules" must be [[rules]] tables');
  const rules: TeamRule[] = [];
  const ids = new Map<string, number>();
  (Array.isArray(raw) ? raw : []).forEach((entry, index) => {
    const rule = readRule(entry, index, lines, note);
    if (!rule) return;
    const earlier = ids.get(rule.id);
    if (earlier !== undefined)
      note(rule.line, 'error', `rule "${rule.id}" is defined twice (first at line ${earlier})`);
    else {
      ids.set(rule.id, rule.line);
      rules.push(rule);
    }
  });
  return { file, rules, problems };
}

function unsupportedTop(key: string, value: unknown): string {
  if (key === 'extend') return "Keyward does not load other configs (gitleaks' [extend]); their rules do not run";
  if (key === 'allowlist' || key === 'allowlists')
    return "global allowlists are not applied; use .keywardignore or a rule's own [[rules.allowlists]]";
  return `Keyward reads only [[rules]] (a ${Array.isArray(value) ? 'list' : typeof value} here)`;
}

type Note = (line: number, severity: TeamRuleProblem['severity'], message: string) => void;

function readRule(entry: unknown, index: number, lines: Lines, note: Note): TeamRule | undefined {
  const header = lines.of(index);
  if (!isTable(entry)) {
    note(header, 'error', `rule ${index + 1} is not a table`);
    return undefined;
  }
  const t = lowerKeys(entry);
  const at = (key: string) => lines.of(index, key);
  const id = typeof t.id === 'string' ? t.id.trim() : '';
  const name = id === '' ? `rule ${index + 1}` : `rule "${id}"`;
  let ok = true;
  const bad = (key: string, message: string) => {
    note(at(key), 'error', `${name}: ${message}`);
    ok = false;
  };
  if (id === '') bad('id', 'has no id');
  else if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) bad('id', 'an id is letters, digits, ".", "_" and "-"');
  else if (Object.hasOwn(RULES, id)) bad('id', `"${id}" is one of Keyward's own rule ids; choose another`);
  for (const key of Object.keys(entry)) {
    const lower = key.toLowerCase();
    if (RULE_FIELDS.includes(lower)) continue;
    if (lower === 'tags') note(at(key), 'ignored', `${name}: "tags" is not supported (it changes no finding)`);
    else note(at(key), 'unsupported', `${name}: "${key}" is not supported; the rule runs without it`);
  }
  const description = field(t, 'description', 'string', '', bad) ?? '';
  const regex = typeof t.regex === 'string' ? compile(t.regex, (m) => bad('regex', m)) : undefined;
  if (t.regex === undefined) bad('regex', 'has no regex (a rule of path alone is not supported)');
  else if (typeof t.regex !== 'string') bad('regex', '"regex" must be a string');
  const secretGroup = field(t, 'secretgroup', 'number', 0, bad) ?? 0;
  if (!Number.isInteger(secretGroup) || secretGroup < 0) bad('secretGroup', '"secretGroup" must be a whole number');
  else if (regex && secretGroup > regex.groups)
    bad('secretGroup', `secretGroup ${secretGroup} names a group the regex does not have (it has ${regex.groups})`);
  const entropy = field(t, 'entropy', 'number', 0, bad) ?? 0;
  if (entropy < 0) bad('entropy', '"entropy" must be 0 or more');
  const keywords = stringList(t, 'keywords', bad).map((k) => k.toLowerCase());
  if (t.allowlist !== undefined && t.allowlists !== undefined)
    bad('allowlist', '[rules.allowlist] cannot be used alongside [[rules.allowlists]] (as in gitleaks)');
  const allowlists = readAllowlists(
    t.allowlist === undefined ? t.allowlists : isTable(t.allowlist) ? [t.allowlist] : t.allowlist,
    name,
    (key, sub) => lines.of(index, key, sub),
    note,
    bad,
  );
  if (!ok || !regex || !allowlists) return undefined;
  return {
    id: id as TeamRuleId,
    // A config is a file: what it says passes the redactor before any message shows it.
    description: redactSecrets(description || id),
    regex: regex.regex,
    secretGroup,
    keywords,
    entropy,
    allowlists,
    line: header,
  };
}

function field<T extends 'string' | 'number'>(
  t: Table,
  key: string,
  type: T,
  fallback: T extends 'string' ? string : number,
  bad: (key: string, message: string) => void,
): (T extends 'string' ? string : number) | undefined {
  const value = t[key];
  if (value === undefined) return fallback;
  if (typeof value === type) return value as T extends 'string' ? string : number;
  // smol-toml reads an integer as a number, and a large one as a bigint.
  if (type === 'number' && typeof value === 'bigint') return Number(value) as T extends 'string' ? string : number;
  bad(key, `"${key}" must be a ${type}`);
  return undefined;
}

function stringList(t: Table, key: string, bad: (key: string, message: string) => void): string[] {
  const value = t[key];
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  bad(key, `"${key}" must be a list of strings`);
  return [];
}

/** An RE2 pattern as a linear JavaScript RegExp, or the reason it is refused (with its character). */
export function compile(
  pattern: string,
  bad: (message: string) => void,
): { regex: RegExp; groups: number } | undefined {
  try {
    const { tree, groups } = parseRe2(pattern);
    checkLinear(tree);
    return { regex: new RegExp(jsSource(tree), 'dg'), groups };
  } catch (error) {
    if (!(error instanceof TeamRegexError) && !(error instanceof SyntaxError)) throw error;
    const at = error instanceof TeamRegexError ? ` at character ${error.at + 1}` : '';
    bad(`regex refused${at}: ${error.message}`);
    return undefined;
  }
}

function readAllowlists(
  value: unknown,
  name: string,
  lineOf: (key: string, table: RegExp) => number,
  note: Note,
  bad: (key: string, message: string) => void,
): TeamAllowlist[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isTable)) {
    bad('allowlists', '"allowlists" must be [[rules.allowlists]] tables');
    return undefined;
  }
  const out: TeamAllowlist[] = [];
  let ok = true;
  value.forEach((raw, i) => {
    const table = new RegExp(`^\\s*\\[\\[\\s*rules\\.allowlists\\s*\\]\\]`);
    // The i-th allowlist header of the rule: lineOf finds the last, so count them by hand.
    const at = (key: string) => lineOf(key, nth(table, i));
    const where = `${name}, allowlist ${i + 1}`;
    const fail = (key: string, message: string) => {
      note(at(key), 'error', `${where}: ${message}`);
      ok = false;
    };
    const t = lowerKeys(raw);
    for (const key of Object.keys(raw))
      if (!ALLOWLIST_FIELDS.includes(key.toLowerCase()))
        note(at(key), 'unsupported', `${where}: "${key}" is not supported; this allowlist allows nothing by it`);
    const condition = String(t.condition ?? 'or').toLowerCase();
    if (!['or', 'and', '||', '&&'].includes(condition)) fail('condition', `condition must be "or" or "and"`);
    const target = String(t.regextarget ?? 'secret').toLowerCase();
    if (!['secret', 'match', 'line'].includes(target)) fail('regexTarget', 'regexTarget must be "match" or "line"');
    const regexes = stringList(t, 'regexes', fail).flatMap((p) => compile(p, (m) => fail('regexes', m))?.regex ?? []);
    const stopwords = stringList(t, 'stopwords', fail).map((w) => w.toLowerCase());
    out.push({
      condition: condition === 'and' || condition === '&&' ? 'and' : 'or',
      regexTarget: target as TeamAllowlist['regexTarget'],
      regexes: regexes.map((r) => new RegExp(r.source, '')),
      stopwords,
    });
  });
  return ok ? out : undefined;
}

/** A test true on only the n-th line `table` matches, for lineOf's "last header" search. */
function nth(table: RegExp, n: number): RegExp {
  let seen = -1;
  return { test: (line: string) => table.test(line) && ++seen === n } as RegExp;
}

/** Whether any rule or field was refused: the scan does not start. */
export function hasErrors(rules: TeamRules | undefined): boolean {
  return rules?.problems.some((p) => p.severity === 'error') ?? false;
}
