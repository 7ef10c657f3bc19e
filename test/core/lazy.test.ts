import { describe, expect, it } from 'vitest';
import { lazy } from '../../src/core/lazy.ts';

describe('lazy', () => {
  it('makes its value on the first call only, even when the value is undefined', () => {
    let calls = 0;
    const value = lazy(() => {
      calls++;
      return undefined;
    });
    expect(value()).toBeUndefined();
    expect(value()).toBeUndefined();
    expect(calls).toBe(1);
  });

  it('keeps nothing when making throws', () => {
    let calls = 0;
    const value = lazy(() => {
      if (++calls === 1) throw new Error('not yet');
      return calls;
    });
    expect(() => value()).toThrow('not yet');
    expect(value()).toBe(2);
    expect(value()).toBe(2);
  });
});
