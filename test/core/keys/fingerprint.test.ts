// One fingerprint for the key store, the account monitor, the quick fixes and the scanner:
// a stored key pasted with a trailing newline is still recognised in a file.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/fingerprint.ts';
import { fingerprint as keyFormatsFingerprint } from '../../../src/core/keys/keyFormats.ts';
import { fingerprintOf } from '../../../src/core/scan/scanner.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

describe('fingerprint', () => {
  it('is the same function wherever it is imported from', () => {
    const key = routerKey();
    expect(keyFormatsFingerprint(key)).toBe(fingerprint(key));
    expect(fingerprintOf(key)).toBe(fingerprint(key));
    expect(fingerprintOf(`${key}\n`)).toBe(fingerprint(key));
    expect(fingerprint(key)).toMatch(/^[0-9a-f]{16}$/);
  });

  // Baselines, ignore files and state written by earlier versions name keys by these: they never change. The
  // values are SHA-256's own (FIPS 180-2's "abc" example, the empty string), and UTF-8 text and a long input as
  // every earlier version, with node:crypto or its own hash, made them.
  it('stays byte for byte what earlier versions wrote', () => {
    expect(fingerprint('abc')).toBe('ba7816bf8f01cfea');
    expect(fingerprint('  abc\n')).toBe('ba7816bf8f01cfea');
    expect(fingerprint('')).toBe('e3b0c44298fc1c14');
    expect(fingerprint('é ü 鍵')).toBe('f3b3e1ab25571729');
    expect(fingerprint('a'.repeat(1000))).toBe('41edece42d63e8d9');
  });
});
