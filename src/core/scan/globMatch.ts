// The globs of .keywardignore, read the way .gitignore reads them, and matched without backtracking: as a regular
// expression, `*a*a*a*a*a*a*a*a*a*a*b` against a name of forty "a" tried every way to share the "a" among the stars
// (20 s for ten of them, doubling with each), so a hostile repository's ignore file and file names stalled a scan.
// The matcher follows every way at once, one step per character of the path: time is path length times pattern length.

/** One step of a glob: a character, `?`, a class, `*`, `**` before a '/' (any folders), a trailing `**`. */
type Token =
  | { kind: 'char'; char: string }
  | { kind: 'one' }
  | { kind: 'class'; source: string; test: RegExp }
  | { kind: 'star' }
  | { kind: 'folders' }
  | { kind: 'rest' };

interface Glob {
  tokens: Token[];
  /** A pattern with a '/' is anchored at the ignore file's folder; else it matches a name at any depth. */
  anchored: boolean;
  /** `dir/`: only a folder, so only what is below it. */
  folderOnly: boolean;
}

function parse(glob: string): Glob {
  let pattern = glob;
  const folderOnly = pattern.endsWith('/');
  if (folderOnly) pattern = pattern.slice(0, -1);
  const anchored = pattern.startsWith('/') || pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const atStart = i === 0 || pattern[i - 1] === '/';
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` is any number of folders, none included; a trailing `**` everything below.
          if (i + 2 === pattern.length) tokens.push({ kind: 'rest' });
          else {
            tokens.push({ kind: 'folders' });
            i += 1;
          }
          i += 1;
          continue;
        }
      }
      tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) throw new Error('an unclosed "[" in the pattern');
      let body = pattern.slice(i + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      const source = `[${body.replace(/\\/g, '\\\\')}]`;
      tokens.push({ kind: 'class', source, test: new RegExp(`^${source}$`) });
      i = close;
    } else tokens.push({ kind: 'char', char: c });
  }
  return { tokens, anchored, folderOnly };
}

function escape(text: string): string {
  return text.replace(/[.+^${}()|\\]/g, '\\$&');
}

const SOURCES: Record<Exclude<Token['kind'], 'char' | 'class'>, string> = {
  one: '[^/]',
  star: '[^/]*',
  folders: '(?:.*/)?',
  rest: '.*',
};

/**
 * A .gitignore-style glob as a RegExp over '/'-separated paths relative to the
 * ignore file's folder: `*` and `?` stay within a name, `**` spans folders,
 * `[...]` is a class; a pattern without '/' matches a name at any depth; a
 * leading '/' anchors it; a pattern that names a folder covers what is in it.
 * What globMatcher matches; kept as the statement of that meaning, not to match with.
 */
export function globToRegExp(glob: string): RegExp {
  const { tokens, anchored, folderOnly } = parse(glob);
  const out = tokens
    .map((t) => (t.kind === 'char' ? escape(t.char) : t.kind === 'class' ? t.source : SOURCES[t.kind]))
    .join('');
  const prefix = anchored ? '^' : '^(?:.*/)?';
  // A name covers what is below it when it is a folder; `dir/` only then.
  return new RegExp(`${prefix}${out}${folderOnly ? '/.*' : '(?:/.*)?'}$`);
}

export interface GlobMatcher {
  test(path: string): boolean;
}

/** What `.` in a regular expression does not match. */
const isBreak = (c: string) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';

/**
 * Matches as globToRegExp's expression does, in time linear in the path for each step of the pattern. States are
 * token indexes (the pattern's end is tokens.length), each `folders` token with a second state inside its `.*`.
 */
export function globMatcher(glob: string): GlobMatcher {
  const parsed = parse(glob);
  // Unanchored: any folders first, as `^(?:.*/)?` reads them.
  const tokens: Token[] = parsed.anchored ? parsed.tokens : [{ kind: 'folders' }, ...parsed.tokens];
  const end = tokens.length;
  return {
    test(path: string): boolean {
      // From each point: whether the rest of the path has no line break (`/.*` then reaches the end).
      const clean = new Uint8Array(path.length + 1);
      clean[path.length] = 1;
      for (let i = path.length - 1; i >= 0; i--) clean[i] = clean[i + 1]! && !isBreak(path[i]!) ? 1 : 0;
      const accepts = (at: number) =>
        (!parsed.folderOnly && at === path.length) || (path[at] === '/' && clean[at + 1] === 1);
      let states = closure([0], tokens);
      for (let at = 0; ; at++) {
        if (states.includes(end) && accepts(at)) return true;
        if (at === path.length || states.length === 0) return false;
        states = closure(step(states, tokens, path[at]!), tokens);
      }
    },
  };
}

/** A state inside a `folders` token's `.*` is its index plus this (past every real index). */
const INSIDE = 1 << 30;

/** The states one character leads to. */
function step(states: readonly number[], tokens: readonly Token[], c: string): number[] {
  const next: number[] = [];
  for (const state of states) {
    if (state >= INSIDE) {
      // Inside `(?:.*/)?`: any character but a break stays; a '/' also ends the folders.
      if (!isBreak(c)) next.push(state);
      if (c === '/') next.push(state - INSIDE + 1);
      continue;
    }
    const token = tokens[state];
    if (token === undefined) continue;
    switch (token.kind) {
      case 'char':
        if (c === token.char) next.push(state + 1);
        break;
      case 'one':
        if (c !== '/') next.push(state + 1);
        break;
      case 'class':
        if (token.test.test(c)) next.push(state + 1);
        break;
      case 'star':
        if (c !== '/') next.push(state);
        break;
      case 'folders':
        if (!isBreak(c)) next.push(state + INSIDE);
        if (c === '/') next.push(state + 1);
        break;
      case 'rest':
        if (!isBreak(c)) next.push(state);
        break;
    }
  }
  return next;
}

/** The states with those an empty step reaches (a star, and both kinds of double star, may match nothing), each once. */
function closure(states: readonly number[], tokens: readonly Token[]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  // An empty step only goes on to the next token: a loop, not a call per star (a line may hold a million).
  const add = (first: number) => {
    for (let state = first; !seen.has(state); state++) {
      seen.add(state);
      out.push(state);
      const kind = state < INSIDE ? tokens[state]?.kind : undefined;
      if (kind !== 'star' && kind !== 'folders' && kind !== 'rest') return;
    }
  };
  for (const state of states) add(state);
  return out;
}
