// The shapes are defined once: the Set Key check and the scanner must agree on every
// documented shape, and the two maskers (panel and redactor) must be the same masker.
import { describe, expect, it } from 'vitest';
import { directKeyKind } from '../../src/core/keys/keyFormats.ts';
import { redactSecrets } from '../../src/core/redact.ts';
import { classifyToken } from '../../src/core/scan/rules.ts';
import { keyMaskOf, maskKey, maskKeyShapes, maskKnownKeys } from '../../src/shared/keyShapes.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';

describe('one definition of key shapes', () => {
  it('the scanner finds every shape the Set Key check accepts as a documented key', () => {
    expect(classifyToken(routerKey())).toBe('router-key');
    for (const kind of ['proj', 'svcacct', 'admin'] as const) {
      const key = directKey(kind);
      expect(directKeyKind(key)).toBeDefined();
      // An admin key is found under its own rule (issue 33): it manages the organization.
      expect(classifyToken(key)).toBe(kind === 'admin' ? 'direct-admin-key' : 'direct-key');
    }
    const legacy = directKey('legacy');
    expect(directKeyKind(legacy)).toBe('legacy user');
    expect(classifyToken(legacy)).toBe('direct-key-legacy');
  });

  it('the panel masks what the redactor masks, and leaves an already masked bearer token alone', () => {
    const key = routerKey();
    const texts = [
      `Authorization: Bearer ${key}`,
      `{"error":"bad key ${directKey('proj')}"}`,
      `Authorization: Bearer sk-or-v1-…${key.slice(-4)}`,
      'Bearer opaque-token-12345678',
    ];
    for (const text of texts) expect(maskKeyShapes(text)).toBe(redactSecrets(text));
    expect(maskKeyShapes(texts[2]!)).toBe(texts[2]);
  });
});

describe('maskKnownKeys: a stored key masked by its mask alone', () => {
  it('masks every run of the length between the ends, side by side too, and leaves other text alone', () => {
    const key = `abc${'x'.repeat(20)}wxyz`;
    const mask = keyMaskOf(maskKey(key), key.length)!;
    expect(mask).toEqual({ prefix: 'abc', suffix: 'wxyz', length: key.length });
    expect(maskKnownKeys(`${key}${key} "${key}"`, [mask])).toBe('abc…wxyzabc…wxyz "abc…wxyz"');
    expect(maskKnownKeys(`abc${'x'.repeat(19)}wxyz abc`, [mask])).toBe(`abc${'x'.repeat(19)}wxyz abc`);
  });

  it('masks nothing with a descriptor whose ends are empty or longer than the key', () => {
    expect(maskKnownKeys('anything', [{ prefix: '', suffix: '', length: 3 }])).toBe('anything');
    expect(maskKnownKeys('abcd', [{ prefix: 'abc', suffix: 'bcd', length: 4 }])).toBe('abcd');
    expect(keyMaskOf('no ellipsis', 10)).toBeUndefined();
  });
});
