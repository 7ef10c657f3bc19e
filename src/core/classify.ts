// Turns what a service sent back into the shared error language, following the
// wire facts: status, error.code/type, metadata.reason/limit_source, message
// text and headers. Every service text passes through the redactor.
import type { ErrorKind } from '../shared/errorKinds.ts';
import { ServiceError } from './errors.ts';
import { type Json, obj as asObject, parseObject as parseJson } from './json.ts';
import { redactSecrets } from './redact.ts';
import { parseGoDuration, parseRateLimitReset, parseRetryAfter } from './waitTimes.ts';

export interface FailedResponse {
  status: number;
  /** The body as text (it may be HTML, or empty). */
  text: string;
  header(name: string): string | undefined;
  now: number;
  /** Secrets to mask in anything echoed back (the caller's key). */
  secrets: readonly string[];
}


function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function statusKind(status: number): ErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 402) return 'insufficient_credits';
  if (status === 408 || status === 524) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'bad_request';
}

function fallbackMessage(status: number, text: string): string {
  const title = /<title>([^<]{1,120})<\/title>/i.exec(text)?.[1];
  return title ? `The service answered ${status} (${title.trim()}) instead of JSON.` : `The service answered HTTP ${status}.`;
}

const FUNDED_FREE_DAY_ACTION = 'Today\'s 1,000 free-model requests (UTC), the highest free allowance, are used up. Wait for the reset at UTC midnight, or use the paid version of the model.';

/** A routing-service error object ({code, message, metadata}) from a body, a 200 body or a stream chunk. */
export function classifyRouterError(error: Json, status: number, response: Pick<FailedResponse, 'header' | 'now' | 'secrets'>): ServiceError {
  const metadata = asObject(error.metadata) ?? {};
  const availability = asObject(error.availability);
  const message = redactSecrets(str(error.message) ?? `The routing service answered ${status}.`, response.secrets);
  const reason = str(metadata.reason);
  const source = str(metadata.limit_source);
  const errorType = str(metadata.error_type) ?? str(error.error_type);
  const raw = str(metadata.raw) ?? '';
  const code = reason ?? source ?? str(availability?.code) ?? errorType ?? (error.code === undefined || error.code === null ? null : String(error.code));
  const headers = asObject(metadata.headers) ?? {};
  const header = (name: string) => response.header(name) ?? str(headers[name]) ?? str(Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]);
  const retryAfter = parseRetryAfter(header('retry-after'), response.now) ?? (typeof metadata.retry_after_seconds === 'number' ? metadata.retry_after_seconds : undefined);
  const resetIn = parseRateLimitReset(header('x-ratelimit-reset'), response.now);
  const base = { service: 'router' as const, status, code, message };

  if (status === 402) {
    if (reason === 'in_flight_budget_exhausted' || source === 'openrouter_in_flight_budget') {
      return new ServiceError({ ...base, kind: 'in_flight_budget', retryAfterSeconds: retryAfter ?? null });
    }
    if (source === 'openrouter_key_limit' || /settings\/keys|key limit/i.test(message)) return new ServiceError({ ...base, kind: 'key_limit' });
    return new ServiceError({ ...base, kind: 'insufficient_credits' });
  }
  if (status === 403 && source === 'openrouter_key_limit') return new ServiceError({ ...base, kind: 'key_limit' });
  if (status === 429) {
    const text = `${message} ${raw}`;
    if (/free-models-per-min/.test(text) || source === 'openrouter_free_tier_minute') {
      return new ServiceError({ ...base, kind: 'free_limit_minute', retryAfterSeconds: resetIn ?? retryAfter ?? 60 });
    }
    if (/free-models-per-day/.test(text) || source === 'openrouter_free_tier_daily') {
      // An account already on the 1,000-a-day tier cannot buy its way higher: no "buy 10 credits" for it.
      const funded = /per-day-high-balance/.test(text) || Number(header('x-ratelimit-limit')) >= 1000;
      return new ServiceError({ ...base, kind: 'free_limit_day', retryAfterSeconds: resetIn ?? null, ...(funded ? { action: FUNDED_FREE_DAY_ACTION } : {}) });
    }
    return new ServiceError({ ...base, kind: 'rate_limit', retryAfterSeconds: retryAfter ?? resetIn ?? null });
  }
  if (status === 404 && (availability?.code === 'privacy_restricted' || /data.?policy|privacy/i.test(message))) {
    return new ServiceError({ ...base, kind: 'bad_request', action: 'Your training opt-out (keyward.router.denyDataCollection) ruled out every provider of this model, including all free models. Pick a paid model, or allow data collection for this request.' });
  }
  if (error.code === 'server_error') return new ServiceError({ ...base, kind: 'server' });
  return new ServiceError({ ...base, kind: statusKind(status), retryAfterSeconds: retryAfter ?? null });
}

export function classifyRouterResponse(response: FailedResponse): ServiceError {
  const body = parseJson(response.text);
  const error = asObject(body?.error);
  if (!error) return new ServiceError({ service: 'router', kind: statusKind(response.status), status: response.status, message: fallbackMessage(response.status, response.text) });
  return classifyRouterError(error, response.status, response);
}

const QUOTA_CODES: Record<string, ErrorKind> = {
  credit_balance_exhausted: 'credit_exhausted',
  insufficient_quota: 'credit_exhausted',
  project_spend_limit_exceeded: 'spend_limit',
  organization_spend_limit_exceeded: 'spend_limit',
  billing_hard_limit_reached: 'spend_limit',
  organization_usage_limit_exceeded: 'usage_limit',
};

/** A direct-service error object ({message, type, param, code}) from a body or a stream event. */
export function classifyDirectError(error: Json, status: number | null, response: Pick<FailedResponse, 'header' | 'now' | 'secrets'>): ServiceError {
  const message = redactSecrets(str(error.message) ?? `The direct service answered ${status ?? 'with an error'}.`, response.secrets);
  const code = str(error.code) ?? null;
  const type = str(error.type);
  const base = { service: 'direct' as const, status, code, message };
  if (message.includes('Missing scopes:')) return new ServiceError({ ...base, kind: 'permission', code: code ?? /Missing scopes: (\w+(?:\.\w+)*)/.exec(message)?.[1] ?? null });
  const quota = (code && QUOTA_CODES[code]) || (type === 'insufficient_quota' ? 'credit_exhausted' : undefined);
  if (quota) return new ServiceError({ ...base, kind: quota });
  const retry = parseRetryAfter(response.header('retry-after-ms') !== undefined ? String(Number(response.header('retry-after-ms')) / 1000) : response.header('retry-after'), response.now)
    ?? parseGoDuration(response.header('x-ratelimit-reset-requests'))
    ?? parseGoDuration(response.header('x-ratelimit-reset-tokens'))
    ?? (() => { const s = /try again in (\d+(?:\.\d+)?)(ms|s)/i.exec(message); return s ? Number(s[1]) / (s[2] === 'ms' ? 1000 : 1) : undefined; })();
  if (code === 'rate_limit_exceeded' || code === 'slow_down' || status === 429) return new ServiceError({ ...base, kind: 'rate_limit', retryAfterSeconds: retry ?? null });
  if (code === 'server_error' || code === 'server_is_overloaded' || type === 'server_error') return new ServiceError({ ...base, kind: 'server', retryAfterSeconds: retry ?? null });
  if (code === 'invalid_api_key') return new ServiceError({ ...base, kind: 'auth' });
  return new ServiceError({ ...base, kind: status === null ? 'server' : statusKind(status), retryAfterSeconds: retry ?? null });
}

export function classifyDirectResponse(response: FailedResponse): ServiceError {
  const body = parseJson(response.text);
  const error = asObject(body?.error);
  if (!error) return new ServiceError({ service: 'direct', kind: statusKind(response.status), status: response.status, message: fallbackMessage(response.status, response.text) });
  return classifyDirectError(error, response.status, response);
}
