import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, type ErrorKind } from '../../src/shared/errorKinds.ts';
import { ERROR_KIND_RULES, errorKindRule } from '../../src/shared/errorKindRules.ts';
import { ServiceError } from '../../src/core/errors.ts';
import { DEFAULT_RETRY_POLICY, emptyHistory, recordRetry, retryDelayMs } from '../../src/core/retryPolicy.ts';

const policy = { ...DEFAULT_RETRY_POLICY, random: () => 0 };
const delay = (kind: ErrorKind, shouldRetry: boolean | null, retryAfterSeconds: number | null = null) =>
  retryDelayMs(
    new ServiceError({ kind, service: 'router', message: kind, shouldRetry, retryAfterSeconds }),
    emptyHistory(),
    policy,
  );

// The retry behaviour before the table, kind by kind: the first delay (ms) with no
// header, with `x-should-retry: true`, and with `x-should-retry: false`.
const BEFORE: Record<ErrorKind, [number | undefined, number | undefined, number | undefined]> = {
  auth: [undefined, 500, undefined],
  permission: [undefined, 500, undefined],
  insufficient_credits: [undefined, 500, undefined],
  key_limit: [undefined, 500, undefined],
  in_flight_budget: [2000, 2000, undefined],
  free_limit_minute: [60_000, 60_000, undefined],
  free_limit_day: [undefined, 500, undefined],
  rate_limit: [500, 500, undefined],
  credit_exhausted: [undefined, 500, undefined],
  spend_limit: [undefined, 500, undefined],
  usage_limit: [undefined, 500, undefined],
  bad_request: [undefined, 500, undefined],
  server: [500, 500, undefined],
  network: [500, 500, undefined],
  timeout: [undefined, 500, undefined],
  stream_interrupted: [undefined, undefined, undefined],
  cancelled: [undefined, undefined, undefined],
  insecure_url: [undefined, undefined, undefined],
  moderation: [undefined, undefined, undefined],
  region: [undefined, undefined, undefined],
  redirected: [undefined, undefined, undefined],
  response_too_large: [undefined, 500, undefined],
  response_chain_lost: [undefined, undefined, undefined],
  // Issue 31: a refused certificate is never sent again as it is, whatever a header says.
  certificate: [undefined, undefined, undefined],
};

describe('error kinds as data', () => {
  it('has one row for every kind and nothing else', () => {
    expect(Object.keys(ERROR_KIND_RULES).sort()).toEqual([...ERROR_KINDS].sort());
    for (const kind of ERROR_KINDS) expect(errorKindRule(kind).title.length).toBeGreaterThan(0);
  });

  it.each(ERROR_KINDS)('retries %s as before', (kind) => {
    expect([delay(kind, null), delay(kind, true), delay(kind, false)]).toEqual(BEFORE[kind]);
  });

  it('keeps the Retry-After clamps and the separate budgets', () => {
    expect(delay('free_limit_minute', null, 600)).toBe(65_000);
    expect(delay('free_limit_minute', null, 0)).toBe(1000);
    expect(delay('in_flight_budget', null, 7)).toBe(7000);
    const history = emptyHistory();
    const inFlight = new ServiceError({ kind: 'in_flight_budget', service: 'router', message: 'x' });
    const minute = new ServiceError({ kind: 'free_limit_minute', service: 'router', message: 'x' });
    const server = new ServiceError({ kind: 'server', service: 'router', message: 'x' });
    recordRetry(inFlight, history, 1);
    recordRetry(minute, history, 1);
    recordRetry(server, history, 1);
    expect(history).toEqual({ transient: 1, inFlight: 1, freeMinute: 1, waitedMs: 3 });
  });

  it('has one transient list: the kinds the monitor, the status bar and the backoff all treated as passing', () => {
    const transient = ERROR_KINDS.filter((kind) => errorKindRule(kind).transient);
    // A refused certificate says nothing about the key either: checks keep what they knew and back off.
    expect(transient.sort()).toEqual(['certificate', 'network', 'rate_limit', 'server', 'timeout']);
    for (const kind of ERROR_KINDS)
      if (errorKindRule(kind).retry.when === 'backoff') expect(errorKindRule(kind).transient, kind).toBe(true);
  });

  it('offers Send again only for transient kinds, and never for one a person must fix first', () => {
    const offered = ERROR_KINDS.filter((kind) => errorKindRule(kind).buttons.some((b) => b.action === 'retry'));
    expect(offered.length).toBeGreaterThan(0);
    // response_chain_lost is the one exception: Send again does not repeat the request, it drops the stored chain
    // and sends the visible history (issue 21 item 7).
    for (const kind of offered)
      if (kind !== 'response_chain_lost') expect(errorKindRule(kind).transient, kind).toBe(true);
  });

  it('leaves the status bar alone only for a stop and a broken-off answer', () => {
    expect(ERROR_KINDS.filter((kind) => errorKindRule(kind).status === 'keep').sort()).toEqual([
      'cancelled',
      'stream_interrupted',
    ]);
  });
});

describe('the language-model error column', () => {
  it('names the LanguageModelError each kind becomes for vscode.lm callers, as the switch on kind names did', () => {
    const mapped = Object.fromEntries(
      ERROR_KINDS.flatMap((kind) => {
        const rule = errorKindRule(kind).languageModelError;
        return rule ? [[kind, rule]] : [];
      }),
    );
    expect(mapped).toEqual({
      auth: { as: 'NoPermissions' },
      permission: { as: 'NoPermissions' },
      bad_request: { as: 'NotFound', status: 404 },
      moderation: { as: 'Blocked' },
      region: { as: 'Blocked' },
    });
  });
});
