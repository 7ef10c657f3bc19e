// The one filter for what Keyward writes to disk (workspace and global state,
// the saved conversation, the export): every key the scanner knows is masked,
// the stored key of any shape and rotated-out keys included, even on a line
// marked keyward-ignore; then anything else key-shaped.
import { type KeyMask, mapStrings, maskKnownKeys } from '../../shared/keyShapes.ts';
import { redactSecrets } from '../redact.ts';
import { type ScanOptions, scanText } from '../scan/scanner.ts';

/** What the filter knows of the keys Keyward holds: their values, and their masks for when a value cannot be read. */
export type PersistOptions = ScanOptions & { masks?: readonly KeyMask[] };

export function maskKeys(text: string, options: PersistOptions = {}): string {
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
  // A stored key SecretStorage could not hand over is still masked by its mask (the ends its masked form shows).
  return maskKnownKeys(
    redactSecrets(
      out,
      (options.known ?? []).map((k) => k.value),
    ),
    options.masks ?? [],
  );
}

/** A copy of a JSON-like value fit to be written to disk. */
export function scrubForDisk<T>(value: T, options: PersistOptions = {}): T {
  return mapStrings(value, (text) => maskKeys(text, options));
}
