// One error path: every failure of a service call becomes a ServiceError with a
// kind from the shared error language, a sentence for a person and what to do.
// The constructor is also the one place where text from the network is made
// safe: whatever builds an error, its message, code and action are redacted and
// clipped here, so no classifier, client or caller can forget to.
import type { ErrorKind, ServiceErrorData } from '../shared/errorKinds.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { errorKindRule } from '../shared/errorKindRules.ts';
import { redactSecrets } from './redact.ts';
import { SERVICES, SERVICE_IDS } from './services/descriptors.ts';

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

/** The advice of the kind's row, naming the service that failed. */
export function defaultAction(kind: ErrorKind, service: ServiceId): string {
  const { commandWord, capabilities } = SERVICES[service];
  return errorKindRule(kind).advice({
    id: service,
    name: SERVICE_NAMES[service],
    commandWord,
    hasScopes: capabilities.hasScopes,
  });
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
