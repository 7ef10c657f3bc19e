// One error path: every failure of a service call becomes a ServiceError with a
// kind from the shared error language, a sentence for a person and what to do.
// The constructor is also the one place where text from the network is made
// safe: whatever builds an error, its message, code and action are redacted and
// clipped here, so no classifier, client or caller can forget to.
import type { ErrorKind, ServiceErrorData, ServiceId } from '../shared/errorKinds.ts';
import { redactSecrets } from './redact.ts';
import { SERVICES, SERVICE_IDS } from './services.ts';

export interface ServiceErrorInit {
  kind: ErrorKind;
  service: ServiceId;
  message: string;
  status?: number | null;
  code?: string | null;
  action?: string;
  retryAfterSeconds?: number | null;
  /** What the service's `x-should-retry` header said (null: nothing); it overrides Keyward's own retry rules. */
  shouldRetry?: boolean | null;
  /** Text that had arrived before the failure; kept, never thrown away. */
  partialText?: string;
  /** Secrets to mask wherever the text echoes them (the caller's key), besides anything key-shaped. */
  secrets?: readonly string[];
  cause?: unknown;
}

export const SERVICE_NAMES = Object.fromEntries(SERVICE_IDS.map((id) => [id, SERVICES[id].displayName])) as Record<
  ServiceId,
  string
>;

const ACTIONS: Record<ErrorKind, (service: ServiceId) => string> = {
  auth: (s) => `Check the ${SERVICE_NAMES[s]} key, or set a new one (Keyward: Set ${SERVICES[s].commandWord} Key).`,
  permission: (s) =>
    SERVICES[s].capabilities.hasScopes
      ? 'Give the key the permission it lacks on the API keys page (Restricted keys need each scope), or use a key with All permissions.'
      : `The key or account is not allowed to do this; check the key's settings on the ${SERVICE_NAMES[s]}.`,
  insufficient_credits: () =>
    "Add credits on the routing service's credits page. While the balance is below zero every call fails, free models included.",
  key_limit: () => "Raise this key's credit limit in the routing service's key settings, or use another key.",
  in_flight_budget: () =>
    'Wait for the requests still running to settle; Keyward retries after the time the service gave. Adding credits also helps.',
  free_limit_minute: () => 'Free models allow 20 requests a minute; Keyward waits for the window and sends again.',
  free_limit_day: () =>
    'The free-model allowance for today (UTC) is used up. Wait for the reset at UTC midnight, use the paid version of the model, or buy 10 credits to raise the allowance to 1,000 a day.',
  rate_limit: () => 'Too many requests for now; wait a moment and send again. Higher usage tiers have higher limits.',
  credit_exhausted: () =>
    'The organisation has no prepaid credit left. Add credits (at least $5) on the billing page, or turn on auto-reload.',
  spend_limit: () =>
    "A spend limit set by the owner is reached. Raise the project's or organisation's limit in the limits settings.",
  usage_limit: () =>
    "The monthly usage limit of the organisation's usage tier is reached. Buying credits moves the organisation to the next tier.",
  bad_request: () => 'The service refused the request as sent; check the model id and the prompt.',
  server: () => 'The service had a problem; try again in a moment.',
  network: () => "Check the network connection and the service's base URL in the settings.",
  timeout: () =>
    'The service did not answer in time; try again. For answers that take long to start, raise keyward.network.requestTimeoutMs (CLI: --timeout); for streams that go quiet, keyward.network.idleTimeoutMs (--idle-timeout).',
  stream_interrupted: () => 'The answer broke off; what arrived is kept. Send again to get a whole answer.',
  cancelled: () => 'Nothing to do: the request was stopped.',
  insecure_url: () =>
    'Use an https: base URL (http: is allowed only for localhost) so the key never travels in clear text.',
  moderation: () =>
    'Sending the same prompt again will be refused again: rephrase it, or pick a model whose provider does not moderate input this way.',
  region: (s) =>
    `The ${SERVICE_NAMES[s]} is not offered in the country, region or territory this request came from, and its terms say use from elsewhere may get the account blocked. Keyward does not retry it; use the service from a supported location, or use the other service.`,
  redirected: (s) =>
    `Keyward does not follow redirects with your key. If the ${SERVICE_NAMES[s]} really moved, check the new address yourself and set it as the base URL (keyward.${s}.baseUrl, or --base-url).`,
  response_too_large: (s) =>
    `The ${SERVICE_NAMES[s]} sent more than Keyward reads in one piece, so it stopped reading to protect memory. Try again; if it persists, check the base URL points at the real service.`,
};

export function defaultAction(kind: ErrorKind, service: ServiceId): string {
  return ACTIONS[kind](service);
}

/** Longest message, code or action kept: a person reads them, and a hostile server must not fill memory or logs. */
export const MAX_ERROR_TEXT = 1000;

function safe(text: string, secrets: readonly string[]): string {
  const redacted = redactSecrets(text, secrets);
  return redacted.length > MAX_ERROR_TEXT ? redacted.slice(0, MAX_ERROR_TEXT - 1) + '…' : redacted;
}

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly service: ServiceId;
  readonly status: number | null;
  readonly code: string | null;
  readonly action: string;
  readonly retryAfterSeconds: number | null;
  readonly shouldRetry: boolean | null;
  readonly partialText: string | undefined;

  constructor(init: ServiceErrorInit) {
    const secrets = init.secrets ?? [];
    super(safe(init.message, secrets), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.service = init.service;
    this.status = init.status ?? null;
    this.code = init.code === undefined || init.code === null ? null : safe(init.code, secrets);
    this.action = safe(init.action ?? defaultAction(init.kind, init.service), secrets);
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.shouldRetry = init.shouldRetry ?? null;
    this.partialText = init.partialText;
  }

  toData(): ServiceErrorData {
    return {
      kind: this.kind,
      status: this.status,
      code: this.code,
      message: this.message,
      action: this.action,
      retryAfterSeconds: this.retryAfterSeconds,
    };
  }

  withPartialText(text: string): ServiceError {
    return new ServiceError({ ...this.init(), partialText: text });
  }

  private init(): ServiceErrorInit {
    return {
      kind: this.kind,
      service: this.service,
      message: this.message,
      status: this.status,
      code: this.code,
      action: this.action,
      retryAfterSeconds: this.retryAfterSeconds,
      shouldRetry: this.shouldRetry,
      partialText: this.partialText,
      cause: this.cause,
    };
  }
}

/**
 * Anything thrown while talking to a service, in the error language: a
 * ServiceError as it is, anything else as a network failure (made safe by the
 * constructor like every other error).
 */
export function toServiceError(
  thrown: unknown,
  service: ServiceId,
  extra: Pick<ServiceErrorInit, 'partialText' | 'secrets'> = {},
): ServiceError {
  if (thrown instanceof ServiceError) return thrown;
  return new ServiceError({
    kind: 'network',
    service,
    message: String((thrown as Error | undefined)?.message ?? thrown),
    ...extra,
  });
}
