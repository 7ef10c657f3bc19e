// HTTP for both clients, on undici: a connect timeout, a long request timeout
// for answers that are not streamed, an idle timeout for streams, cancellation
// by AbortSignal, https only (loopback excepted), the key only in the
// Authorization header, no redirects followed, and bounded reads; through the
// configured proxy (proxyDispatcher.ts), where all of that still holds.
import type { Dispatcher } from 'undici';
import type { ServiceId } from '../shared/serviceIds.ts';
import { certificateError } from './certificateErrors.ts';
import { SERVICE_NAMES, ServiceError } from './errors.ts';
import { DEFAULT_PROXY, type ProxyConfig, proxySecrets, shownProxy } from './proxyConfig.ts';
import { proxyDispatcher } from './proxyDispatcher.ts';
import { lazy } from './lazy.ts';
import { proxyRefusal } from './proxyRefusal.ts';
import { SseLimitError } from './sse.ts';
import { checkBaseUrl, endpointUrl } from './urlPolicy.ts';

export interface TransportOptions {
  connectTimeoutMs: number;
  /** Streams: the longest silence before the headers and between events. */
  idleTimeoutMs: number;
  /**
   * Answers that are not streamed: how long the service may think before the
   * first byte (reasoning models take minutes). Default DEFAULT_REQUEST_TIMEOUT_MS.
   */
  requestTimeoutMs?: number;
  /** The proxy and certificate settings; none: straight, Node's own authorities and the system's. */
  proxy?: ProxyConfig | undefined;
  /** For tests and benches: a dispatcher of one's own. */
  dispatcher?: Dispatcher;
}

/** Ten minutes, as the official SDK waits (openai-node DEFAULT_TIMEOUT). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/**
 * 8 MiB for one response body read whole (a JSON answer or an error page): 16
 * times the largest text answer, while a hostile endless body stops early.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface HttpResponse {
  status: number;
  header(name: string): string | undefined;
  body: AsyncIterable<Uint8Array>;
  /** The whole body as text; at most MAX_BODY_BYTES, past that a `response_too_large` error. */
  text(): Promise<string>;
}

export interface SendOptions {
  /** DELETE: the admin API's key deletion (core/keys/directAdminApi.ts); quick, so it waits as a GET does. */
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  key: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  accept?: string;
}

/** Which wait applied to a request, to name the one that ran out. */
interface Waits {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  /** The setting (and CLI option) behind headersMs. */
  setting: 'request' | 'idle';
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const SETTING_NAMES = {
  request: 'the request timeout: keyward.network.requestTimeoutMs, or --timeout',
  idle: 'the idle timeout: keyward.network.idleTimeoutMs, or --idle-timeout',
} as const;

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function duration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function timeoutMessage(name: string, code: string, where: string, waits: Waits | undefined): string {
  if (!waits) {
    const phase =
      code === 'UND_ERR_CONNECT_TIMEOUT'
        ? 'connecting'
        : code === 'UND_ERR_BODY_TIMEOUT'
          ? 'the answer stalled'
          : 'waiting for an answer';
    return `The ${name} timed out (${phase}) at ${where}.`;
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return `The ${name} did not accept a connection within ${duration(waits.connectMs)} at ${where}.`;
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return `The answer stalled: the ${name} sent nothing for ${duration(waits.bodyMs)} (${SETTING_NAMES[waits.setting]}) at ${where}.`;
  }
  return `The ${name} had not started its answer after ${duration(waits.headersMs)} (${SETTING_NAMES[waits.setting]}) at ${where}.`;
}

function tooLarge(service: ServiceId, code: string, message: string, status: number | null): ServiceError {
  return new ServiceError({ kind: 'response_too_large', service, code, status, message });
}

/** A failure below HTTP (or our own abort) in the shared error language. */
export function transportError(
  error: unknown,
  service: ServiceId,
  signal: AbortSignal | undefined,
  where: string,
  waits?: Waits,
  proxy?: ProxyConfig,
): ServiceError {
  if (error instanceof ServiceError) return error;
  const name = SERVICE_NAMES[service];
  if (signal?.aborted)
    return new ServiceError({ kind: 'cancelled', service, message: 'The request was cancelled.', cause: error });
  if (error instanceof SseLimitError) {
    return tooLarge(
      service,
      error.limit === 'line' ? 'sse_line_too_long' : 'sse_event_too_large',
      `The ${name} sent a stream ${error.limit} longer than ${error.max / (1024 * 1024)} MiB; Keyward stopped reading it.`,
      null,
    );
  }
  const code = errorCode(error);
  if (code && TIMEOUT_CODES.has(code))
    return new ServiceError({
      kind: 'timeout',
      service,
      code,
      message: timeoutMessage(name, code, where, waits),
      cause: error,
    });
  const refusal = proxyRefusal(error, service, where, proxy) ?? certificateError(error, service, where, proxy);
  if (refusal) return refusal;
  if (code === 'UND_ERR_ABORTED' || (error as { name?: string })?.name === 'AbortError') {
    return new ServiceError({ kind: 'cancelled', service, message: 'The request was cancelled.', cause: error });
  }
  const detail = code && NETWORK_CODES.has(code) ? code : ((error as Error)?.message ?? String(error));
  const through = proxy?.url ? ` through the proxy ${shownProxy(proxy.url)}` : '';
  return new ServiceError({
    kind: 'network',
    service,
    code: code ?? null,
    message: `Could not reach the ${name} at ${where}${through} (${detail}).`,
    secrets: proxySecrets(proxy),
    cause: error,
  });
}

/** Where a redirect pointed, without what could carry a secret (credentials, query, fragment). */
function redirectTarget(location: string | undefined, from: string): string {
  if (!location) return 'an address it did not give';
  try {
    const url = new URL(location, from);
    const hidden = url.search !== '' || url.hash !== '';
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href + (hidden ? '?…' : '');
  } catch {
    return location.slice(0, 200);
  }
}

type Undici = typeof import('undici');

/**
 * undici is loaded on the first request, not at activation: it is most of the
 * extension's weight (the extension bundle loads it from its own file).
 */
export const loadUndici = lazy((): Promise<Undici> =>
  import('undici').then((module) =>
    (module as Partial<Undici>).request ? module : (module as unknown as { default: Undici }).default,
  ),
);

export class Transport {
  private readonly service: ServiceId;
  private readonly baseUrl: string;
  private readonly options: TransportOptions;
  private dispatcher: Dispatcher | undefined;

  constructor(service: ServiceId, baseUrl: string, options: TransportOptions) {
    this.service = service;
    this.baseUrl = baseUrl;
    this.options = options;
    this.dispatcher = options.dispatcher;
  }

  private async ready(): Promise<{ request: Undici['request']; dispatcher: Dispatcher }> {
    const undici = await loadUndici();
    this.dispatcher ??= proxyDispatcher(undici, this.options.proxy ?? DEFAULT_PROXY, this.options);
    return { request: undici.request, dispatcher: this.dispatcher };
  }

  /**
   * A generation that is not streamed may think for minutes before its first
   * byte; a stream answers at once and then must not go quiet; a GET (key
   * check, model list) is quick either way.
   */
  private waits(options: SendOptions): Waits {
    const connectMs = this.options.connectTimeoutMs;
    if (options.method === 'POST' && options.accept !== 'text/event-stream') {
      const requestMs = this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      return { connectMs, headersMs: requestMs, bodyMs: requestMs, setting: 'request' };
    }
    return { connectMs, headersMs: this.options.idleTimeoutMs, bodyMs: this.options.idleTimeoutMs, setting: 'idle' };
  }

  /** Refuses a base URL that is not https (loopback aside) before any key is sent to it. */
  private checkUrl(): void {
    const check = checkBaseUrl(this.baseUrl);
    if (check.ok) return;
    throw new ServiceError({
      kind: 'insecure_url',
      service: this.service,
      code: check.reason,
      message:
        check.reason === 'insecure'
          ? `Refusing to send a key over plain http to ${new URL(this.baseUrl).host}.`
          : `The ${SERVICE_NAMES[this.service]} base URL "${this.baseUrl}" is not a valid https URL.`,
    });
  }

  /**
   * Sends a request; a status of 400 or above is returned, not thrown, for the
   * caller to classify. A redirect is thrown: following it would send the key
   * to wherever the service (or whatever answered) pointed.
   */
  async send(options: SendOptions): Promise<HttpResponse> {
    this.checkUrl();
    const url = endpointUrl(this.baseUrl, options.path);
    const waits = this.waits(options);
    const fail = (error: unknown) =>
      transportError(error, this.service, options.signal, url, waits, this.options.proxy);
    if (options.signal?.aborted) throw fail(new Error('aborted'));
    // No key, no Authorization header at all: a keyless local server must not see "Bearer ".
    const headers: Record<string, string> = {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      accept: options.accept ?? 'application/json',
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: Dispatcher.ResponseData;
    try {
      const { request, dispatcher } = await this.ready();
      response = await request(url, {
        method: options.method,
        headers,
        body,
        signal: options.signal,
        dispatcher,
        headersTimeout: waits.headersMs,
        bodyTimeout: waits.bodyMs,
      });
    } catch (error) {
      throw fail(error);
    }
    return this.answer(response, url, options.key, fail);
  }

  /** The response as the caller reads it; a redirect is refused, and a body is read up to MAX_BODY_BYTES. */
  private answer(
    response: Dispatcher.ResponseData,
    url: string,
    key: string,
    fail: (error: unknown) => unknown,
  ): HttpResponse {
    const header = (name: string) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    const readBody = response.body;
    // Dropping a body unread makes undici emit an abort error on it; nothing is left to tell.
    const discard = () => readBody.on('error', () => undefined).destroy();
    const status = response.statusCode;
    const service = this.service;
    if (status >= 300 && status < 400) {
      discard();
      throw new ServiceError({
        kind: 'redirected',
        service,
        status,
        code: null,
        secrets: [key],
        message: `The ${SERVICE_NAMES[service]} redirected to ${redirectTarget(header('location'), url)} (HTTP ${status}); Keyward does not follow redirects with your key.`,
      });
    }
    return {
      status,
      header,
      body: (async function* () {
        try {
          for await (const chunk of readBody) yield chunk as Uint8Array;
        } catch (error) {
          throw fail(error);
        }
      })(),
      text: async () => {
        const limitMessage = `The ${SERVICE_NAMES[service]} sent a response body over ${MAX_BODY_BYTES / (1024 * 1024)} MiB (HTTP ${status}) at ${url}; Keyward stopped reading it.`;
        if (Number(header('content-length')) > MAX_BODY_BYTES) {
          discard();
          throw tooLarge(service, 'body_too_large', limitMessage, status);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          for await (const chunk of readBody as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) throw tooLarge(service, 'body_too_large', limitMessage, status);
            chunks.push(chunk);
          }
        } catch (error) {
          throw fail(error);
        }
        return Buffer.concat(chunks).toString('utf8');
      },
    };
  }

  async close(): Promise<void> {
    if (this.dispatcher && this.dispatcher !== this.options.dispatcher) await this.dispatcher.close();
    this.dispatcher = this.options.dispatcher;
  }
}
