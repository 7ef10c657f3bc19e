// The keys in a shipped file (a bundle, a source map) by where they are: a source map's finding is in one of its
// original sources. The source-map reader (and the byte scan behind it) loads from its own file on first use
// (dist/sourceMap.js): a workspace scan and a source map open in the editor need it, an activation does not.
import type { Finding, ScanOptions } from '../../core/scan/scanner.ts';

/** A finding to publish, and where inside the file it is when that is not the file's own text. */
export interface PlacedFinding {
  finding: Finding;
  inner?: string;
}

export async function shippedFindings(bytes: Buffer, name: string, options: ScanOptions): Promise<PlacedFinding[]> {
  const { scanShippedText } = await import('../../core/scan/sourceMap.ts');
  const placed: PlacedFinding[] = [];
  for (const part of scanShippedText(bytes, name, options))
    for (const finding of part.findings)
      placed.push(part.source === undefined ? { finding } : { finding, inner: part.source });
  return placed;
}
