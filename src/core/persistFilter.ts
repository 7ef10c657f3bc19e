// The one filter for what Keyward writes to disk (workspace and global state,
// the saved conversation, the export): every key the scanner knows is masked,
// the stored key of any shape and rotated-out keys included, even on a line
// marked keyward-ignore; then anything else key-shaped.
import { mapStrings } from '../shared/keyShapes.ts';
import { redactSecrets } from './redact.ts';
import { type ScanOptions, scanText } from './scan/scanner.ts';

export function maskKeys(text: string, options: ScanOptions = {}): string {
  const findings = scanText(text, { ...options, allowComments: false });
  let out = text;
  if (findings.length > 0) {
    const lineStarts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    out = '';
    let last = 0;
    for (const finding of findings) {
      const start = lineStarts[finding.line]! + finding.column;
      if (start < last) continue;
      out += text.slice(last, start) + finding.masked;
      last = lineStarts[finding.endLine]! + finding.endColumn;
    }
    out += text.slice(last);
  }
  return redactSecrets(
    out,
    (options.known ?? []).map((k) => k.value),
  );
}

/** A copy of a JSON-like value fit to be written to disk. */
export function scrubForDisk<T>(value: T, options: ScanOptions = {}): T {
  return mapStrings(value, (text) => maskKeys(text, options));
}
