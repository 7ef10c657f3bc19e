// Turns what a service sent back into the shared error language, following the
// wire facts: status, error.code/type, metadata.reason/limit_source, message
// text and headers. Every text here comes from the network: ServiceError's
// constructor redacts it (with the caller's key as a known secret) and clips it.
import type { ErrorKind } from '../shared/errorKinds.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { SERVICE_NAMES, ServiceError, type ServiceErrorInit } from './errors.ts';
import { SERVICES } from './services/descriptors.ts';
import { type Json, obj as asObject, parseObject as parseJson } from './json.ts';
import { parseGoDuration, parseRateLimitReset, parseRetryAfter } from './waitTimes.ts';

export interface ResponseContext {
  header(name: string): string | undefined;
  now: number;
  /** Secrets to mask in anything echoed back (the caller's key). */
  secrets: readonly string[];
  /** What the request itself sent, where the cause of an error depends on it; absent when unknown. */
  request?: { denyDataCollection: boolean } | undefined;
}

export interface FailedResponse extends ResponseContext {
  status: number;
  /** The body as text (it may be HTML, or empty). */
  text: string;
}

/** The account privacy page named in the routing service's own 404 text, when the body does not carry one. */
const ROUTER_PRIVACY_PAGE = 'https://openrouter.ai/settings/privacy';

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

/**
 * `x-should-retry: true|false` decides before Keyward's own rules, as the
 * official SDK does (openai-node src/client.ts shouldRetry).
 */
function shouldRetryHeader(response: Pick<ResponseContext, 'header'>): boolean | null {
  const value = response.header('x-should-retry')?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : null;
}

/**
 * "Request too large ... Limit 30000, Requested 35364": one request bigger than
 * the whole per-minute budget; waiting cannot make it fit.
 */
export function exceedsRateBudget(text: string): { limit: number; requested: number } | undefined {
  const match = /Limit (\d+)(?:, Used \d+)?, Requested (\d+)/i.exec(text);
  if (!match) return undefined;
  const limit = Number(match[1]);
  const requested = Number(match[2]);
  return requested > limit ? { limit, requested } : undefined;
}

function tooLargeAction(budget: { limit: number; requested: number }): string {
  return `This one request needs ${budget.requested} tokens but the rate limit allows ${budget.limit} a minute, so waiting will not help. Shorten the prompt or the conversation, or move to a usage tier with a higher limit.`;
}

/**
 * A rate limit in either dialect: one request over the whole per-minute budget is not retried (waiting cannot make
 * it fit, and the action says so); any other waits `retryAfterSeconds`.
 */
function rateLimitError(
  base: Omit<ServiceErrorInit, 'kind'>,
  text: string,
  retryAfterSeconds: number | null,
): ServiceError {
  const budget = exceedsRateBudget(text);
  if (budget)
    return new ServiceError({
      ...base,
      kind: 'rate_limit',
      shouldRetry: base.shouldRetry ?? false,
      action: tooLargeAction(budget),
    });
  return new ServiceError({ ...base, kind: 'rate_limit', retryAfterSeconds });
}

function fallback(service: ServiceId, response: FailedResponse): ServiceError {
  const title = /<title>([^<]{1,300})<\/title>/i.exec(response.text)?.[1]?.trim();
  const message = title
    ? `The service answered ${response.status} (${title}) instead of JSON.`
    : `The service answered HTTP ${response.status}.`;
  return new ServiceError({
    service,
    kind: statusKind(response.status),
    status: response.status,
    message,
    shouldRetry: shouldRetryHeader(response),
    secrets: response.secrets,
  });
}

/** The routing service's moderation 403: `metadata.reasons`, `flagged_input`, "... requires moderation on X. Your input was flagged ...". */
function routerModeration(
  error: Json,
  metadata: Json,
  message: string,
): { by: string | undefined; model: string | undefined; reasons: string[] } | undefined {
  const reasons = Array.isArray(metadata.reasons)
    ? metadata.reasons.filter((r): r is string => typeof r === 'string')
    : [];
  const flagged =
    Array.isArray(metadata.reasons) ||
    str(metadata.flagged_input) !== undefined ||
    /\bflagged\b|requires moderation/i.test(message);
  if (!flagged) return undefined;
  const said = /^(\S+) requires moderation on ([^.]+)\./.exec(message);
  return {
    by: str(metadata.provider_name) ?? said?.[2]?.trim(),
    model: str(metadata.model_slug) ?? said?.[1],
    reasons,
  };
}

function privacyAction(request: ResponseContext['request'], message: string): string {
  const page = /https:\/\/\S+\/settings\/privacy/.exec(message)?.[0] ?? ROUTER_PRIVACY_PAGE;
  if (request?.denyDataCollection === true) {
    return "This request carried Keyward's training opt-out (keyward.router.denyDataCollection), and it ruled out every provider of this model, free models included. Pick a model with a provider that does not collect data, or turn the setting off.";
  }
  if (request?.denyDataCollection === false) {
    return `This request did not carry Keyward's training opt-out, so the account's own privacy settings ruled out every provider of this model. Allow more providers on the routing service's privacy settings page (${page}), or pick another model.`;
  }
  return `Either Keyward's training opt-out (keyward.router.denyDataCollection) or the account's privacy settings (${page}) ruled out every provider of this model. Pick another model, or relax one of them.`;
}

const FUNDED_FREE_DAY_ACTION =
  "Today's 1,000 free-model requests (UTC), the highest free allowance, are used up. Wait for the reset at UTC midnight, or use the paid version of the model.";

/** What a routing-service error object says, read once for the classification below. */
interface RouterErrorParts {
  error: Json;
  metadata: Json;
  availability: Json | undefined;
  reason: string | undefined;
  source: string | undefined;
  raw: string;
  message: string;
  header: (name: string) => string | undefined;
  retryAfter: number | undefined;
  resetIn: number | undefined;
  base: {
    service: 'router';
    status: number;
    code: string | null;
    message: string;
    shouldRetry: boolean | null;
    secrets: ResponseContext['secrets'];
  };
}

function routerErrorParts(error: Json, status: number, response: ResponseContext): RouterErrorParts {
  const metadata = asObject(error.metadata) ?? {};
  const availability = asObject(error.availability);
  const reason = str(metadata.reason);
  const source = str(metadata.limit_source);
  const errorType = str(metadata.error_type) ?? str(error.error_type);
  const raw = str(metadata.raw) ?? '';
  // "Provider returned error" says nothing; the upstream's own words are in metadata.raw.
  const said = str(error.message) ?? `The routing service answered ${status}.`;
  const message =
    raw && !said.includes(raw) ? `${said} (${str(metadata.provider_name) ?? 'the provider'}: ${raw})` : said;
  const code =
    reason ??
    source ??
    str(availability?.code) ??
    errorType ??
    (error.code === undefined || error.code === null ? null : String(error.code));
  const headers = asObject(metadata.headers) ?? {};
  const header = (name: string) =>
    response.header(name) ??
    str(headers[name]) ??
    str(Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]);
  const retryAfter =
    parseRetryAfter(header('retry-after'), response.now) ??
    (typeof metadata.retry_after_seconds === 'number' ? metadata.retry_after_seconds : undefined);
  return {
    error,
    metadata,
    availability,
    reason,
    source,
    raw,
    message,
    header,
    retryAfter,
    resetIn: parseRateLimitReset(header('x-ratelimit-reset'), response.now),
    base: {
      service: 'router',
      status,
      code,
      message,
      shouldRetry: shouldRetryHeader(response),
      secrets: response.secrets,
    },
  };
}

/** A 402: the in-flight budget (with its wait), the key's limit, or the account's credits. */
function routerPaymentError({ reason, source, message, retryAfter, base }: RouterErrorParts): ServiceError {
  if (reason === 'in_flight_budget_exhausted' || source === 'openrouter_in_flight_budget')
    return new ServiceError({ ...base, kind: 'in_flight_budget', retryAfterSeconds: retryAfter ?? null });
  if (source === 'openrouter_key_limit' || /settings\/keys|key limit/i.test(message))
    return new ServiceError({ ...base, kind: 'key_limit' });
  return new ServiceError({ ...base, kind: 'insufficient_credits' });
}

/** A 403 from a provider's moderation, named with who flagged what; undefined for any other 403. */
function routerModerationError({ error, metadata, message, base }: RouterErrorParts): ServiceError | undefined {
  const moderation = routerModeration(error, metadata, message);
  if (!moderation) return undefined;
  const who = moderation.by ? `${moderation.by}'s moderation` : "a provider's moderation";
  const what = moderation.reasons.length > 0 ? ` for ${moderation.reasons.join(', ')}` : '';
  const model = moderation.model ? ` (model ${moderation.model})` : '';
  return new ServiceError({
    ...base,
    kind: 'moderation',
    message: `The prompt was flagged by ${who}${what}${model}; the routing service refused it. (${message})`,
  });
}

/** A 429: the free models' minute or day, a request too large for the rate budget, or a rate limit. */
function routerRateError({ message, raw, source, header, retryAfter, resetIn, base }: RouterErrorParts): ServiceError {
  const text = `${message} ${raw}`;
  if (/free-models-per-min/.test(text) || source === 'openrouter_free_tier_minute')
    return new ServiceError({ ...base, kind: 'free_limit_minute', retryAfterSeconds: resetIn ?? retryAfter ?? 60 });
  if (/free-models-per-day/.test(text) || source === 'openrouter_free_tier_daily') {
    // An account already on the 1,000-a-day tier cannot buy its way higher: no "buy 10 credits" for it.
    const funded = /per-day-high-balance/.test(text) || Number(header('x-ratelimit-limit')) >= 1000;
    return new ServiceError({
      ...base,
      kind: 'free_limit_day',
      retryAfterSeconds: resetIn ?? null,
      ...(funded ? { action: FUNDED_FREE_DAY_ACTION } : {}),
    });
  }
  return rateLimitError(base, text, retryAfter ?? resetIn ?? null);
}

/** A routing-service error object ({code, message, metadata}) from a body, a 200 body or a stream chunk. */
export function classifyRouterError(error: Json, status: number, response: ResponseContext): ServiceError {
  const parts = routerErrorParts(error, status, response);
  const { source, availability, message, retryAfter, base } = parts;
  if (status === 402) return routerPaymentError(parts);
  if (status === 403 && source === 'openrouter_key_limit') return new ServiceError({ ...base, kind: 'key_limit' });
  if (status === 403) {
    const moderation = routerModerationError(parts);
    if (moderation) return moderation;
  }
  if (status === 429) return routerRateError(parts);
  if (status === 404 && (availability?.code === 'privacy_restricted' || /data.?policy/i.test(message)))
    return new ServiceError({
      ...base,
      kind: 'bad_request',
      code: 'privacy_restricted',
      action: privacyAction(response.request, message),
    });
  if (error.code === 'server_error') return new ServiceError({ ...base, kind: 'server' });
  return new ServiceError({ ...base, kind: statusKind(status), retryAfterSeconds: retryAfter ?? null });
}

export function classifyRouterResponse(response: FailedResponse): ServiceError {
  const error = asObject(parseJson(response.text)?.error);
  return error ? classifyRouterError(error, response.status, response) : fallback('router', response);
}

const QUOTA_CODES: Record<string, ErrorKind> = {
  credit_balance_exhausted: 'credit_exhausted',
  insufficient_quota: 'credit_exhausted',
  project_spend_limit_exceeded: 'spend_limit',
  organization_spend_limit_exceeded: 'spend_limit',
  billing_hard_limit_reached: 'spend_limit',
  organization_usage_limit_exceeded: 'usage_limit',
};

/** An error object in OpenAI's dialect ({message, type, param, code}: the direct service, and the compatible servers that copy it), from a body or a stream event. */
export function classifyOpenAiError(
  error: Json,
  status: number | null,
  response: ResponseContext,
  service: ServiceId = 'direct',
): ServiceError {
  const message = str(error.message) ?? `The ${SERVICE_NAMES[service]} answered ${status ?? 'with an error'}.`;
  const code = str(error.code) ?? null;
  const type = str(error.type);
  const base = {
    service,
    status,
    code,
    message,
    shouldRetry: shouldRetryHeader(response),
    secrets: response.secrets,
  };
  if (message.includes('Missing scopes:'))
    return new ServiceError({
      ...base,
      kind: 'permission',
      code: code ?? /Missing scopes: (\w+(?:\.\w+)*)/.exec(message)?.[1] ?? null,
    });
  if (code === 'unsupported_country_region_territory' || /country, region,? or territory/i.test(message))
    return new ServiceError({ ...base, kind: 'region' });
  // The chain's stored response is unknown to this key's organisation (another key, or expired): not the model id.
  if (code === 'previous_response_not_found') return new ServiceError({ ...base, kind: 'response_chain_lost' });
  const quota = (code && QUOTA_CODES[code]) || (type === 'insufficient_quota' ? 'credit_exhausted' : undefined);
  if (quota) return new ServiceError({ ...base, kind: quota });
  const retry =
    parseRetryAfter(
      response.header('retry-after-ms') !== undefined
        ? String(Number(response.header('retry-after-ms')) / 1000)
        : response.header('retry-after'),
      response.now,
    ) ??
    parseGoDuration(response.header('x-ratelimit-reset-requests')) ??
    parseGoDuration(response.header('x-ratelimit-reset-tokens')) ??
    (() => {
      const s = /try again in (\d+(?:\.\d+)?)(ms|s)/i.exec(message);
      return s ? Number(s[1]) / (s[2] === 'ms' ? 1000 : 1) : undefined;
    })();
  if (code === 'rate_limit_exceeded' || code === 'slow_down' || status === 429) {
    return rateLimitError(base, message, retry ?? null);
  }
  if (code === 'server_error' || code === 'server_is_overloaded' || type === 'server_error')
    return new ServiceError({ ...base, kind: 'server', retryAfterSeconds: retry ?? null });
  if (code === 'invalid_api_key') return new ServiceError({ ...base, kind: 'auth' });
  return new ServiceError({
    ...base,
    kind: status === null ? 'server' : statusKind(status),
    retryAfterSeconds: retry ?? null,
  });
}

export function classifyOpenAiResponse(response: FailedResponse, service: ServiceId = 'direct'): ServiceError {
  const error = asObject(parseJson(response.text)?.error);
  return error ? classifyOpenAiError(error, response.status, response, service) : fallback(service, response);
}

/** A failed response in the words of the service's error dialect (core/services/descriptors.ts). */
export function classifyResponse(service: ServiceId, response: FailedResponse): ServiceError {
  return SERVICES[service].errorDialect === 'router'
    ? classifyRouterResponse(response)
    : classifyOpenAiResponse(response, service);
}

/** An error object from a 200 body or a stream chunk, in the service's dialect. */
export function classifyError(
  service: ServiceId,
  error: Json,
  status: number,
  response: ResponseContext,
): ServiceError {
  return SERVICES[service].errorDialect === 'router'
    ? classifyRouterError(error, status, response)
    : classifyOpenAiError(error, status, response, service);
}
