// The one filter for disk: nothing key-shaped, and not the stored key of any shape.
import { describe, expect, it } from 'vitest';
import { maskKeys, scrubForDisk } from '../../../src/core/guards/persistFilter.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

describe('the filter for disk', () => {
  it('masks keys of both services, on a keyward-ignore line too, and the stored key whatever its shape', () => {
    const [router, direct] = [routerKey(), directKey('proj')];
    const odd = ['custom', 'token', 'Zq8'.repeat(8)].join('_');
    const text = `a ${router} b\nx = "${direct}" // keyward-ignore\nstored: ${odd}\n`;
    const out = maskKeys(text, { known: [{ value: odd, service: 'router' }] });
    for (const key of [router, direct, odd]) expect(out).not.toContain(key);
    expect(out).toBe(
      `a sk-or-v1-…${router.slice(-4)} b\nx = "sk-proj-…${direct.slice(-4)}" // keyward-ignore\nstored: cus…${odd.slice(-4)}\n`,
    );
  });

  it('masks key-shaped values the scanner calls fake, and bearer tokens', () => {
    const fake = ['sk', 'or', 'v1', '0'.repeat(64)].join('-');
    expect(maskKeys(`k=${fake}`)).not.toContain(fake);
    expect(maskKeys('Authorization: Bearer abcdefghijklmnop')).toBe('Authorization: Bearer abc…mnop');
  });

  it('rewrites every string of a nested value and leaves the rest alone', () => {
    const key = routerKey();
    const turns = [
      {
        id: 'u1',
        text: `use ${key}`,
        usage: { inputTokens: 3 },
        attachments: [{ fileName: '.env', text: `K=${key}\n` }],
        free: null,
      },
    ];
    const saved = scrubForDisk(turns);
    expect(JSON.stringify(saved)).not.toContain(key);
    expect(saved[0]!.usage).toEqual({ inputTokens: 3 });
    expect(saved[0]!.free).toBeNull();
    expect(turns[0]!.text).toContain(key);
  });
});
