// When a failed request is sent again, and after how long: each kind's rule is
// in shared/errorKindRules.ts, the counts and the total wait are bounded here.
// The service's own `x-should-retry` header, where sent, decides first (as the
// official SDK does).
import { errorKindRule } from '../shared/errorKindRules.ts';
import type { ServiceError } from './errors.ts';

export interface RetryPolicy {
  /** Retries of rate_limit, server and network failures. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Waits for in_flight_budget (Retry-After each time). */
  maxInFlightRetries: number;
  /** Waits for the free-model minute window. */
  maxFreeMinuteRetries: number;
  /** All waits of one request together. */
  maxTotalWaitMs: number;
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxInFlightRetries: 5,
  maxFreeMinuteRetries: 2,
  maxTotalWaitMs: 150_000,
  random: Math.random,
};

export const NO_RETRY: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  maxRetries: 0,
  maxInFlightRetries: 0,
  maxFreeMinuteRetries: 0,
};

/** How many earlier retries of each family one request has had. */
export interface RetryHistory {
  transient: number;
  inFlight: number;
  freeMinute: number;
  waitedMs: number;
}

export function emptyHistory(): RetryHistory {
  return { transient: 0, inFlight: 0, freeMinute: 0, waitedMs: 0 };
}

/** Milliseconds to wait before the next attempt, or undefined to give up and report the error. */
export function retryDelayMs(error: ServiceError, history: RetryHistory, policy: RetryPolicy): number | undefined {
  const rule = errorKindRule(error.kind).retry;
  if (error.shouldRetry === false || rule.when === 'never') return undefined;
  let delay: number | undefined;
  switch (rule.when) {
    case 'retryAfter': {
      const [used, max] =
        rule.budget === 'inFlight'
          ? [history.inFlight, policy.maxInFlightRetries]
          : [history.freeMinute, policy.maxFreeMinuteRetries];
      if (used >= max) return undefined;
      const seconds = error.retryAfterSeconds ?? rule.defaultSeconds;
      delay =
        (rule.clampSeconds ? Math.min(rule.clampSeconds[1], Math.max(rule.clampSeconds[0], seconds)) : seconds) * 1000;
      break;
    }
    case 'backoff':
      delay = transientDelay(error, history, policy);
      break;
    case 'serviceSays':
      if (error.shouldRetry !== true) return undefined;
      delay = transientDelay(error, history, policy);
  }
  if (delay === undefined || history.waitedMs + delay > policy.maxTotalWaitMs) return undefined;
  return Math.round(delay);
}

/** Bounded exponential backoff with jitter, or the service's hint when it is at most a minute. */
function transientDelay(error: ServiceError, history: RetryHistory, policy: RetryPolicy): number | undefined {
  if (history.transient >= policy.maxRetries) return undefined;
  const hinted = error.retryAfterSeconds;
  if (hinted !== null && hinted >= 0 && hinted <= 60) return hinted * 1000;
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** history.transient);
  return exponential * (1 - 0.25 * policy.random());
}

export function recordRetry(error: ServiceError, history: RetryHistory, delayMs: number): void {
  history.waitedMs += delayMs;
  const rule = errorKindRule(error.kind).retry;
  if (rule.when === 'retryAfter') history[rule.budget] += 1;
  else history.transient += 1;
}
