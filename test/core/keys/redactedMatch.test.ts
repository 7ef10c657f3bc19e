// Matching a found key to the redacted form a key list shows, in every form the spec and other clients show.
import { describe, expect, it } from 'vitest';
import { keysMatching, matchRedacted, redactedParts } from '../../../src/core/keys/redactedMatch.ts';
import { directKey } from '../../emulator/keyFactory.ts';

describe('matchRedacted', () => {
  it("reads the spec's examples: a head, three dots, a tail", () => {
    const key = `sk-abc${'x'.repeat(40)}def`;
    expect(redactedParts('sk-abc...def')).toEqual({ head: 'sk-abc', tail: 'def' });
    expect(matchRedacted(key, 'sk-abc...def')).toBe(true);
    expect(matchRedacted(key, 'sk-abd...def')).toBe(false);
    expect(matchRedacted(key, 'sk-abc...deg')).toBe(false);
    const admin = directKey('admin');
    expect(matchRedacted(admin, `sk-admin...${admin.slice(-3)}`)).toBe(true);
    expect(matchRedacted(directKey('proj'), `sk-admin...${admin.slice(-3)}`)).toBe(false);
  });

  it('takes the head and tail lengths from the redacted form, with dots, an ellipsis or stars', () => {
    const key = directKey('proj');
    for (const shown of [
      `sk-...${key.slice(-4)}`,
      `sk-proj-...${key.slice(-4)}`,
      `sk-proj…${key.slice(-4)}`,
      `sk-proj-****${key.slice(-4)}`,
      ` ${key.slice(0, 7)}...${key.slice(-3)} `,
    ])
      expect([shown, matchRedacted(` ${key}\n`, shown)]).toEqual([shown, true]);
  });

  it('refuses what is not a redacted key, and a key too short to hold both ends', () => {
    const key = `sk-abc${'x'.repeat(40)}def`;
    for (const shown of ['', 'sk-abcdef', '...def', 'abc...def', 'sk-abc...', 'sk-abc...d e', 'sk-a...b...c'])
      expect([shown, matchRedacted(key, shown)]).toEqual([shown, false]);
    expect(matchRedacted('sk-abcdef', 'sk-abc...def')).toBe(false);
  });

  it('returns every listed key that could be the one, so an ambiguous match is asked about', () => {
    const key = `sk-proj-${'y'.repeat(50)}abc`;
    const listed = [
      { id: 'a', redactedValue: 'sk-proj...abc' },
      { id: 'b', redactedValue: 'sk-proj...xyz' },
      { id: 'c', redactedValue: 'sk-proj...abc' },
    ];
    expect(keysMatching(key, listed).map((k) => k.id)).toEqual(['a', 'c']);
    expect(keysMatching(key, listed.slice(0, 2)).map((k) => k.id)).toEqual(['a']);
  });
});
