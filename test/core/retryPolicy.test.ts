import { describe, expect, it } from 'vitest';
import type { ErrorKind } from '../../src/shared/errorKinds.ts';
import { ERROR_KINDS } from '../../src/shared/errorKinds.ts';
import { ServiceError } from '../../src/core/errors.ts';
import { DEFAULT_RETRY_POLICY, emptyHistory, recordRetry, retryDelayMs } from '../../src/core/retryPolicy.ts';

const error = (kind: ErrorKind, retryAfterSeconds: number | null = null, shouldRetry: boolean | null = null) =>
  new ServiceError({ kind, service: 'router', message: kind, retryAfterSeconds, shouldRetry });
const policy = { ...DEFAULT_RETRY_POLICY, random: () => 1 };

describe('retry policy', () => {
  it('never retries what waiting cannot fix', () => {
    const never: ErrorKind[] = [
      'auth',
      'permission',
      'insufficient_credits',
      'key_limit',
      'credit_exhausted',
      'spend_limit',
      'usage_limit',
      'free_limit_day',
      'bad_request',
      'timeout',
      'stream_interrupted',
      'cancelled',
      'insecure_url',
      'moderation',
      'region',
      'redirected',
      'response_too_large',
      'response_chain_lost',
      'certificate',
    ];
    for (const kind of never) expect(retryDelayMs(error(kind), emptyHistory(), policy)).toBeUndefined();
    const retried = ERROR_KINDS.filter((k) => !never.includes(k));
    expect(retried.sort()).toEqual(['free_limit_minute', 'in_flight_budget', 'network', 'rate_limit', 'server']);
  });

  it('backs off exponentially with jitter, bounded in count and size', () => {
    const history = emptyHistory();
    const delays: number[] = [];
    for (;;) {
      const delay = retryDelayMs(error('server'), history, policy);
      if (delay === undefined) break;
      delays.push(delay);
      recordRetry(error('server'), history, delay);
    }
    expect(delays).toEqual([375, 750, 1500]);
    expect(retryDelayMs(error('network'), emptyHistory(), { ...policy, random: () => 0, maxRetries: 10 })).toBe(500);
    const late = { ...emptyHistory(), transient: 6 };
    expect(retryDelayMs(error('rate_limit'), late, { ...policy, random: () => 0, maxRetries: 10 })).toBe(8000);
  });

  it('honours a service hint up to a minute', () => {
    expect(retryDelayMs(error('rate_limit', 20), emptyHistory(), policy)).toBe(20_000);
    expect(retryDelayMs(error('rate_limit', 600), emptyHistory(), policy)).toBe(375);
  });

  it('waits Retry-After for in_flight_budget, and the window for free_limit_minute, within the total cap', () => {
    expect(retryDelayMs(error('in_flight_budget', 7), emptyHistory(), policy)).toBe(7000);
    expect(retryDelayMs(error('in_flight_budget'), emptyHistory(), policy)).toBe(2000);
    expect(retryDelayMs(error('free_limit_minute', 42), emptyHistory(), policy)).toBe(42_000);
    expect(
      retryDelayMs(error('in_flight_budget', 120), { ...emptyHistory(), waitedMs: 100_000 }, policy),
    ).toBeUndefined();
  });

  // openai-node src/client.ts shouldRetry(): "If the server explicitly says whether or not to retry, obey."
  it('obeys x-should-retry before its own rules, within the same bounds', () => {
    expect(retryDelayMs(error('server', null, false), emptyHistory(), policy)).toBeUndefined();
    expect(retryDelayMs(error('in_flight_budget', 3, false), emptyHistory(), policy)).toBeUndefined();
    expect(retryDelayMs(error('bad_request', null, true), emptyHistory(), policy)).toBe(375);
    expect(retryDelayMs(error('timeout', null, true), { ...emptyHistory(), transient: 3 }, policy)).toBeUndefined();
  });

  it('never sends again what the user stopped, a redirect, a flagged prompt or a refused region, whatever a header says', () => {
    for (const kind of [
      'cancelled',
      'insecure_url',
      'redirected',
      'moderation',
      'region',
      'stream_interrupted',
    ] as const) {
      expect(retryDelayMs(error(kind, null, true), emptyHistory(), policy)).toBeUndefined();
    }
  });
});
