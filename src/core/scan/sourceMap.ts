// A source map carries the original sources in `sourcesContent`: each source
// is a file of its own there, with its own allow comments, and a key in it is
// reported at the source's name, line and column (`x.js.map!src/x.ts:3:5`),
// where a developer can find it, rather than at a column of the map's one long
// JSON line. Read as one line, a `keyward-ignore` in one source would hide a
// key in every other; so a map that may hold a key is always read source by
// source, and its own fields (`names`, `sources`, `file`) with the sources
// blanked out. Minified bundles need nothing special: their lines are long,
// and the scanner reports exact columns on them.
import { EntryNames } from './entryNames.ts';
import { type Finding, type ScanOptions, mayContainKey, optionsFor, scanTextCounted } from './scanner.ts';
import { encodingOf, scanBytesCounted } from './streamScan.ts';

export interface ShippedPart {
  /** The original source a finding belongs to (a source map's `sources` entry); none for the file itself. */
  source?: string;
  findings: Finding[];
  omitted: number;
}

/** Whether a file name is a source map's. */
export function isSourceMap(name: string): boolean {
  return name.toLowerCase().endsWith('.map');
}

interface SourceMapShape {
  sources?: unknown;
  sourcesContent?: unknown;
}

// "u00" alone: a needle starting with the backslash (in every "\n" of a JSON text) was searched at half the speed.
const U00 = Buffer.from('u00', 'latin1');

/**
 * Whether a JSON text escapes a character a key is made of (`\u0073` for "s"):
 * the bytes would not show "sk-" where the parsed source does. JSON.stringify
 * never writes these, so a map that has them was written to hide something.
 */
function escapesKeyCharacters(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(U00, 1); at !== -1; at = bytes.indexOf(U00, at + 3)) {
    // \u0020 to \u007f, the ASCII a key's characters come from, after an odd run of backslashes ("\\u" is none).
    if (bytes[at + 3]! < 0x32 || bytes[at + 3]! > 0x37) continue;
    let slashes = 0;
    while (at - 1 - slashes >= 0 && bytes[at - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 1) return true;
  }
  return false;
}

/**
 * Scans a file's bytes as shipped: a source map by its original sources (and
 * the rest of the map for anything else), any other file as it is.
 */
export function scanShippedText(bytes: Buffer, name: string, options: ScanOptions = {}): ShippedPart[] {
  // The fast path of every file: a map that cannot hold a key (most) is not parsed.
  if (!isSourceMap(name) || encodingOf(bytes) !== 'utf8') return [scanBytesCounted(bytes, options)];
  if (!mayContainKey(bytes, options) && !escapesKeyCharacters(bytes)) return [{ findings: [], omitted: 0 }];
  // A UTF-8 byte-order mark, which JSON.parse refuses, becomes a space: columns stay where they are.
  const raw = bytes.toString('utf8');
  const text = raw.charCodeAt(0) === 0xfeff ? ` ${raw.slice(1)}` : raw;
  let map: SourceMapShape;
  try {
    map = JSON.parse(text) as SourceMapShape;
  } catch {
    return [scanTextCounted(text, options)];
  }
  if (typeof map !== 'object' || map === null || !Array.isArray(map.sourcesContent))
    return [scanTextCounted(text, options)];
  const sources = Array.isArray(map.sources) ? map.sources : [];
  const parts: ShippedPart[] = [];
  const names = new EntryNames();
  map.sourcesContent.forEach((content: unknown, i: number) => {
    const source = names.name(typeof sources[i] === 'string' ? sources[i] : `sourcesContent[${i}]`);
    if (typeof content !== 'string') return;
    const found = scanTextCounted(content, optionsFor(source, options));
    if (found.findings.length > 0 || found.omitted > 0)
      parts.push({ source, findings: found.findings, omitted: found.omitted });
  });
  // The map's own fields, at their columns: the sources' text is blanked, so none of their comments reaches here.
  const span = valueSpan(text, 'sourcesContent');
  const own = span ? text.slice(0, span[0]) + ' '.repeat(span[1] - span[0]) + text.slice(span[1]) : text;
  const rest = scanTextCounted(own, options);
  if (rest.findings.length > 0 || rest.omitted > 0) parts.unshift(rest);
  return parts;
}

/**
 * Where the value JSON.parse took for a top-level key starts and ends (the
 * last of that name, as JSON.parse takes it), in a text JSON.parse accepted.
 */
function valueSpan(text: string, key: string): [number, number] | undefined {
  let span: [number, number] | undefined;
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipSpace(text, i + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    // Decoded, as JSON.parse decodes it: "sources\u0043ontent" is the same key.
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, i);
    if (name === key) span = [i, end];
    i = skipSpace(text, end);
    if (text[i] !== ',') break;
    i = skipSpace(text, i + 1);
  }
  return span;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}

/** The index after the closing quote of the string that opens at `i`. */
function stringEnd(text: string, i: number): number {
  for (let at = text.indexOf('"', i + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return at + 1;
  }
  return text.length;
}

/** The index after the value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first !== '[' && first !== '{') {
    while (i < text.length && !',}] \n\r\t'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}
