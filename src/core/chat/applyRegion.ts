// Where an answer's code block belongs in a file, for Apply: the file it names
// (in the fence's info string or a first-line comment) and the region of the
// file it rewrites (the function, class or declaration of the same name), as
// Copilot's "Apply in Editor" merges a block into its place instead of dropping
// it at the caret. Pure text functions: tested without an editor.
import { type Eol, type Proposal, fitInsertion, proposeChange } from './codeProposal.ts';

/**
 * A path the block names for itself: `ts src/app.ts`, `ts:src/app.ts`, `ts title="src/app.ts"`, `path=src/app.ts`,
 * or a first-line comment (`// src/app.ts`, `# path: tools/run.py`). Returned as written: the host decides whether
 * it is inside the workspace (`../x.ts` and `/etc/x.conf` are returned so that they can be refused by name).
 */
export function namedPath(info: string, code: string): string | undefined {
  const fromInfo =
    /(?:^|[\s:])(?:(?:path|file|filename|title)=)?["']?([\w.@/\\-]*[\w-]\.[A-Za-z0-9]{1,8})["']?\s*$/.exec(
      info.trim(),
    )?.[1];
  if (fromInfo && /[/\\.]/.test(fromInfo) && !/^\d/.test(fromInfo)) return fromInfo;
  const first = code.split(/\r?\n/, 1)[0]?.trim() ?? '';
  const comment =
    /^(?:\/\/|#|--|;|\/\*|<!--)\s*(?:(?:file(?:name)?|path):\s*)?([\w.@/\\-]*[\w-]\.[A-Za-z0-9]{1,8})\s*(?:\*\/|-->)?$/.exec(
      first,
    )?.[1];
  return comment;
}

/** The names the block declares at its top level: functions, classes, methods, constants, Python defs. */
export function declaredNames(code: string): string[] {
  const names: string[] = [];
  const pattern =
    /^[ \t]*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|def|interface|type|enum|(?:const|let|var)|fn|func|struct)\s+([A-Za-z_$][\w$]*)/gm;
  for (const match of code.matchAll(pattern)) if (!names.includes(match[1]!)) names.push(match[1]!);
  return names;
}

/** Offsets of a region in a text: [start, end). */
export interface Region {
  start: number;
  end: number;
}

/** The declaration of `name` in `document`: from its first line to its closing brace, or its indented body. */
export function declarationRegion(document: string, name: string): Region | undefined {
  const escaped = name.replace(/[$]/g, '\\$');
  const head = new RegExp(
    `^([ \\t]*)(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?(?:function\\*?|class|def|interface|type|enum|const|let|var|fn|func|struct)\\s+${escaped}(?![\\w$])`,
    'm',
  ).exec(document);
  if (!head) return undefined;
  const start = head.index;
  const indent = head[1]!.length;
  const rest = document.slice(start);
  const firstLineEnd = rest.indexOf('\n');
  const firstLine = firstLineEnd < 0 ? rest : rest.slice(0, firstLineEnd);
  // Python and other indentation languages: the body is every following line indented deeper (or blank).
  if (/:\s*(#.*)?$/.test(firstLine) && !firstLine.includes('{')) {
    let end = firstLineEnd < 0 ? document.length : start + firstLineEnd + 1;
    const lines = document.slice(end).split('\n');
    for (const line of lines) {
      if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
      end += line.length + 1;
    }
    return { start, end: Math.min(end, document.length) };
  }
  // Brace languages: to the brace that closes the first one opened (strings and comments are not parsed: a
  // best match, shown in a diff before anything is written).
  let depth = 0;
  let opened = false;
  for (let i = start; i < document.length; i++) {
    const ch = document[i];
    if (ch === '{') {
      depth++;
      opened = true;
    } else if (ch === '}') {
      depth--;
      if (opened && depth === 0) {
        const lineEnd = document.indexOf('\n', i);
        return { start, end: lineEnd < 0 ? document.length : lineEnd + 1 };
      }
    } else if (!opened && ch === ';') {
      const lineEnd = document.indexOf('\n', i);
      return { start, end: lineEnd < 0 ? document.length : lineEnd + 1 };
    }
  }
  return undefined;
}

/** Where Apply puts the block: the region it rewrites, or the end of the file when it matches none. */
export interface ApplyPlace extends Region {
  how: 'region' | 'appended';
  /** The declarations it replaces, by name (empty when appended). */
  names: string[];
}

/**
 * The region of `document` the block rewrites: from the first to the last declaration it shares with the file.
 * With none in common, the end of the file (the caller says so), never the caret.
 */
export function applyPlace(document: string, code: string): ApplyPlace {
  const regions: { name: string; region: Region }[] = [];
  for (const name of declaredNames(code)) {
    const region = declarationRegion(document, name);
    if (region) regions.push({ name, region });
  }
  if (regions.length === 0) return { start: document.length, end: document.length, how: 'appended', names: [] };
  return {
    start: Math.min(...regions.map((r) => r.region.start)),
    end: Math.max(...regions.map((r) => r.region.end)),
    how: 'region',
    names: regions.map((r) => r.name),
  };
}

/** What Apply writes: a Proposal (core/chat/codeProposal.ts) and how its place was found. */
export interface AppliedBlock extends Proposal {
  how: 'selection' | 'region' | 'appended';
  names: string[];
}

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default del do elif else enum except export ' +
    'extends false final finally fn for from func function if impl import in instanceof interface is let match mut ' +
    'new nil none not null of or pass private protected pub public raise readonly return self static struct super ' +
    'switch this throw true try type typeof undefined use var void while with yield and elif lambda'
  ).split(' '),
);

/** The words a piece of code names, strings and comments left out, keywords too. */
function identifiers(code: string): Set<string> {
  const bare = code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(?:\/\/|#).*$/gm, ' ')
    .replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, ' ');
  return new Set([...bare.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]).filter((w) => !KEYWORDS.has(w)));
}

/** The lines of code that say something (a lone brace does not), trimmed. */
function meaningfulLines(code: string): string[] {
  return code
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /[\w$]/.test(line));
}

/**
 * Whether `code` is a new version of `region` rather than something to add beside it (issue 31 item 2: a lone
 * `console.log` replaced a selected function). It is when it declares a name the region declares, when it keeps at
 * least half of the region's lines, or when it uses at least two thirds of the names the region uses (two at
 * least). Anything less is an addition: inserting loses nothing, replacing loses the person's code.
 */
export function rewrites(region: string, code: string): boolean {
  const declared = declaredNames(region);
  if (declaredNames(code).some((name) => declared.includes(name))) return true;
  const lines = meaningfulLines(region);
  const kept = new Set(meaningfulLines(code));
  if (lines.length > 0 && lines.filter((line) => kept.has(line)).length * 2 >= lines.length) return true;
  const names = identifiers(region);
  if (names.size < 2) return false;
  const used = identifiers(code);
  return [...names].filter((name) => used.has(name)).length * 3 >= names.size * 2;
}

/**
 * The file with the block merged in: in place of the declarations it rewrites; else in place of a region the
 * prompt was about (`about`: the lines attached to it) when the block is a new version of that region (`rewrites`);
 * else at the end of the file, as whole lines, never at a caret or over a selection it does not rewrite.
 */
export function mergeBlock(document: string, code: string, eol: Eol, about: readonly Region[] = []): AppliedBlock {
  const place = applyPlace(document, code);
  const body = fitInsertion(code.replace(/\r?\n$/, ''), eol);
  const rewritten = about.find((r) => r.end > r.start && rewrites(document.slice(r.start, r.end), code));
  // The lines asked about win over a declaration inside them (a block's local `const` met in the function), unless
  // they are that declaration: then it is named.
  const same =
    rewritten &&
    document.slice(rewritten.start, rewritten.end).trim() === document.slice(place.start, place.end).trim();
  if (
    rewritten &&
    !same &&
    (place.how === 'appended' || (rewritten.start <= place.start && place.end <= rewritten.end))
  )
    return { ...proposeChange(document, rewritten.start, rewritten.end, code, eol), how: 'selection', names: [] };
  if (place.how === 'region') {
    // The region's own last line break stays; the block brings none of its own beyond it.
    const replacement = body + (/\r?\n$/.test(document.slice(place.start, place.end)) ? eol : '');
    return {
      text: document.slice(0, place.start) + replacement + document.slice(place.end),
      start: place.start,
      end: place.end,
      replacement,
      how: 'region',
      names: place.names,
    };
  }
  // Appended as whole lines: a blank line before it when the file has text, the file's last line kept whole.
  const lead = document === '' ? '' : /\r?\n$/.test(document) ? eol : eol + eol;
  const replacement = `${lead}${body}${eol}`;
  return {
    text: document + replacement,
    start: document.length,
    end: document.length,
    replacement,
    how: 'appended',
    names: [],
  };
}

/** The 1-based line where the block's own text starts in the new file (after the blank line an append adds). */
export function firstLineOf(applied: AppliedBlock): number {
  const lead = /^(?:\r?\n)*/.exec(applied.replacement)![0];
  const before = applied.text.slice(0, applied.start) + lead;
  return before.split('\n').length;
}
