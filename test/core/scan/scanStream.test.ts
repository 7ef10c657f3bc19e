// Scanning in overlapping windows finds exactly what one pass over the whole
// text finds, wherever the windows and the pushed pieces cut it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ScanOptions, scanText } from '../../../src/core/scan/scanner.ts';
import { DEFAULT_WINDOW, StreamScan } from '../../../src/core/scan/streamScan.ts';
import { scanBytes } from '../../../src/core/scan/byteScan.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const WINDOW = 16 << 10;
const pool = Array.from({ length: 6 }, (_, i) => (i % 2 ? routerKey() : directKey(i % 3 ? 'proj' : 'legacy')));
const fillers = [
  'x',
  'ab cd',
  '\n',
  'é',
  '日本',
  '😀',
  '\r\n',
  '"',
  'sk-',
  'sk-or-v1-',
  'A'.repeat(300),
  'q'.repeat(2000),
  '\u0000',
  '// keyward-ignore',
];

const piece = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...fillers) },
  { weight: 1, arbitrary: fc.constantFrom(...pool) },
);
const document = fc.array(piece, { minLength: 50, maxLength: 400 }).chain((parts) =>
  fc.array(fc.nat(20_000), { minLength: 1, maxLength: 4 }).map((repeat) => {
    // Long runs of filler push the keys across several windows.
    const text = parts.map((p, i) => (i % 37 === 0 ? p + 'z'.repeat(repeat[i % repeat.length]!) : p)).join('');
    return text;
  }),
);

const view = (f: { line: number; column: number; endColumn: number; fingerprint: string; ruleId: string }) => [
  f.line,
  f.column,
  f.endColumn,
  f.fingerprint,
  f.ruleId,
];

// A marker far along a line longer than a window's margin is out of the
// window's sight (the stream then reports more, never less); markers are
// covered on their own below, so the properties compare without them.
const NO_MARKERS = { allowComments: false };

function streamed(bytes: Buffer, cuts: number[], options: ScanOptions = NO_MARKERS): ReturnType<StreamScan['end']> {
  const scan = new StreamScan(options, WINDOW);
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    scan.push(bytes.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  scan.push(bytes.subarray(at));
  return scan.end();
}

describe('StreamScan', () => {
  it('agrees with a whole-text scan for UTF-8, whatever the windows and pieces', () => {
    fc.assert(
      fc.property(document, fc.array(fc.nat(), { maxLength: 30 }), (text, cuts) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(streamed(bytes, cuts).map(view)).toEqual(scanText(text, NO_MARKERS).map(view));
      }),
      { numRuns: 60 },
    );
  });

  it('agrees with a whole-text scan for UTF-16 with a byte-order mark', () => {
    fc.assert(
      fc.property(document, fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), (text, cuts, little) => {
        const le = Buffer.from(text, 'utf16le');
        const bytes = Buffer.concat([
          Buffer.from(little ? [0xff, 0xfe] : [0xfe, 0xff]),
          little ? le : Buffer.from(le).swap16(),
        ]);
        const expected = scanText(text, NO_MARKERS).map(view);
        expect(streamed(bytes, cuts).map(view)).toEqual(expected);
        expect(scanBytes(bytes, NO_MARKERS).map(view)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('reads a key-like piece of a longer token as the whole file does, where a margin ends inside the token', () => {
    // fast-check found it (seed -10704893): the region read around a key ended 4 KB on, inside a token that starts
    // with a key and goes on for 400 characters; the piece up to the cut looked like a key of its own.
    const key = routerKey();
    const long = directKey('legacy') + 'x'.repeat(400);
    const head = `${key} ${'q'.repeat(4096 - 60 - key.length - 2)} `;
    // No line break within the margin after the cut: the line goes on.
    const text = `${head}${long}${' q'.repeat(3000)}\n`;
    expect(head.length).toBe(4096 - 60);
    const whole = scanText(text, NO_MARKERS).map(view);
    expect(whole).toHaveLength(1);
    expect(streamed(Buffer.from(text), []).map(view)).toEqual(whole);
  });

  it('finds a key on a line far longer than a window, at its real column', () => {
    const key = routerKey();
    const text = 'm'.repeat(100_000) + ' ' + key + ' ' + 'n'.repeat(50_000) + '\nnext ' + key;
    expect(streamed(Buffer.from(text), [1, 7, 99_999]).map(view)).toEqual(scanText(text).map(view));
  });

  it('honours an ignore marker on the line of a key in any window', () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 500 === 7 ? `k = "${routerKey()}" // keyward-ignore` : i % 500 === 9 ? `k = "${routerKey()}"` : `line ${i}`,
    );
    const text = lines.join('\n');
    const found = streamed(Buffer.from(text), [], {});
    expect(found.map(view)).toEqual(scanText(text).map(view));
    expect(found).toHaveLength(6);
  });

  it('finds a key across the edge of two windows of the default size, at its exact line, column and byte', () => {
    // Source-like lines with dashes and underscores (the byte searches' stops) and multi-byte characters before
    // the key, so the lines, the UTF-16 column and the byte offset of the part read around it are all tested.
    const line = (i: number) => `const e_${i} = a - b; // é 日本 ${i}\n`;
    const lines: string[] = [];
    for (let size = 0; size < DEFAULT_WINDOW - 200; size += Buffer.byteLength(lines.at(-1)!))
      lines.push(line(lines.length));
    const head = lines.join('');
    const key = routerKey();
    const far = Array.from({ length: 5000 }, (_, i) => line(i)).join('');
    for (const shift of [0, 1, 37, 80, 120, 150, 199, 260]) {
      // The key starts just before the first window's owned part ends, on it, or just after.
      const pad = 'x'.repeat(shift);
      const text = `${head}${pad} "${key}" tail\n${far}"${directKey('proj')}"\n`;
      const bytes = Buffer.from(text, 'utf8');
      const scan = new StreamScan();
      for (let at = 0; at < bytes.length; at += 4 << 20) scan.push(bytes.subarray(at, at + (4 << 20)));
      const found = scan.end();
      const whole = scanText(text);
      expect(found).toHaveLength(2);
      expect(found.map((f) => [...view(f), f.startByte, f.endByte])).toEqual(
        whole.map((f) => [...view(f), f.startByte, f.endByte]),
      );
    }
  });
});
