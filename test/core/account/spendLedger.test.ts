// The daily spend ledger behind keyward.spend.dailyCapUsd: the cost each answer reports, summed across services,
// a new total each UTC day (as the routing service's usage_daily and free count reset), and the cap's setting,
// which a workspace may set or lower but never raise (the rule of the other guarded settings).
import { describe, expect, it } from 'vitest';
import { guardedValue, normalizeConfig } from '../../../src/core/config.ts';
import { type SpendDay, SpendLedger, usd } from '../../../src/core/account/spendLedger.ts';
import { reserveSpend } from '../../../src/core/account/spendReservation.ts';

function memory(initial?: unknown) {
  let stored: unknown = initial;
  const writes: SpendDay[] = [];
  return {
    port: {
      get: () => stored,
      set: async (value: SpendDay) => {
        await Promise.resolve();
        stored = value;
        writes.push(value);
      },
    },
    writes,
    stored: () => stored,
  };
}

const at = (iso: string) => Date.parse(iso);

describe('SpendLedger', () => {
  it('sums the cost each answer reports across services; an unreported cost adds nothing', async () => {
    const store = memory();
    const ledger = new SpendLedger(store.port, () => at('2026-11-25T10:00:00Z'));
    await ledger.record('router', 0.25);
    await ledger.record('direct', 0.5);
    await ledger.record('router', 0.125);
    await ledger.record('direct', null);
    await ledger.record('compatible', undefined);
    await ledger.record('router', Number.NaN);
    await ledger.record('router', -3);
    expect(ledger.today()).toEqual({
      day: '2026-11-25',
      totalUsd: 0.875,
      byService: { router: 0.375, direct: 0.5 },
    });
    expect(store.writes).toHaveLength(3);
  });

  it('answers ending together are all counted', async () => {
    const ledger = new SpendLedger(memory().port, () => at('2026-11-25T10:00:00Z'));
    await Promise.all(Array.from({ length: 20 }, () => ledger.record('router', 0.5)));
    expect(ledger.today().totalUsd).toBe(10);
  });

  it('starts again at zero on the next UTC day, and keeps nothing of yesterday', async () => {
    let now = at('2026-11-25T23:59:59Z');
    const store = memory();
    const ledger = new SpendLedger(store.port, () => now);
    await ledger.record('router', 4);
    expect(ledger.reached(3)).toBe(true);
    now = at('2026-11-26T00:00:01Z');
    expect(ledger.today()).toEqual({ day: '2026-11-26', totalUsd: 0, byService: {} });
    expect(ledger.reached(3)).toBe(false);
    await ledger.record('direct', 1);
    expect(store.stored()).toEqual({ day: '2026-11-26', totalUsd: 1, byService: { direct: 1 } });
  });

  it('is reached at the cap, never without one, and at once with a cap of 0', async () => {
    const ledger = new SpendLedger(memory().port, () => at('2026-11-25T10:00:00Z'));
    expect(ledger.reached(null)).toBe(false);
    expect(ledger.reached(0)).toBe(true);
    await ledger.record('router', 1.5);
    expect(ledger.reached(2)).toBe(false);
    await ledger.record('router', 0.5);
    expect(ledger.reached(2)).toBe(true);
    expect(ledger.reached(null)).toBe(false);
  });

  it('reads a damaged stored day as nothing spent, without throwing', () => {
    const now = () => at('2026-11-25T10:00:00Z');
    for (const junk of [null, 'x', 42, { day: '2026-11-25', totalUsd: 'lots' }, { day: 7, totalUsd: 1 }])
      expect(new SpendLedger(memory(junk).port, now).today().totalUsd).toBe(0);
    const partly = new SpendLedger(
      memory({ day: '2026-11-25', totalUsd: 2, byService: { router: 2, direct: 'x' } }).port,
      now,
    );
    expect(partly.today()).toEqual({ day: '2026-11-25', totalUsd: 2, byService: { router: 2 } });
  });

  it('reserves an estimate in one step with the check: once the held estimates reach the cap, no more pass', async () => {
    const ledger = new SpendLedger(memory().port, () => at('2026-11-25T10:00:00Z'));
    const first = reserveSpend(ledger, 1, 0.6, 'router', 'ext.a')!;
    const second = reserveSpend(ledger, 1, 0.6, 'router', 'ext.b')!;
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    // 1.2 held: the cap is reached before anything is written.
    expect(reserveSpend(ledger, 1, 0.01, 'router')).toBeUndefined();
    expect(ledger.reached(1)).toBe(true);
    await first.settle(0.1);
    second.release();
    expect(ledger.committed()).toBeCloseTo(0.1);
    expect(ledger.today()).toMatchObject({ totalUsd: 0.1, byCaller: { 'ext.a': 0.1 } });
    expect(reserveSpend(ledger, 1, 0.5, 'router')).toBeDefined();
  });

  it('an unknown estimate holds all that is left below the cap; a settled cost stays held until it is written', async () => {
    const store = memory();
    const ledger = new SpendLedger(store.port, () => at('2026-11-25T10:00:00Z'));
    await ledger.record('router', 0.25);
    const unknown = reserveSpend(ledger, 1, Number.POSITIVE_INFINITY, 'router')!;
    expect(ledger.committed()).toBeCloseTo(1);
    expect(reserveSpend(ledger, 1, 0, 'router')).toBeUndefined();
    const writing = unknown.settle(0.5);
    expect(ledger.committed()).toBeCloseTo(0.75);
    await writing;
    expect(ledger.committed()).toBeCloseTo(0.75);
    expect(ledger.today().totalUsd).toBeCloseTo(0.75);
  });

  it('shows cents, and up to six places under a cent', () => {
    expect(usd(0)).toBe('$0.00');
    expect(usd(1.234)).toBe('$1.23');
    expect(usd(0.00123)).toBe('$0.00123');
    expect(usd(0.000005)).toBe('$0.000005');
  });
});

describe('keyward.spend.dailyCapUsd', () => {
  const read = (values: Record<string, unknown>) => (name: string) => values[name];

  it('is off by default, takes a number of dollars, and names a bad value', () => {
    expect(normalizeConfig(read({})).config.spend.dailyCapUsd).toBeNull();
    expect(normalizeConfig(read({ 'spend.dailyCapUsd': 2.5 })).config.spend.dailyCapUsd).toBe(2.5);
    const bad = normalizeConfig(read({ 'spend.dailyCapUsd': -1 }));
    expect(bad.config.spend.dailyCapUsd).toBeNull();
    expect(bad.problems).toEqual([
      { setting: 'keyward.spend.dailyCapUsd', message: 'must be a number of US dollars, 0 or more' },
    ]);
  });

  it('a workspace may set a cap or lower the user’s, never raise or lift it', () => {
    expect(guardedValue('spend.dailyCapUsd', { workspaceValue: 3 })).toBe(3);
    expect(guardedValue('spend.dailyCapUsd', { globalValue: 5, workspaceValue: 2 })).toBe(2);
    expect(guardedValue('spend.dailyCapUsd', { globalValue: 5, workspaceValue: 50 })).toBe(5);
    expect(guardedValue('spend.dailyCapUsd', { globalValue: 5, workspaceValue: null })).toBe(5);
    expect(guardedValue('spend.dailyCapUsd', { globalValue: 5, workspaceValue: 'none' })).toBe(5);
    expect(guardedValue('spend.dailyCapUsd', { globalValue: 5, workspaceFolderValue: 1 })).toBe(1);
  });
});
