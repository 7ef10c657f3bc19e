// One error path: every failure of a service call becomes a ServiceError with a
// kind from the shared error language, a sentence for a person and what to do.
import type { ErrorKind, ServiceErrorData, ServiceId } from '../shared/errorKinds.ts';

export interface ServiceErrorInit {
  kind: ErrorKind;
  service: ServiceId;
  message: string;
  status?: number | null;
  code?: string | null;
  action?: string;
  retryAfterSeconds?: number | null;
  /** Text that had arrived before the failure; kept, never thrown away. */
  partialText?: string;
  cause?: unknown;
}

export const SERVICE_NAMES: Record<ServiceId, string> = { router: 'routing service', direct: 'direct service' };

const ACTIONS: Record<ErrorKind, (service: ServiceId) => string> = {
  auth: (s) => `Check the ${SERVICE_NAMES[s]} key, or set a new one (Keyward: Set ${s === 'router' ? 'Router' : 'Direct'} Key).`,
  permission: (s) => s === 'direct'
    ? 'Give the key the permission it lacks on the API keys page (Restricted keys need each scope), or use a key with All permissions.'
    : 'The key or account is not allowed to do this; check the key\'s settings on the routing service.',
  insufficient_credits: () => 'Add credits on the routing service\'s credits page. While the balance is below zero every call fails, free models included.',
  key_limit: () => 'Raise this key\'s credit limit in the routing service\'s key settings, or use another key.',
  in_flight_budget: () => 'Wait for the requests still running to settle; Keyward retries after the time the service gave. Adding credits also helps.',
  free_limit_minute: () => 'Free models allow 20 requests a minute; Keyward waits for the window and sends again.',
  free_limit_day: () => 'The free-model allowance for today (UTC) is used up. Wait for the reset at UTC midnight, use the paid version of the model, or buy 10 credits to raise the allowance to 1,000 a day.',
  rate_limit: () => 'Too many requests for now; wait a moment and send again. Higher usage tiers have higher limits.',
  credit_exhausted: () => 'The organisation has no prepaid credit left. Add credits (at least $5) on the billing page, or turn on auto-reload.',
  spend_limit: () => 'A spend limit set by the owner is reached. Raise the project\'s or organisation\'s limit in the limits settings.',
  usage_limit: () => 'The monthly usage limit of the organisation\'s usage tier is reached. Buying credits moves the organisation to the next tier.',
  bad_request: () => 'The service refused the request as sent; check the model id and the prompt.',
  server: () => 'The service had a problem; try again in a moment.',
  network: () => 'Check the network connection and the service\'s base URL in the settings.',
  timeout: () => 'The service did not answer in time; try again, or raise keyward.network timeouts.',
  stream_interrupted: () => 'The answer broke off; what arrived is kept. Send again to get a whole answer.',
  cancelled: () => 'Nothing to do: the request was stopped.',
  insecure_url: () => 'Use an https: base URL (http: is allowed only for localhost) so the key never travels in clear text.',
};

export function defaultAction(kind: ErrorKind, service: ServiceId): string {
  return ACTIONS[kind](service);
}

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly service: ServiceId;
  readonly status: number | null;
  readonly code: string | null;
  readonly action: string;
  readonly retryAfterSeconds: number | null;
  readonly partialText: string | undefined;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.service = init.service;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.action = init.action ?? defaultAction(init.kind, init.service);
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.partialText = init.partialText;
  }

  toData(): ServiceErrorData {
    return { kind: this.kind, status: this.status, code: this.code, message: this.message, action: this.action, retryAfterSeconds: this.retryAfterSeconds };
  }

  withPartialText(text: string): ServiceError {
    return new ServiceError({ ...this.init(), partialText: text });
  }

  private init(): ServiceErrorInit {
    return { kind: this.kind, service: this.service, message: this.message, status: this.status, code: this.code, action: this.action, retryAfterSeconds: this.retryAfterSeconds, partialText: this.partialText, cause: this.cause };
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}
