// When a failed request is sent again, and after how long. Bounded in count and
// total wait; never for errors that waiting cannot fix. The service's own
// `x-should-retry` header, where sent, decides first (as the official SDK does).
import type { ErrorKind } from '../shared/errorKinds.ts';
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

/**
 * Never sent again, whatever a header says: a stop the user asked for, a key
 * that would leave in clear text or follow a redirect, a prompt a moderator
 * refused, and a region the service's terms say may get the account blocked.
 */
const NEVER: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'cancelled',
  'insecure_url',
  'redirected',
  'moderation',
  'region',
  'stream_interrupted',
]);

/** Milliseconds to wait before the next attempt, or undefined to give up and report the error. */
export function retryDelayMs(error: ServiceError, history: RetryHistory, policy: RetryPolicy): number | undefined {
  if (error.shouldRetry === false || NEVER.has(error.kind)) return undefined;
  let delay: number | undefined;
  switch (error.kind) {
    case 'in_flight_budget':
      if (history.inFlight >= policy.maxInFlightRetries) return undefined;
      delay = (error.retryAfterSeconds ?? 2) * 1000;
      break;
    case 'free_limit_minute':
      if (history.freeMinute >= policy.maxFreeMinuteRetries) return undefined;
      delay = Math.min(65, Math.max(1, error.retryAfterSeconds ?? 60)) * 1000;
      break;
    case 'rate_limit':
    case 'server':
    case 'network':
      delay = transientDelay(error, history, policy);
      break;
    default:
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
  if (error.kind === 'in_flight_budget') history.inFlight += 1;
  else if (error.kind === 'free_limit_minute') history.freeMinute += 1;
  else history.transient += 1;
}
