// The CLI's own SHA-256 (src/core/keys/sha256.ts) against the standard's examples and node:crypto: a fingerprint
// the CLI prints must be the one the editor, a baseline and an ignore file hold for the same key. Both ways of
// compressing are checked: in WebAssembly (sha256.wat, what the CLI uses) and in JavaScript (without it).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assemble, generatedPath, wasmSource } from '../../../scripts/assembleWasm.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { fingerprint, fingerprintWith } from '../../../src/core/keys/fingerprint.ts';
import { sha256Hex as sha256, sha256InWasm } from '../../../src/core/keys/sha256.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each([
  ['in WebAssembly', false],
  ['in JavaScript', true],
])('sha256Hex %s', (_way, inJs) => {
  const sha256Hex = (text: string) => sha256(text, inJs);

  it("gives FIPS 180-4's example digests (NIST's SHA256.pdf: one block, two blocks; and the empty message)", () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('agrees with node:crypto at every length around the block and padding edges, and on long input', () => {
    for (let length = 0; length <= 200; length++) {
      const text = randomBytes(length)
        .toString('latin1')
        .replace(/[^\x20-\x7e]/g, 'x');
      expect(sha256Hex(text), `length ${length}`).toBe(nodeSha256(text));
    }
    const long = 'a'.repeat(1_000_000);
    expect(sha256Hex(long)).toBe(nodeSha256(long));
    // The padded message's room, grown for the long one, is reused: nothing of it may leak into a short one.
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('a'.repeat(120))).toBe(nodeSha256('a'.repeat(120)));
  });

  it('hashes the UTF-8 bytes of text beyond ASCII, as node:crypto does', () => {
    for (const text of ['é', 'ключ', '鍵🔑', 'sk-\u2026', '\ud83d'])
      expect(sha256Hex(text), text).toBe(nodeSha256(text));
  });
});

describe('the SHA-256 module', () => {
  it('runs in WebAssembly on this Node', () => {
    expect(sha256InWasm()).toBe(true);
  });

  it('is the module assembled from sha256.wat (run `npm run wasm` after editing it), and holds no key shape', async () => {
    const generated = readFileSync(generatedPath('sha256'), 'utf8');
    expect(generated).toBe(wasmSource('sha256', await assemble('sha256')));
    expect(scanText(generated)).toEqual([]);
  });

  it('hashes up to the room of its page in WebAssembly, past it by the rounds in JavaScript, and back', () => {
    // 64,503 bytes and their padding fill the page after the message's offset; a text is sent there when even
    // three bytes for each of its units would fit: 21,501 units.
    for (const text of ['k'.repeat(21_501), '\u20ac'.repeat(21_501), 'k'.repeat(21_502), '\u20ac'.repeat(30_000)])
      expect(sha256(text), `${text.length} × ${text[0]}`).toBe(nodeSha256(text));
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('fingerprintWith', () => {
  it("gives the fingerprints node:crypto gives: the CLI's and the editor's agree", () => {
    const keys = [routerKey(), directKey(), ` ${routerKey()}\n`];
    const byCrypto = keys.map(fingerprint);
    fingerprintWith(sha256);
    expect(keys.map(fingerprint)).toEqual(byCrypto);
  });
});
