// Scans bytes that fit in memory, whatever their encoding: a UTF-16 byte-order mark decodes as such, anything else as
// UTF-8 (binary included). The extension's source maps and archives use it; bytes of any size go through
// streamScan.ts, which only the scans that read whole files and history load (dist/streamScan.js).
import { mayContainKey } from './literalPrecheck.ts';
import { type Finding, type ScanOptions, type ScanResult, scanText, scanTextCounted } from './scanner.ts';

export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be';

/** The encoding a file's first bytes announce: a UTF-16 byte-order mark, or UTF-8 (binary included). */
export function encodingOf(bytes: Buffer): TextEncoding {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return 'utf8';
}

export function decodeUtf16(bytes: Buffer, encoding: 'utf16le' | 'utf16be'): string {
  const even = bytes.subarray(0, bytes.length & ~1);
  if (encoding === 'utf16le') return even.toString('utf16le');
  return Buffer.from(even).swap16().toString('utf16le');
}

/** Scans a whole buffer, whatever its encoding; the fast path for files that fit in memory. */
export function scanBytes(bytes: Buffer, options: ScanOptions = {}): Finding[] {
  return scanBytesCounted(bytes, options).findings;
}

const NONE: ScanResult = { findings: [], omitted: 0 };

/** scanBytes, with the count of medium-confidence findings the cap left out. */
export function scanBytesCounted(bytes: Buffer, options: ScanOptions = {}): ScanResult {
  const encoding = encodingOf(bytes);
  if (encoding === 'utf8')
    return mayContainKey(bytes, options) ? scanTextCounted(bytes.toString('utf8'), options) : NONE;
  const text = decodeUtf16(bytes.subarray(2), encoding);
  return text.includes('sk-') || options.known?.length || options.retired?.length || options.teamRules?.length
    ? scanTextCounted(text, options)
    : NONE;
}

/** Scans a buffer as UTF-8, after the byte pre-check. */
export function scanBuffer(bytes: Buffer, options: ScanOptions = {}): Finding[] {
  return mayContainKey(bytes, options) ? scanText(bytes.toString('utf8'), options) : [];
}
