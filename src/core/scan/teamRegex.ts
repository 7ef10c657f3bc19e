// A team rule's regular expression, written in Go's RE2 syntax (gitleaks compiles its rules with Go's regexp), read
// into a small tree and written back as a JavaScript RegExp that matches the same text. JavaScript's engine
// backtracks, so the tree is first checked for the shapes that make a backtracking engine slow: a pattern that could
// be refused is refused, naming the construct (teamRegexSafety.ts), and an open-ended repeat matches at most
// OPEN_REPEAT characters, so every start costs a bounded amount of work and a whole scan stays linear in the text.
// Everything is written out explicitly (\s, \w, ASCII case folding), never left to JavaScript's own reading.

/** Inclusive UTF-16 code-unit ranges, sorted and disjoint. */
export type CharSet = readonly (readonly [number, number])[];

export type RegexNode =
  | { kind: 'set'; set: CharSet }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; items: RegexNode[] }
  | { kind: 'repeat'; min: number; max: number; lazy: boolean; item: RegexNode; at: number }
  | { kind: 'group'; capture: boolean; item: RegexNode }
  | { kind: 'assert'; source: string };

/** A regex RE2 would refuse, or one Keyward cannot run as RE2 would: `at` is the 0-based character of the pattern. */
export class TeamRegexError extends Error {
  readonly at: number;

  constructor(message: string, at: number) {
    super(message);
    this.at = at;
  }
}

/** How many more than its minimum an open-ended repeat (`*`, `+`, `{n,}`) matches: the longest token a key can be. */
export const OPEN_REPEAT = 256;
/** RE2's own limit on a repeat count. */
const MAX_COUNT = 1000;
const MAX_UNIT = 0xffff;

const range = (lo: number, hi = lo): [number, number] => [lo, hi];
const code = (c: string) => c.charCodeAt(0);

export function normalize(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function negate(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_UNIT) out.push([next, MAX_UNIT]);
  return out;
}

/** ASCII case folding, as far as it goes: RE2 folds more of Unicode, which a team's key shapes do not use. */
function folded(set: CharSet): CharSet {
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    for (const [from, to, shift] of [
      [65, 90, 32],
      [97, 122, -32],
    ] as const) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) extra.push([a + shift, b + shift]);
    }
  }
  return normalize([...set, ...extra]);
}

const DIGIT: CharSet = [range(48, 57)];
const WORD: CharSet = normalize([range(48, 57), range(65, 90), range(95), range(97, 122)]);
// RE2's \s is ASCII white space without \v.
const SPACE: CharSet = normalize([range(9, 10), range(12, 13), range(32)]);
const PERL: Record<string, CharSet> = { d: DIGIT, w: WORD, s: SPACE };

const POSIX: Record<string, CharSet> = {
  alnum: normalize([range(48, 57), range(65, 90), range(97, 122)]),
  alpha: normalize([range(65, 90), range(97, 122)]),
  ascii: [range(0, 127)],
  blank: normalize([range(9), range(32)]),
  cntrl: normalize([range(0, 31), range(127)]),
  digit: DIGIT,
  graph: [range(33, 126)],
  lower: [range(97, 122)],
  print: [range(32, 126)],
  punct: normalize([range(33, 47), range(58, 64), range(91, 96), range(123, 126)]),
  space: normalize([range(9, 13), range(32)]),
  upper: [range(65, 90)],
  word: WORD,
  xdigit: normalize([range(48, 57), range(65, 70), range(97, 102)]),
};

const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, a: 7 };

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

/** Reads an RE2 pattern into a tree; refuses, by name and place, what RE2 refuses or Keyward cannot run so. */
export function parseRe2(pattern: string): { tree: RegexNode; groups: number } {
  const reader = new Re2Reader(pattern);
  const tree = reader.alternation({ i: false, m: false, s: false, U: false });
  if (reader.pos < pattern.length) throw new TeamRegexError('unexpected ")"', reader.pos);
  return { tree, groups: reader.groups };
}

class Re2Reader {
  pos = 0;
  groups = 0;

  private readonly src: string;

  constructor(src: string) {
    this.src = src;
  }

  private fail(message: string, at = this.pos): never {
    throw new TeamRegexError(message, at);
  }

  /** Alternatives up to the closing ")" or the end; `(?i)` inside changes the flags to the group's end. */
  alternation(flags: Flags): RegexNode {
    const branches: RegexNode[] = [this.sequence(flags)];
    while (this.src[this.pos] === '|') {
      this.pos++;
      branches.push(this.sequence(flags));
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alt', items: branches };
  }

  private sequence(flags: Flags): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      const at = this.pos;
      const atom = this.atom(flags);
      if (atom === undefined) continue;
      items.push(this.repeated(atom, flags, at));
    }
    return items.length === 1 ? items[0]! : { kind: 'seq', items };
  }

  /** `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each with a lazy `?`, after an atom. */
  private repeated(atom: RegexNode, flags: Flags, at: number): RegexNode {
    let node = atom;
    for (;;) {
      const start = this.pos;
      const count = this.count();
      if (count === undefined) return node;
      if (node !== atom) this.fail(`bad repetition operator: ${this.src.slice(start, this.pos)}`, start);
      if (atom.kind === 'assert') this.fail('missing argument to repetition operator', start);
      let lazy = this.src[this.pos] === '?';
      if (lazy) this.pos++;
      if (flags.U) lazy = !lazy;
      node = { kind: 'repeat', min: count[0], max: count[1], lazy, item: atom, at };
    }
  }

  private count(): [number, number] | undefined {
    const c = this.src[this.pos];
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      return c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    }
    if (c !== '{') return undefined;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
    // RE2 reads a "{" that starts no count as itself.
    if (!m) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (min > MAX_COUNT || (max !== Infinity && (max > MAX_COUNT || max < min)))
      this.fail(`invalid repeat count: ${m[0]}`);
    this.pos += m[0].length;
    return [min, max];
  }

  private atom(flags: Flags): RegexNode | undefined {
    const at = this.pos;
    const c = this.src[this.pos++]!;
    switch (c) {
      case '(':
        return this.group(flags, at);
      case '[':
        return this.set(this.bracket(flags), flags);
      case '.':
        return { kind: 'set', set: flags.s ? [range(0, MAX_UNIT)] : negate([range(10)]) };
      case '^':
        return { kind: 'assert', source: flags.m ? '(?<![^\\n])' : '^' };
      case '$':
        return { kind: 'assert', source: flags.m ? '(?![^\\n])' : '$' };
      case '\\':
        return this.escape(flags);
      case '*':
      case '+':
      case '?':
        return this.fail('missing argument to repetition operator', at);
      default:
        return this.literal(c, flags);
    }
  }

  private literal(c: string, flags: Flags): RegexNode {
    const unit = code(c);
    // A character outside the BMP is two UTF-16 units in the text: matched as the pair.
    if (unit >= 0xd800 && unit <= 0xdbff && this.pos < this.src.length) {
      const low = code(this.src[this.pos++]!);
      return { kind: 'seq', items: [this.set([range(unit)], flags), this.set([range(low)], flags)] };
    }
    return this.set([range(unit)], flags);
  }

  private set(set: CharSet, flags: Flags): RegexNode {
    return { kind: 'set', set: flags.i ? folded(set) : set };
  }

  private group(flags: Flags, at: number): RegexNode | undefined {
    let capture = true;
    let inner = flags;
    if (this.src.startsWith('?', this.pos)) {
      const rest = this.src.slice(this.pos);
      const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      if (named) this.pos += named[0].length;
      else if (/^\?[=!]|^\?<[=!]/.test(rest)) this.fail('a lookaround ((?=, (?!, (?<=, (?<!) is not RE2 syntax', at);
      else {
        const mods = /^\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
        if (!mods || (mods[1] === '' && mods[2] === '')) this.fail('invalid or unsupported group syntax "(?"', at);
        this.pos += mods[0].length;
        const changed = { ...flags };
        for (const f of mods[1]!) changed[f as keyof Flags] = true;
        for (const f of mods[2] ?? '') changed[f as keyof Flags] = false;
        // "(?i)" changes the flags of the rest of the enclosing group.
        if (mods[3] === ')') {
          Object.assign(flags, changed);
          return undefined;
        }
        inner = changed;
        capture = false;
      }
    }
    if (capture) this.groups++;
    const item = this.alternation({ ...inner });
    if (this.src[this.pos] !== ')') this.fail('missing closing )', at);
    this.pos++;
    return { kind: 'group', capture, item };
  }

  private escape(flags: Flags): RegexNode {
    const at = this.pos - 1;
    const c = this.src[this.pos++];
    if (c === undefined) this.fail('trailing backslash at end of expression', at);
    if (c === 'b' || c === 'B') return { kind: 'assert', source: `\\${c}` };
    if (c === 'A') return { kind: 'assert', source: '^' };
    if (c === 'z') return { kind: 'assert', source: '$' };
    if (c === 'Q') {
      const end = this.src.indexOf('\\E', this.pos);
      const text = this.src.slice(this.pos, end === -1 ? undefined : end);
      this.pos = end === -1 ? this.src.length : end + 2;
      return { kind: 'seq', items: [...text].map((ch) => this.literal(ch, flags)) };
    }
    return this.set(this.classEscape(c, at), flags);
  }

  /** An escape that stands for characters, in a bracket or outside one. */
  private classEscape(c: string, at: number): CharSet {
    const lower = c.toLowerCase();
    if (lower in PERL) return c === lower ? PERL[lower]! : negate(PERL[lower]!);
    if (c in CONTROL) return [range(CONTROL[c]!)];
    if (c === 'x') return [range(this.hex(at))];
    if (c === 'p' || c === 'P') this.fail(`the Unicode class \\${c} is not supported (ASCII classes only)`, at);
    if (c >= '0' && c <= '9') this.fail(`\\${c}: a backreference or octal escape is not supported (RE2 has none)`, at);
    if (/[A-Za-z]/.test(c)) this.fail(`invalid escape sequence: \\${c}`, at);
    return [range(code(c))];
  }

  private hex(at: number): number {
    const m = /^\{([0-9A-Fa-f]{1,6})\}|^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.pos));
    if (!m) this.fail('invalid escape sequence: \\x', at);
    this.pos += m[0].length;
    const value = parseInt(m[1] ?? m[0], 16);
    if (value > MAX_UNIT) this.fail('a character outside the BMP in \\x{…} is not supported', at);
    return value;
  }

  /** A bracket expression after its "[": the set it stands for (case folding is the caller's). */
  private bracket(flags: Flags): CharSet {
    const at = this.pos - 1;
    const negated = this.src[this.pos] === '^';
    if (negated) this.pos++;
    const parts: (readonly [number, number])[] = [];
    let first = true;
    for (;;) {
      if (this.pos >= this.src.length) this.fail('missing closing ]', at);
      const c = this.src[this.pos]!;
      if (c === ']' && !first) break;
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.pos));
      if (posix) {
        const set = POSIX[posix[2]!];
        if (!set) this.fail(`invalid character class range: ${posix[0]}`);
        parts.push(...(posix[1] ? negate(set) : set));
        this.pos += posix[0].length;
        continue;
      }
      const lo = this.bracketChar();
      if (typeof lo !== 'number') {
        parts.push(...lo);
        continue;
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        this.pos++;
        const hi = this.bracketChar();
        if (typeof hi !== 'number' || hi < lo) this.fail('invalid character class range', at);
        parts.push(range(lo, hi));
      } else parts.push(range(lo));
    }
    this.pos++;
    const set = flags.i ? folded(normalize(parts)) : normalize(parts);
    return negated ? negate(set) : set;
  }

  /** One character of a bracket, or the set an escape like \d stands for. */
  private bracketChar(): number | CharSet {
    const c = this.src[this.pos++]!;
    if (c !== '\\') {
      const unit = code(c);
      if (unit >= 0xd800 && unit <= 0xdfff) this.fail('a character outside the BMP in a [class] is not supported');
      return unit;
    }
    const set = this.classEscape(this.src[this.pos++] ?? '', this.pos - 2);
    return set.length === 1 && set[0]![0] === set[0]![1] ? set[0]![0] : set;
  }
}

function unit(n: number): string {
  return `\\u${n.toString(16).padStart(4, '0')}`;
}

function setSource(set: CharSet): string {
  if (set.length === 1 && set[0]![0] === set[0]![1]) return unit(set[0]![0]);
  if (set.length === 0) return '[^\\u0000-\\uffff]';
  return `[${set.map(([lo, hi]) => (lo === hi ? unit(lo) : `${unit(lo)}-${unit(hi)}`)).join('')}]`;
}

/** The tree as JavaScript RegExp source: groups keep RE2's numbering, open repeats stop at OPEN_REPEAT. */
export function jsSource(node: RegexNode): string {
  switch (node.kind) {
    case 'set':
      return setSource(node.set);
    case 'assert':
      return node.source;
    case 'seq':
      return node.items.map((item) => (item.kind === 'alt' ? `(?:${jsSource(item)})` : jsSource(item))).join('');
    case 'alt':
      return node.items.map(jsSource).join('|');
    case 'group':
      return `(${node.capture ? '' : '?:'}${jsSource(node.item)})`;
    case 'repeat': {
      const inner = jsSource(node.item);
      const atom = node.item.kind === 'set' || node.item.kind === 'group' ? inner : `(?:${inner})`;
      const max = node.max === Infinity ? node.min + OPEN_REPEAT : node.max;
      return `${atom}{${node.min},${max}}${node.lazy ? '?' : ''}`;
    }
  }
}
