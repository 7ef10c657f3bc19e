import { describe, expect, it } from 'vitest';
import { FreeModelGuard } from '../../../src/core/wire/freeGuard.ts';

function clock(start: string) {
  let now = Date.parse(start);
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('free-model guard', () => {
  it('starts from the key check and counts its own requests since', () => {
    const c = clock('2026-11-21T10:00:00Z');
    const guard = new FreeModelGuard(c.now);
    expect(guard.status()).toMatchObject({ used: 0, limit: null, remaining: null });
    guard.updateFromKeyCheck({ used: 12, limit: 50, remaining: 38 });
    guard.recordFreeRequest();
    expect(guard.status()).toMatchObject({
      used: 13,
      limit: 50,
      remaining: 37,
      resetsAt: Date.parse('2026-11-22T00:00:00Z'),
    });
    guard.updateFromKeyCheck({ used: 20, limit: 1000, remaining: 980 });
    expect(guard.status()).toMatchObject({ used: 20, limit: 1000 });
  });

  it('resets the count at UTC midnight', () => {
    const c = clock('2026-11-21T23:59:00Z');
    const guard = new FreeModelGuard(c.now);
    guard.updateFromKeyCheck({ used: 50, limit: 50, remaining: 0 });
    c.advance(61_000);
    expect(guard.status()).toMatchObject({ used: 0, remaining: 50 });
  });

  it('asks to wait until the oldest of the last 20 requests leaves the minute window', () => {
    const c = clock('2026-11-21T10:00:00Z');
    const guard = new FreeModelGuard(c.now);
    for (let i = 0; i < 20; i++) {
      expect(guard.delayBeforeFreeRequest()).toBe(0);
      guard.recordFreeRequest();
      c.advance(1000);
    }
    expect(guard.delayBeforeFreeRequest()).toBe(40_000);
    c.advance(40_000);
    expect(guard.delayBeforeFreeRequest()).toBe(0);
  });

  it('marks the day used up on a daily 429, and tells listeners', () => {
    const guard = new FreeModelGuard(clock('2026-11-21T10:00:00Z').now);
    const seen: number[] = [];
    guard.onDidChange((s) => seen.push(s.used));
    guard.updateFromKeyCheck({ used: 40, limit: 50, remaining: 10 });
    guard.markDayExhausted();
    expect(guard.status().remaining).toBe(0);
    expect(seen).toEqual([40, 50]);
  });
});

describe('free-model guard: the count shown', () => {
  it("never counts past the day's limit, whatever the key check said or the guard counted since", () => {
    const guard = new FreeModelGuard(() => Date.parse('2026-11-21T10:00:00Z'));
    guard.updateFromKeyCheck({ used: 1000, limit: 1000, remaining: 0 });
    guard.recordFreeRequest();
    expect(guard.status()).toMatchObject({ used: 1000, limit: 1000, remaining: 0 });
    guard.updateFromKeyCheck({ used: 1001, limit: 1000, remaining: 0 });
    expect(guard.status()).toMatchObject({ used: 1000, remaining: 0 });
  });
});
