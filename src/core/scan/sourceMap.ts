// A source map carries the original sources in `sourcesContent`: each source
// is a file of its own there, with its own allow comments, and a key in it is
// reported at the source's name, line and column (`x.js.map!src/x.ts:3:5`),
// where a developer can find it, rather than at a column of the map's one long
// JSON line. Read as one line, a `keyward-ignore` in one source would hide a
// key in every other; so a map that may hold a key is always read source by
// source (an index map's sections too), and the rest of it (`names`, `file` …)
// with no allow comment at all. Minified bundles need nothing special: their
// lines are long, and the scanner reports exact columns on them.
import { redactSecrets } from '../redact.ts';
import { EntryNames } from './entryNames.ts';
import { type Finding, LOOSE_CAP, type ScanOptions, type ScanResult, optionsFor, scanTextCounted } from './scanner.ts';
import { mayContainKey } from './literalPrecheck.ts';
import { encodingOf, scanBytesCounted } from './byteScan.ts';
import { isSourceMap } from './sourceMapName.ts';

export interface ShippedPart {
  /** The original source a finding belongs to (a source map's `sources` entry); none for the file itself. */
  source?: string;
  findings: Finding[];
  omitted: number;
}

interface SourceMapShape {
  sources?: unknown;
  sourcesContent?: unknown;
  /** An index map: its sections hold maps of their own. */
  sections?: unknown;
}

interface Source {
  name: string;
  content: string;
}

/** Every original source with its text, index maps' sections included, in order. */
function sourcesOf(map: unknown, out: Source[] = [], depth = 0): Source[] {
  if (typeof map !== 'object' || map === null || depth > 8) return out;
  const { sources, sourcesContent, sections } = map as SourceMapShape;
  if (Array.isArray(sourcesContent)) {
    const names = Array.isArray(sources) ? sources : [];
    sourcesContent.forEach((content: unknown, i: number) => {
      if (typeof content === 'string')
        out.push({ name: typeof names[i] === 'string' ? names[i] : `sourcesContent[${i}]`, content });
    });
  }
  if (Array.isArray(sections))
    for (const section of sections as unknown[])
      if (typeof section === 'object' && section !== null)
        sourcesOf((section as { map?: unknown }).map, out, depth + 1);
  return out;
}

// "00", then the "u" before it: a needle is searched by its first byte, and "u" (every "function", "return") or
// the backslash (every "\n" of a JSON text) stop it far more often than "0": on the bench's 17 MB of source maps
// "u00" ran at 4 GiB/s, "00" at 10-15.
const ZERO_ZERO = Buffer.from('00', 'latin1');

/**
 * Whether a JSON text escapes a character a key is made of (`\u0073` for "s"):
 * the bytes would not show "sk-" where the parsed source does. JSON.stringify
 * never writes these, so a map that has them was written to hide something.
 */
function escapesKeyCharacters(bytes: Buffer): boolean {
  for (let zeros = bytes.indexOf(ZERO_ZERO, 2); zeros !== -1; zeros = bytes.indexOf(ZERO_ZERO, zeros + 1)) {
    if (bytes[zeros - 1] !== 0x75 /* u */) continue;
    const at = zeros - 1;
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
  let map: unknown;
  try {
    map = JSON.parse(text);
  } catch {
    return [scanTextCounted(text, options)];
  }
  const sources = sourcesOf(map);
  if (sources.length === 0) return [scanTextCounted(text, options)];
  const parts: ShippedPart[] = [];
  const names = new EntryNames();
  const reported = new Set<string>();
  for (const { name: sourceName, content } of sources) {
    // A name is text from the file: a key in it is masked before it names anything.
    const source = names.name(redactSecrets(sourceName));
    const found = scanTextCounted(content, optionsFor(source, options));
    for (const finding of found.findings) reported.add(finding.fingerprint);
    if (found.findings.length > 0 || found.omitted > 0)
      parts.push({ source, findings: found.findings, omitted: found.omitted });
  }
  const own = ownFindings(text, sources, reported, options);
  if (own.findings.length > 0 || own.omitted > 0) parts.unshift(own);
  return parts;
}

/**
 * What the map holds outside its sources' text (`names`, `file`, a second
 * `sourcesContent` JSON.parse dropped), at its own columns. Its JSON is no
 * comment syntax, so no allow comment counts here (one in a source would
 * otherwise reach every key on the map's line); a key that is in a source's
 * text was reported, or allowed, there.
 */
function ownFindings(
  text: string,
  sources: readonly Source[],
  reported: Set<string>,
  options: ScanOptions,
): ScanResult {
  const values = new Map<string, string>();
  const all = scanTextCounted(text, {
    ...options,
    allowComments: false,
    looseCap: Infinity,
    onKey: (fingerprint, key) => values.set(fingerprint, key),
  });
  // Every key in the sources, allowed ones included: read again only when a key is left to place.
  let inSources: Set<string> | undefined;
  const cap = options.looseCap ?? LOOSE_CAP;
  let loose = 0;
  let omitted = 0;
  const findings: Finding[] = [];
  for (const finding of all.findings) {
    if (reported.has(finding.fingerprint)) continue;
    inSources ??= new Set(
      sources.flatMap(({ content }) =>
        scanTextCounted(content, {
          ...options,
          allowComments: false,
          looseCap: Infinity,
          onKey: undefined,
        }).findings.map((f) => f.fingerprint),
      ),
    );
    if (inSources.has(finding.fingerprint)) continue;
    if (finding.confidence === 'medium' && !finding.stored && ++loose > cap) {
      omitted++;
      continue;
    }
    const key = values.get(finding.fingerprint);
    if (key !== undefined) options.onKey?.(finding.fingerprint, key);
    findings.push(finding);
  }
  return { findings, omitted };
}
