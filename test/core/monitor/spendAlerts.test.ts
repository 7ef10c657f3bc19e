// When a key's spending calls for an alert: past the threshold, or far faster than its month's average; once per key,
// reason and UTC day, and never for a key the person ignored today.
import { describe, expect, it } from 'vitest';
import type { ListedKey } from '../../../src/core/keys/accountKeys.ts';
import { alertMark, spendAlerts } from '../../../src/core/monitor/spendAlerts.ts';

const NOW = Date.parse('2026-11-20T15:00:00Z');
const MIN = 60_000;

function key(id: string, todayUsd: number | null, monthUsd: number | null, extra: Partial<ListedKey> = {}): ListedKey {
  return {
    id,
    name: id,
    shown: 'sk-or-v1-abc...def',
    place: null,
    owner: null,
    createdMs: null,
    lastUsedMs: null,
    expiresMs: null,
    disabled: false,
    limitUsd: null,
    remainingUsd: null,
    limitReset: null,
    usageTodayUsd: todayUsd,
    usageMonthUsd: monthUsd,
    inUse: false,
    actions: ['disable', 'set-limit', 'delete'],
    ...extra,
  };
}

const options = (given: string[] = [], thresholdUsd = 5) => ({ thresholdUsd, jumpFactor: 5, given: new Set(given) });

describe('spend alerts', () => {
  it('alerts on a key whose spend today passes the threshold, and not on one under it or disabled', () => {
    const keys = [key('a', 5.2, 30), key('b', 4.99, 30), key('c', 9, 30, { disabled: true })];
    expect(spendAlerts(keys, new Map(), NOW, options()).map((a) => [a.keyId, a.reason])).toEqual([['a', 'threshold']]);
    expect(spendAlerts(keys, new Map(), NOW, options([], 0))).toEqual([]);
  });

  it('alerts on a jump: far above the month so far, by more than noise, since a refresh of the same day', () => {
    // 19 days before today at $1.90: $0.10 a day, under half a cent an hour. Then $3 in 30 minutes.
    const keys = [key('a', 3.2, 5.1)];
    const before = new Map([['a', { atMs: NOW - 30 * MIN, todayUsd: 0.2 }]]);
    const [alert] = spendAlerts(keys, before, NOW, options([], 100));
    expect(alert).toMatchObject({ keyId: 'a', reason: 'jump', todayUsd: 3.2 });
    expect(alert!.rateUsdPerHour).toBeCloseTo(6, 5);
    expect(alert!.usualUsdPerHour!).toBeLessThan(0.01);
    // Under the floor, too soon, or across midnight: nothing.
    expect(spendAlerts([key('a', 0.6, 5.1)], before, NOW, options([], 100))).toEqual([]);
    expect(spendAlerts(keys, new Map([['a', { atMs: NOW - MIN, todayUsd: 0.2 }]]), NOW, options([], 100))).toEqual([]);
    const yesterday = new Map([['a', { atMs: NOW - 16 * 60 * MIN, todayUsd: 0.2 }]]);
    expect(spendAlerts(keys, yesterday, NOW, options([], 100))).toEqual([]);
  });

  it('keeps quiet about what it already said today, and about a key ignored today', () => {
    const keys = [key('a', 6, 30), key('b', 7, 30)];
    const given = [alertMark('a', 'threshold', NOW), alertMark('b', '', NOW)];
    expect(spendAlerts(keys, new Map(), NOW, options(given))).toEqual([]);
    // Tomorrow the marks are yesterday's.
    expect(spendAlerts(keys, new Map(), NOW + 24 * 60 * MIN, options(given))).toHaveLength(2);
  });

  it('has no usual rate in the first day of a month, so only the threshold watches then', () => {
    const early = Date.parse('2026-11-01T10:00:00Z');
    const before = new Map([['a', { atMs: early - 30 * MIN, todayUsd: 0 }]]);
    expect(spendAlerts([key('a', 3, 3)], before, early, options([], 100))).toEqual([]);
  });
});
