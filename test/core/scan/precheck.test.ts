// The WebAssembly pre-check (src/core/scan/precheck.wat) against its JavaScript twin and against the
// text it was assembled from. Every place a prefix ends must be reported, wherever the buffer lies:
// in the read room (searched in place), copied in, across the seam of two copied pieces, at the
// very start of a buffer, or right before its end where the module's 16-byte loads read past it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assemble, generatedPath, wasmSource } from '../../../scripts/assembleWasm.ts';
import { PRECHECK_WASM_BASE64 } from '../../../src/core/scan/precheckWasm.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import {
  READ_ROOM,
  beginCandidates,
  candidatesOf,
  newlinesIn,
  nextCandidate,
  precheckInWasm,
  readRoom,
} from '../../../src/core/scan/precheck.ts';
import { readFileSync } from 'node:fs';

/** Where each prefix's last byte is, by reading the bytes plainly (the reference). */
function prefixEnds(bytes: Uint8Array): number[] {
  const text = Buffer.from(bytes).toString('latin1');
  const ends = new Set<number>();
  // The last three bytes of each prefix ("xai-": "ai-"; "tgp_v1_": "gp_", its first underscore).
  for (const prefix of ['sk-', 'ai-', 'lx-', 'sk_', 'hf_', 'fw_', 'r8_', 'gp_', 'Iza'])
    for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1)) ends.add(at + prefix.length - 1);
  return [...ends].sort((a, b) => a - b);
}

/** What the pre-check reports, less its known false alarms ("/" and "]" after "sk"), which callers check away. */
function reported(bytes: Uint8Array, inJs = false): number[] {
  return candidatesOf(bytes, inJs).filter((at) => bytes[at] !== 0x2f && bytes[at] !== 0x5d);
}

const ALPHABET = 'sk-_xaiplhfwr8gIzA/] \n';
const bytesOf = fc
  .array(fc.constantFrom(...ALPHABET), { maxLength: 200 })
  .map((a) => Buffer.from(a.join(''), 'latin1'));

describe('precheck: the WebAssembly search', () => {
  it('runs in WebAssembly on this Node', () => {
    expect(precheckInWasm()).toBe(true);
  });

  it('is the module assembled from precheck.wat (run `npm run wasm` after editing it)', async () => {
    const generated = generatedPath('precheck');
    expect(readFileSync(generated, 'utf8')).toBe(wasmSource('precheck', await assemble('precheck')));
    expect(Buffer.from(PRECHECK_WASM_BASE64, 'base64').subarray(0, 4).toString('latin1')).toBe('\0asm');
    // Base64 could spell a key shape by chance; Keyward scans its own repository.
    expect(scanText(readFileSync(generated, 'utf8'))).toEqual([]);
  });

  it('reports every prefix end, and only those, in buffers of the letters that make them', () => {
    fc.assert(
      fc.property(bytesOf, (bytes) => {
        expect(reported(bytes)).toEqual(prefixEnds(bytes));
        expect(reported(bytes, true)).toEqual(prefixEnds(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('reports the same in random bytes, whatever their values', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(candidatesOf(bytes)).toEqual(candidatesOf(bytes, true));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds a prefix at the very start, at the very end, and nothing in the bytes past the end', () => {
    expect(reported(Buffer.from('sk-'))).toEqual([2]);
    expect(reported(Buffer.from('AIza'))).toEqual([3]);
    const tail = Buffer.from(`${'.'.repeat(29)}hf_`);
    expect(reported(tail)).toEqual([31]);
    // A prefix that lies just past the end of a shorter view is not the view's.
    expect(reported(tail.subarray(0, 31))).toEqual([]);
  });

  it('searches a buffer in the read room in place, at any offset in it', () => {
    const room = readRoom();
    room.fill(0x2e);
    room.write('xsk-', 100, 'latin1');
    room.write('gp_', READ_ROOM - 3, 'latin1');
    expect(reported(room)).toEqual([103, READ_ROOM - 1]);
    // A view that starts inside the room sees only its own bytes' prefixes (no match from before its start).
    expect(reported(room.subarray(102, 200))).toEqual([1]);
  });

  it("finds a prefix split across the seam of two copied megabytes, and one at a large buffer's end", () => {
    const size = (1 << 20) * 2 + 37;
    const big = Buffer.alloc(size, 0x2e);
    const seam = 1 << 20;
    // "sk" closes the first piece and "-" opens the second; "xai-" straddles the second seam; "r8_" ends it all.
    big.write('sk', seam - 2, 'latin1');
    big.write('-', seam, 'latin1');
    big.write('xai-', 2 * seam - 1, 'latin1');
    big.write('r8_', size - 3, 'latin1');
    expect(reported(big)).toEqual([seam, 2 * seam + 2, size - 1]);
    expect(reported(big, true)).toEqual([seam, 2 * seam + 2, size - 1]);
  });
});

/** The newlines in bytes[start, end), counted plainly (the reference). */
function newlinesPlainly(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (bytes[i] === 10) count++;
  return count;
}

describe('precheck: the newline count of windowed files', () => {
  it('counts as a plain loop does, in WebAssembly and in JavaScript, over any range of any bytes', () => {
    const range = fc.uint8Array({ maxLength: 700 }).chain((bytes) =>
      fc.tuple(fc.constant(bytes), fc.nat(bytes.length), fc.nat(bytes.length)).map(([b, x, y]) => ({
        bytes: b.map((byte) => (byte % 3 === 0 ? 10 : byte)),
        start: Math.min(x, y),
        end: Math.max(x, y),
      })),
    );
    fc.assert(
      fc.property(range, ({ bytes, start, end }) => {
        const expected = newlinesPlainly(bytes, start, end);
        expect(newlinesIn(bytes, start, end)).toBe(expected);
        expect(newlinesIn(bytes, start, end, true)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts in the read room in place, nothing past the end, and past 255 steps of 16 bytes (a lane byte wraps)', () => {
    const room = readRoom();
    room.fill(10, 0, 1 << 16);
    for (const [start, end] of [
      [0, 16],
      [1, 17],
      [3, 4095],
      [7, 16 * 255 + 7],
      [5, 16 * 256 + 21],
      [0, 1 << 16],
    ] as const) {
      expect(newlinesIn(room, start, end), `${start}-${end}`).toBe(end - start);
      expect(newlinesIn(room.subarray(start, end), 0, end - start)).toBe(end - start);
    }
  });

  it('counts a buffer of megabytes copied in piece by piece, across the seams of its pieces', () => {
    const big = Buffer.alloc((1 << 20) * 2 + 45, 0x61);
    for (let at = 0; at < big.length; at += 997) big[at] = 10;
    for (const at of [(1 << 20) - 1, 1 << 20, (1 << 21) - 1, 1 << 21, big.length - 1]) big[at] = 10;
    expect(newlinesIn(big, 0, big.length)).toBe(newlinesPlainly(big, 0, big.length));
    expect(newlinesIn(big, 13, big.length - 7)).toBe(newlinesPlainly(big, 13, big.length - 7));
  });

  it('leaves the candidate search of a copied buffer right when it counts in between, as the windowed scan does', () => {
    const big = Buffer.alloc((1 << 20) * 2 + 9, 0x2e);
    const ends = [100, 5000, (1 << 20) + 50, (1 << 20) + 900, (1 << 21) + 5];
    for (const end of ends) big.write('sk-', end - 2, 'latin1');
    const other = Buffer.alloc(1 << 20, 10);
    beginCandidates(big);
    const found: number[] = [];
    for (let at = nextCandidate(0); at !== -1; at = nextCandidate(at + 1)) {
      found.push(at);
      // The count copies its bytes where the search keeps its piece.
      expect(newlinesIn(other, 0, other.length)).toBe(other.length);
    }
    expect(found).toEqual(ends);
  });
});
