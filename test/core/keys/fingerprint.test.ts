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
});
