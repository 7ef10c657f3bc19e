// `.keywardignore`: what a team decided not to be told about again, each line with its reason.
// A line is a key's fingerprint (the same key anywhere in the tree) or a path glob read the way
// .gitignore reads one; a finding it covers is still reported, as suppressed, with the file and
// line that suppressed it. gitleaks' .gitleaksignore lists fingerprints the same way (one a line,
// '#' comments; gitleaks/gitleaks detect/ignore.go), but without a reason; here a line without
// its reason is refused, named by file and line, and suppresses nothing.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { redactSecrets } from '../redact.ts';
import { readCommittedFile } from './committedFile.ts';
import { type GlobMatcher, globMatcher } from './globMatch.ts';
import { breadthProblem } from './ignoreBreadth.ts';

export { globToRegExp } from './globMatch.ts';

export const IGNORE_FILE = '.keywardignore';

/** An ignore file larger than this is refused unread: a list a team reviews by hand is far smaller. */
export const IGNORE_FILE_MAX_BYTES = 1 << 20;

export interface Suppression {
  /** The ignore file, as shown (`.keywardignore`). */
  file: string;
  /** 1-based line of the entry that matched. */
  line: number;
  kind: 'fingerprint' | 'path';
  reason: string;
}

export interface IgnoreProblem {
  file: string;
  line: number;
  message: string;
}

interface Entry {
  line: number;
  kind: 'fingerprint' | 'path';
  reason: string;
  fingerprint?: string;
  pattern?: GlobMatcher;
}

export interface IgnoreRules {
  file: string;
  entries: readonly Entry[];
  /** Lines that were refused: each is named, and none suppresses anything. */
  problems: readonly IgnoreProblem[];
}

const FINGERPRINT = /^([0-9a-fA-F]{16})(?:\s+(.*))?$/;
const SPACE = /\s/;
/** What `.` in a regular expression does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * A path, then its reason after whitespace and '#' (`test/fixtures/  # generated, revoked keys`), as
 * `^(.*?)\s+#\s*(.*)$` reads it, by hand: that expression tried its `\s+` from every point of a run of spaces, and a
 * line of a megabyte of them took minutes. The first '#' after whitespace whose reason has no line break wins.
 */
function pathLine(line: string): [glob: string, reason: string] | undefined {
  let firstBreak = line.length;
  let lastBreak = -1;
  for (let i = 0; i < line.length; i++)
    if (LINE_BREAK.test(line[i]!)) {
      firstBreak = Math.min(firstBreak, i);
      lastBreak = i;
    }
  for (let hash = line.indexOf('#', 1); hash !== -1; hash = line.indexOf('#', hash + 1)) {
    if (!SPACE.test(line[hash - 1]!)) continue;
    let globEnd = hash - 1;
    while (globEnd > 0 && SPACE.test(line[globEnd - 1]!)) globEnd--;
    // Every later '#' has this glob's start too: a line break in it settles the line.
    if (firstBreak < globEnd) return undefined;
    let reason = hash + 1;
    while (reason < line.length && SPACE.test(line[reason]!)) reason++;
    if (lastBreak < reason) return [line.slice(0, globEnd), line.slice(reason)];
  }
  return undefined;
}
/**
 * Spellings refused before they are read: each covers every file, or (`.`, `/`) names no file the way its writer
 * meant the whole tree. Any other spelling is judged by what it matches (ignoreBreadth.ts).
 */
const EVERYTHING = new Set(['*', '**', '**/*', '/', '/*', '/**', '.', './', '*/', '**/']);

/** The block of '#' lines directly above an entry, as one reason ('' when a blank line or an entry is above). */
function commentAbove(lines: readonly string[], index: number): string {
  const block: string[] = [];
  for (let i = index - 1; i >= 0; i--) {
    const above = lines[i]!.trim();
    if (!above.startsWith('#')) break;
    block.unshift(above.replace(/^#+\s*/, ''));
  }
  return block.filter((text) => text !== '').join(' ');
}

/**
 * One entry of the ignore file, its reason after it or else (`above`) the comment block on the lines directly above:
 * the entry or the problem that refuses it. `above` completes only an entry with nothing after it (a lone
 * fingerprint, a path without a space), so a line whose words were meant as a reason is never read as a path.
 */
function parseEntry(trimmed: string, line: number, above: string): Entry | string {
  const fp = FINGERPRINT.exec(trimmed);
  if (fp) {
    const reason = (fp[2] ?? '').replace(/^#\s*/, '').trim() || above;
    if (reason === '')
      return 'a fingerprint needs its reason after it (fingerprint  reason), or in a # comment on the line above';
    return { line, kind: 'fingerprint', reason: redactSecrets(reason), fingerprint: fp[1]!.toLowerCase() };
  }
  const parts = pathLine(trimmed) ?? (above !== '' && !SPACE.test(trimmed) ? [trimmed, above] : undefined);
  const glob = parts?.[0].trim() ?? '';
  const reason = parts?.[1].trim() ?? '';
  if (!parts || glob === '' || reason === '')
    return 'neither a fingerprint (16 hex characters, then the reason) nor a path with its reason (path  # reason), and no # comment on the line above gives one';
  if (glob.startsWith('!')) return '"!" (un-ignoring) is not supported: list only what to suppress';
  if (EVERYTHING.has(glob)) return `"${glob}" would suppress every file: name the files or folders`;
  // Paths are read from the ignore file's folder and never start "./": such a line would silently match nothing.
  if (glob.startsWith('./'))
    return `"./" matches nothing here (paths start at the ignore file's folder): write "/${glob.slice(2)}"`;
  let pattern: GlobMatcher;
  try {
    pattern = globMatcher(glob);
  } catch (error) {
    return (error as Error).message;
  }
  return breadthProblem(glob, pattern) ?? { line, kind: 'path', reason: redactSecrets(reason), pattern };
}

/** Parses the text of an ignore file; never throws: a bad line becomes a problem. */
export function parseIgnoreFile(text: string, file = IGNORE_FILE): IgnoreRules {
  const entries: Entry[] = [];
  const problems: IgnoreProblem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const parsed = parseEntry(trimmed, index + 1, commentAbove(lines, index));
    // The file's text reaches reports, logs and annotations: a key pasted into it is masked there.
    if (typeof parsed === 'string') problems.push({ file, line: index + 1, message: redactSecrets(parsed) });
    else entries.push(parsed);
  });
  return { file, entries, problems };
}

/** The entry that suppresses a finding at `path` (relative to the ignore file's folder, '/'-separated), if any. */
export function suppressionFor(rules: IgnoreRules, path: string, fingerprint: string): Suppression | undefined {
  // A finding inside an archive (`dist/a.vsix!extension/x.js`) is covered by a pattern for the archive too.
  const bang = path.indexOf('!');
  const outer = bang === -1 ? path : path.slice(0, bang);
  for (const entry of rules.entries) {
    const hit =
      entry.kind === 'fingerprint'
        ? entry.fingerprint === fingerprint
        : entry.pattern!.test(path) || (bang !== -1 && entry.pattern!.test(outer));
    if (hit) return { file: rules.file, line: entry.line, kind: entry.kind, reason: entry.reason };
  }
  return undefined;
}

/**
 * Reads `<folder>/.keywardignore`: undefined when there is none; a file that
 * exists but cannot be read is a problem, never "nothing to ignore" in silence.
 */
export function loadIgnoreFile(folder: string, shown = IGNORE_FILE): IgnoreRules | undefined {
  const refused = (message: string): IgnoreRules => ({
    file: shown,
    entries: [],
    problems: [{ file: shown, line: 0, message }],
  });
  // No link followed, a regular file only, and a bounded one (core/scan/committedFile.ts).
  const read = readCommittedFile(join(folder, IGNORE_FILE), IGNORE_FILE_MAX_BYTES);
  if ('missing' in read) return undefined;
  if ('problem' in read) return refused(read.link ? `${read.problem}, nothing in it applies` : read.problem);
  return parseIgnoreFile(read.text, shown);
}

/** `file:line: message`, or `file: message` for the file as a whole. */
export function problemText(p: IgnoreProblem): string {
  return `${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message}`;
}

/** With no git to ask (--no-git, the editor), the repository root: the nearest folder holding `.git`. */
export function repositoryAbove(folder: string, stop?: string): string | null {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (at === stop || dirname(at) === at) return null;
  }
}

/**
 * The editor's ignore files, one per root: the repository holding a file, else
 * the workspace folder holding it. Read once, until `clear()` (the file changed).
 */
export class IgnoreFileCache {
  private readonly rules = new Map<string, IgnoreRules | undefined>();
  private readonly roots = new Map<string, string | undefined>();
  /** Called the first time a root's ignore file is read, with what it holds. */
  onLoad: (root: string, rules: IgnoreRules | undefined) => void = () => undefined;

  lookup(path: string, folders: readonly string[]): { rules: IgnoreRules; rel: string } | undefined {
    const folder = dirname(path);
    if (!this.roots.has(folder)) {
      const inside = folders
        .filter((f) => folder === f || folder.startsWith(f.endsWith(sep) ? f : f + sep))
        .sort((a, b) => b.length - a.length)[0];
      this.roots.set(folder, repositoryAbove(folder, inside) ?? inside);
    }
    const root = this.roots.get(folder);
    if (root === undefined) return undefined;
    if (!this.rules.has(root)) {
      const loaded = loadIgnoreFile(root);
      this.rules.set(root, loaded);
      this.onLoad(root, loaded);
    }
    const rules = this.rules.get(root);
    return rules && { rules, rel: relative(root, path).split(sep).join('/') };
  }

  clear(): void {
    this.rules.clear();
    this.roots.clear();
  }
}
