// The text of the quick fixes, as pure functions: which environment variable,
// how each language reads it, where a string literal starts and ends, how a
// comment is written, and how .env and .gitignore are amended.
import type { KeyOwner, ProviderId } from '../../shared/keyShapes.ts';
import { perService } from '../../shared/serviceIds.ts';
import { PROVIDERS } from './providerRules.ts';
import { SERVICES } from '../services/descriptors.ts';
import { NEXT_LINE_MARKER } from './scanner.ts';

/** Findings whose text is not the key itself (pieces, base64): no fix moves them. */
export const INDIRECT_RULES: ReadonlySet<string> = new Set(['split-key', 'encoded-key']);

/** The variable each owner's key is read from: a service's from its row, and each provider's SDK default. */
export const ENV_VAR: Record<KeyOwner, string> = {
  ...perService((id) => SERVICES[id].env.key),
  ...(Object.fromEntries(Object.entries(PROVIDERS).map(([id, p]) => [id, p.env])) as Record<ProviderId, string>),
  // A team rule names no variable: a neutral one the person renames.
  team: 'TEAM_SECRET',
};

const READS: Record<string, (name: string) => string> = {
  typescript: (n) => `process.env.${n}`,
  typescriptreact: (n) => `process.env.${n}`,
  javascript: (n) => `process.env.${n}`,
  javascriptreact: (n) => `process.env.${n}`,
  python: (n) => `os.environ["${n}"]`,
  go: (n) => `os.Getenv("${n}")`,
  java: (n) => `System.getenv("${n}")`,
  csharp: (n) => `Environment.GetEnvironmentVariable("${n}")`,
  rust: (n) => `std::env::var("${n}").expect("${n} is not set")`,
  ruby: (n) => `ENV.fetch("${n}")`,
  php: (n) => `getenv('${n}')`,
};

/** Languages where "${NAME}" inside the text itself reads the variable. */
const INTERPOLATING = new Set(['shellscript', 'dockerfile', 'makefile', 'dockercompose']);

export interface Replacement {
  /** 0-based UTF-16 columns on the finding's line, end exclusive. */
  start: number;
  end: number;
  text: string;
}

/** How to replace the key on its line with a read of the environment variable, if the language allows it cleanly. */
export function envReplacement(
  languageId: string,
  line: string,
  column: number,
  endColumn: number,
  name: string,
): Replacement | undefined {
  const read = READS[languageId];
  if (read) {
    const quote = line[column - 1];
    if ((quote === '"' || quote === "'" || quote === '`') && line[endColumn] === quote) {
      const prefix = languageId === 'csharp' && line[column - 2] === '@' ? 1 : 0;
      return { start: column - 1 - prefix, end: endColumn + 1, text: read(name) };
    }
    return undefined;
  }
  if (INTERPOLATING.has(languageId)) return { start: column, end: endColumn, text: `\${${name}}` };
  return undefined;
}

/** The language's line comment, if it has one (JSON has none). */
export function lineComment(languageId: string): { open: string; close: string } | undefined {
  if (
    [
      'python',
      'shellscript',
      'yaml',
      'toml',
      'dockerfile',
      'makefile',
      'ruby',
      'perl',
      'r',
      'properties',
      'dotenv',
      'ini',
      'powershell',
      'dockercompose',
      'plaintext-env',
      'coffeescript',
      'julia',
      'elixir',
      'graphql',
      'terraform',
      'nix',
      'cmake',
    ].includes(languageId)
  )
    return { open: '# ', close: '' };
  if (['markdown', 'html', 'xml', 'svg'].includes(languageId)) return { open: '<!-- ', close: ' -->' };
  if (['sql', 'lua', 'haskell'].includes(languageId)) return { open: '-- ', close: '' };
  // "//" starts no comment in CSS: appended there it would swallow the next declaration.
  if (languageId === 'css') return { open: '/* ', close: ' */' };
  if (['latex', 'tex', 'bibtex', 'matlab', 'erlang'].includes(languageId)) return { open: '% ', close: '' };
  if (['clojure', 'scheme', 'lisp'].includes(languageId)) return { open: '; ', close: '' };
  if (languageId === 'vb') return { open: "' ", close: '' };
  // A batch file has no trailing comment (REM is a command of its own), like JSON none at all.
  if (['json', 'plaintext', 'bat'].includes(languageId)) return undefined;
  return { open: '// ', close: '' };
}

export function ignoreComment(languageId: string): string | undefined {
  const comment = lineComment(languageId);
  return comment ? ` ${comment.open}keyward-ignore${comment.close}` : undefined;
}

/**
 * Whether the first line of a key that spans lines ends inside its value (a line-ending backslash, a key's characters
 * hard-wrapped): a comment appended there would become part of the value or end the continuation (issue 35).
 */
export function continuesInValue(firstLine: string): boolean {
  return /[A-Za-z0-9_\-\\]$/.test(firstLine.trimEnd());
}

/**
 * The marker line to put above a key in a dotenv file, with the key line's
 * indentation: docker --env-file and systemd keep a trailing comment as part of the value.
 */
export function ignoreNextLine(line: string): string {
  return `${/^\s*/.exec(line)![0]}# ${NEXT_LINE_MARKER}\n`;
}

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/;

/** The variables a .env text sets, with their values unquoted (the last assignment wins, as dotenv loaders do). */
export function dotenvAssignments(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = ASSIGNMENT.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    values.set(match[1]!, value);
  }
  return values;
}

export type DotenvPlan =
  /** The key is already there under this name: nothing to write. */
  | { action: 'reuse'; name: string }
  | { action: 'add'; name: string }
  /** The name holds another value: never overwritten; `alternative` is the first free name. */
  | { action: 'conflict'; name: string; existing: string; alternative: string };

/** What moving `value` into a .env that holds `existing` takes, without ever replacing a value. */
export function planDotenv(existing: string, name: string, value: string): DotenvPlan {
  const values = dotenvAssignments(existing);
  for (const [candidate, held] of values) if (held === value) return { action: 'reuse', name: candidate };
  const current = values.get(name);
  return current === undefined
    ? { action: 'add', name }
    : { action: 'conflict', name, existing: current, alternative: freeName(values, name) };
}

function freeName(values: Map<string, string>, name: string): string {
  let n = 2;
  while (values.has(`${name}_${n}`)) n++;
  return `${name}_${n}`;
}

/** Appends NAME=value to a .env text; an existing line is never changed. */
export function appendDotenv(existing: string, name: string, value: string): string {
  const separator = existing.length === 0 || existing.endsWith('\n') ? '' : '\n';
  return `${existing}${separator}${name}=${value}\n`;
}

/** Adds an entry to a .gitignore text unless a line already names it. */
export function appendGitignore(existing: string, entry: string): string {
  const lines = existing.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(entry) || lines.includes(`/${entry}`)) return existing;
  const separator = existing.length === 0 || existing.endsWith('\n') ? '' : '\n';
  return `${existing}${separator}${entry}\n`;
}

/** `.env`, `.env.local`, `production.env`: files dotenv loaders, docker --env-file and systemd read. */
export function isDotenvFile(fileName: string): boolean {
  return /(^|[\\/])(\.env(\.[\w.-]+)?|[^\\/]+\.env)$/.test(fileName);
}
