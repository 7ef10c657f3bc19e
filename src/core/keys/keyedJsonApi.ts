// One JSON API spoken with one secret key (the routing service's management key, the direct service's admin key):
// a request, its failure in the service's error dialect with the advice the caller gives per kind, and every error
// built with the key as a known secret, so no message, action or log line can carry it. The key lives in a
// private field: no inspect or JSON of a client shows it.
import type { ErrorKind } from '../../shared/errorKinds.ts';
import type { FailedResponse } from '../classify.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import { type Json, parseObject } from '../json.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { type HttpResponse, type SendOptions, Transport, type TransportOptions } from '../transport.ts';

export interface KeyedJsonApiOptions {
  service: ServiceId;
  baseUrl: string;
  key: string;
  transport: TransportOptions;
  /** The failure in the service's own error dialect. */
  classify: (failed: FailedResponse) => ServiceError;
  /** The kind a failure of this API is, where the status says more than the dialect (a 403 of a key API). */
  refine?: (status: number, kind: ErrorKind) => ErrorKind;
  /** What to do, per kind, in this API's words; a kind without a row keeps the dialect's advice. */
  advice: Partial<Record<ErrorKind, string>>;
  now?: () => number;
}

export class KeyedJsonApi {
  readonly #key: string;
  readonly #transport: Transport;
  readonly #options: KeyedJsonApiOptions;

  constructor(options: KeyedJsonApiOptions) {
    this.#key = options.key.trim();
    this.#transport = new Transport(options.service, options.baseUrl, options.transport);
    this.#options = options;
  }

  /** The key, for a check of its shape before any request. */
  get key(): string {
    return this.#key;
  }

  now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** One request; its JSON object, or the ServiceError that says why not (`what` names it: "key list"). */
  async call(request: Omit<SendOptions, 'key'>, what: string): Promise<Json> {
    let response: HttpResponse;
    try {
      response = await this.#transport.send({ ...request, key: this.#key });
    } catch (error) {
      throw this.#safe(error);
    }
    const body = await response.text().catch((error: unknown) => {
      throw this.#safe(error);
    });
    if (response.status >= 400) {
      const { header, status } = response;
      const error = this.#options.classify({ status, text: body, header, now: this.now(), secrets: [this.#key] });
      throw this.rebuild(error, this.#options.refine?.(status, error.kind) ?? error.kind);
    }
    const json = parseObject(body);
    if (!json) throw this.malformed(response.status, `${this.#name()} sent a ${what} that is not JSON.`);
    return json;
  }

  /** `error` again with the key as a known secret, as `kind` (its own by default) with this API's advice for it. */
  rebuild(error: ServiceError, kind: ErrorKind = error.kind, code: string | null = error.code): ServiceError {
    return new ServiceError({
      kind,
      service: this.#options.service,
      status: error.status,
      code,
      message: error.message,
      action: this.#options.advice[kind] ?? error.action,
      retryAfterSeconds: error.retryAfterSeconds,
      shouldRetry: error.shouldRetry,
      secrets: [this.#key],
    });
  }

  /** An answer that is not what the spec says it is. */
  malformed(status: number, message: string): ServiceError {
    return new ServiceError({ kind: 'server', service: this.#options.service, status, message, secrets: [this.#key] });
  }

  /** A list that went on past `max` pages: Keyward stopped reading it. */
  endless(what: string, max: number): ServiceError {
    return new ServiceError({
      kind: 'response_too_large',
      service: this.#options.service,
      code: 'too_many_pages',
      message: `${this.#name()}'s ${what} went on past ${max} pages; Keyward stopped reading it.`,
      secrets: [this.#key],
    });
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  #name(): string {
    return `The ${SERVICE_NAMES[this.#options.service]}`;
  }

  /** A transport error, its text redacted once more with the key as a known secret. */
  #safe(error: unknown): ServiceError {
    return this.rebuild(
      error instanceof ServiceError
        ? error
        : new ServiceError({ kind: 'network', service: this.#options.service, message: String(error) }),
    );
  }
}
