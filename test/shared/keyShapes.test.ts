// The shapes are defined once: the Set Key check and the scanner must agree on every
// documented shape, and the two maskers (panel and redactor) must be the same masker.
import { describe, expect, it } from 'vitest';
import { directKeyKind } from '../../src/core/keyFormats.ts';
import { redactSecrets } from '../../src/core/redact.ts';
import { classifyToken } from '../../src/core/scan/rules.ts';
import { maskKeyShapes } from '../../src/shared/keyShapes.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';

describe('one definition of key shapes', () => {
  it('the scanner finds every shape the Set Key check accepts as a documented key', () => {
    expect(classifyToken(routerKey())).toBe('router-key');
    for (const kind of ['proj', 'svcacct', 'admin'] as const) {
      const key = directKey(kind);
      expect(directKeyKind(key)).toBeDefined();
      expect(classifyToken(key)).toBe('direct-key');
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
