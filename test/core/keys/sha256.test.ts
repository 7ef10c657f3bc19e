// The CLI's own SHA-256 (src/core/keys/sha256.ts) against the standard's examples and node:crypto: a fingerprint
// the CLI prints must be the one the editor, a baseline and an ignore file hold for the same key.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprint, fingerprintWith } from '../../../src/core/keys/fingerprint.ts';
import { sha256Hex } from '../../../src/core/keys/sha256.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
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

describe('fingerprintWith', () => {
  it("gives the fingerprints node:crypto gives: the CLI's and the editor's agree", () => {
    const keys = [routerKey(), directKey(), ` ${routerKey()}\n`];
    const byCrypto = keys.map(fingerprint);
    fingerprintWith(sha256Hex);
    expect(keys.map(fingerprint)).toEqual(byCrypto);
  });
});
