// StreamScan copies what it keeps, so a reader may fill ONE buffer for every push (keyward scan reads a
// large file through one reused 4 MB chunk, issue 23 part 4): a push's bytes are the caller's again as soon
// as push() returns. ripgrep reads the same way, into one growing buffer it reuses for every file
// (BurntSushi/ripgrep crates/searcher/src/line_buffer.rs, LineBuffer: "roll" keeps the unconsumed tail).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { StreamScan } from '../../../src/core/scan/streamScan.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const WINDOW = 16 << 10;
const pool = Array.from({ length: 4 }, (_, i) => (i % 2 ? routerKey() : directKey('proj')));
const piece = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('x', 'ab cd', '\n', 'é', '日本', 'q'.repeat(3000), 'sk-') },
  { weight: 1, arbitrary: fc.constantFrom(...pool) },
);
const view = (f: { line: number; column: number; endColumn: number; fingerprint: string }) => [
  f.line,
  f.column,
  f.endColumn,
  f.fingerprint,
];

/** Feeds `bytes` in pieces of `size` through one scratch buffer, poisoned after every push. */
function throughOneBuffer(bytes: Buffer, size: number, encoding?: 'utf16le'): ReturnType<StreamScan['end']> {
  const scan = new StreamScan({ allowComments: false }, WINDOW);
  const scratch = Buffer.alloc(size);
  for (let at = 0; at < bytes.length; at += size) {
    const n = bytes.copy(scratch, 0, at, at + size);
    scan.push(scratch.subarray(0, n));
    // What a reader does next: the next read lands in the same bytes.
    scratch.fill(encoding ? 0x20 : 0x7a);
  }
  return scan.end();
}

describe('StreamScan with one reused read buffer', () => {
  it('finds what a whole-text scan finds, whatever the piece size', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 50, maxLength: 300 }),
        fc.integer({ min: 1, max: 70_000 }),
        (parts, size) => {
          const text = parts.join('');
          expect(throughOneBuffer(Buffer.from(text, 'utf8'), size).map(view)).toEqual(
            scanText(text, { allowComments: false }).map(view),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the byte-order mark decision and the text of UTF-16 when the buffer is refilled', () => {
    const text = `a\n${'w'.repeat(40_000)} ${routerKey()}\n${'v'.repeat(30_000)}\nk = "${directKey('proj')}"\n`;
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    for (const size of [1, 3, 4096, 65_536])
      expect(throughOneBuffer(bytes, size, 'utf16le').map(view)).toEqual(
        scanText(text, { allowComments: false }).map(view),
      );
  });
});
