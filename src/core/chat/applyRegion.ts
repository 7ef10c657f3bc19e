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

/**
 * The file with the block merged in: in place of the selection when the person made one in that file, else in
 * place of the declarations it rewrites, else at the end of the file (as whole lines), never at a caret.
 */
export function mergeBlock(document: string, code: string, eol: Eol, selection?: Region): AppliedBlock {
  if (selection && selection.end > selection.start)
    return { ...proposeChange(document, selection.start, selection.end, code, eol), how: 'selection', names: [] };
  const place = applyPlace(document, code);
  const body = fitInsertion(code.replace(/\r?\n$/, ''), eol);
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
