// When a key's spending calls for a person's attention, judged from the account's key list at each status refresh:
// a key whose spend today passes the threshold the person set (keyward.router.spendAlertUsd), or one spending far
// faster than it usually does (a leaked key at work looks like this first). Keyward's own daily cap protects only
// what Keyward spends; this watches everyone else using the key. Pure: the watch (accountWatch.ts) keeps the samples
// and the alerts already given.
import type { ListedKey } from '../keys/accountKeys.ts';

/** A key's spend today at one refresh. */
export interface UsageSample {
  atMs: number;
  todayUsd: number;
}

export interface SpendAlert {
  keyId: string;
  reason: 'threshold' | 'jump';
  todayUsd: number;
  thresholdUsd: number;
  /** For a jump: USD an hour since the last refresh, against the month's average. */
  rateUsdPerHour: number | null;
  usualUsdPerHour: number | null;
}

export interface SpendAlertOptions {
  /** 0: no threshold alert. */
  thresholdUsd: number;
  /** A key spending more than this many times its usual hourly rate is alerted on. */
  jumpFactor: number;
  /** `${keyId}:${reason}:${utcDay}` already alerted on, or `${keyId}::${utcDay}` ignored for the day. */
  given: ReadonlySet<string>;
}

const HOUR = 3_600_000;
/** A jump smaller than this in dollars is noise (a few requests), however fast it is. */
const JUMP_FLOOR_USD = 0.5;
/** Below this span between two refreshes a rate says little. */
const MIN_SPAN_MS = 5 * 60_000;

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The mark that silences `reason` for `keyId` for the UTC day of `nowMs` (no reason: every reason). */
export const alertMark = (keyId: string, reason: SpendAlert['reason'] | '', nowMs: number) =>
  `${keyId}:${reason}:${utcDay(nowMs)}`;

function monthStart(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

/** The key's usual hourly spend: this month's usage before today, over the hours it took. Null without history. */
function usualRate(key: ListedKey, nowMs: number): number | null {
  if (key.usageMonthUsd === null || key.usageTodayUsd === null) return null;
  const today = Date.parse(`${utcDay(nowMs)}T00:00:00Z`);
  const hours = (today - monthStart(nowMs)) / HOUR;
  if (hours < 24) return null;
  return Math.max(0, key.usageMonthUsd - key.usageTodayUsd) / hours;
}

function jumpOf(key: ListedKey, before: UsageSample | undefined, nowMs: number, factor: number): SpendAlert | null {
  if (!before || key.usageTodayUsd === null || utcDay(before.atMs) !== utcDay(nowMs)) return null;
  const span = nowMs - before.atMs;
  const spent = key.usageTodayUsd - before.todayUsd;
  if (span < MIN_SPAN_MS || spent < JUMP_FLOOR_USD) return null;
  const rate = spent / (span / HOUR);
  const usual = usualRate(key, nowMs);
  // A key with no history yet has no usual rate to jump from; the threshold still watches it.
  if (usual === null || rate <= factor * usual) return null;
  return {
    keyId: key.id,
    reason: 'jump',
    todayUsd: key.usageTodayUsd,
    thresholdUsd: 0,
    rateUsdPerHour: rate,
    usualUsdPerHour: usual,
  };
}

/** The alerts this refresh calls for, once per key, reason and UTC day. */
export function spendAlerts(
  keys: readonly ListedKey[],
  before: ReadonlyMap<string, UsageSample>,
  nowMs: number,
  options: SpendAlertOptions,
): SpendAlert[] {
  const alerts: SpendAlert[] = [];
  const quiet = (id: string, reason: SpendAlert['reason']) =>
    options.given.has(alertMark(id, reason, nowMs)) || options.given.has(alertMark(id, '', nowMs));
  for (const key of keys) {
    if (key.disabled || key.usageTodayUsd === null) continue;
    const jump = jumpOf(key, before.get(key.id), nowMs, options.jumpFactor);
    if (jump && !quiet(key.id, 'jump')) alerts.push({ ...jump, thresholdUsd: options.thresholdUsd });
    else if (options.thresholdUsd > 0 && key.usageTodayUsd >= options.thresholdUsd && !quiet(key.id, 'threshold'))
      alerts.push({
        keyId: key.id,
        reason: 'threshold',
        todayUsd: key.usageTodayUsd,
        thresholdUsd: options.thresholdUsd,
        rateUsdPerHour: null,
        usualUsdPerHour: null,
      });
  }
  return alerts;
}
