// Keys ever committed: the added lines of `git log -p`, scanned line by line.
import type { FileFinding } from './report.ts';
import { type ScanOptions, scanText } from './scanner.ts';

/** Parses `git log -p --no-color -U0` output and scans every added line. */
export function scanLogPatch(patch: string, options: ScanOptions = {}): FileFinding[] {
  const out: FileFinding[] = [];
  const seen = new Set<string>();
  let commit = '';
  let path = '';
  let newLine = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('commit ')) {
      commit = line.slice(7, 47);
      continue;
    }
    if (line.startsWith('+++ ')) {
      path = line.startsWith('+++ b/') ? line.slice(6) : line.slice(4);
      continue;
    }
    if (line.startsWith('@@')) {
      const match = /\+(\d+)/.exec(line);
      newLine = match ? Number(match[1]) - 1 : 0;
      continue;
    }
    if (line.startsWith('+') && !line.startsWith('+++')) {
      const text = line.slice(1);
      if (text.includes('sk-') || options.known?.length || options.retired?.length) {
        for (const finding of scanText(text, options)) {
          // The same key added in the same file once is enough to report.
          const id = `${finding.fingerprint}|${path}`;
          if (seen.has(id)) continue;
          seen.add(id);
          out.push({ path, finding: { ...finding, line: newLine, endLine: newLine }, git: 'history', commit });
        }
      }
      newLine++;
    } else if (line.startsWith(' ')) newLine++;
  }
  return out;
}
