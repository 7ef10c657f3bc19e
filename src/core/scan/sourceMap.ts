// A source map carries the original sources in `sourcesContent`: a key there
// is reported at the original file's name, line and column, where a developer
// can find it, rather than at a column of the map's one long JSON line.
// Minified bundles need nothing special: their lines are long, and the scanner
// reports exact columns on them.
import { type Finding, type ScanOptions, scanTextCounted } from './scanner.ts';
import { scanBytesCounted } from './streamScan.ts';

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

/**
 * Scans a file's bytes as shipped: a source map by its original sources (and
 * the rest of the map for anything else), any other file as it is.
 */
export function scanShippedText(bytes: Buffer, name: string, options: ScanOptions = {}): ShippedPart[] {
  const whole = scanBytesCounted(bytes, options);
  if (!isSourceMap(name) || whole.findings.length === 0) return [whole];
  let map: SourceMapShape;
  try {
    map = JSON.parse(bytes.toString('utf8')) as SourceMapShape;
  } catch {
    return [whole];
  }
  if (!Array.isArray(map.sourcesContent)) return [whole];
  const sources = Array.isArray(map.sources) ? map.sources : [];
  const parts: ShippedPart[] = [];
  const inSources = new Set<string>();
  map.sourcesContent.forEach((content: unknown, i: number) => {
    if (typeof content !== 'string') return;
    const found = scanTextCounted(content, options);
    if (found.findings.length === 0) return;
    for (const finding of found.findings) inSources.add(finding.fingerprint);
    const source = typeof sources[i] === 'string' ? sources[i] : `sourcesContent[${i}]`;
    parts.push({ source, findings: found.findings, omitted: found.omitted });
  });
  // What the sources hold is reported there; the map's own line keeps only the rest (a key in `names`).
  const rest = whole.findings.filter((f) => !inSources.has(f.fingerprint));
  if (rest.length > 0) parts.unshift({ findings: rest, omitted: 0 });
  return parts;
}
