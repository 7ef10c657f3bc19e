// HTTP for both clients, on undici: a connect timeout, an idle timeout for
// headers and between body chunks, cancellation by AbortSignal, https only
// (loopback excepted), and the key only in the Authorization header.
import type { Dispatcher } from 'undici';
import type { ServiceId } from '../shared/errorKinds.ts';
import { SERVICE_NAMES, ServiceError } from './errors.ts';
import { checkBaseUrl, endpointUrl } from './urlPolicy.ts';

export interface TransportOptions {
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  /** For tests and benches: a dispatcher of one's own. */
  dispatcher?: Dispatcher;
}

export interface HttpResponse {
  status: number;
  header(name: string): string | undefined;
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  path: string;
  key: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
  accept?: string;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A failure below HTTP (or our own abort) in the shared error language. */
export function transportError(error: unknown, service: ServiceId, signal: AbortSignal | undefined, where: string): ServiceError {
  if (error instanceof ServiceError) return error;
  const name = SERVICE_NAMES[service];
  if (signal?.aborted) return new ServiceError({ kind: 'cancelled', service, message: 'The request was cancelled.', cause: error });
  const code = errorCode(error);
  if (code && TIMEOUT_CODES.has(code)) {
    const phase = code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connecting' : code === 'UND_ERR_BODY_TIMEOUT' ? 'the answer stalled' : 'waiting for an answer';
    return new ServiceError({ kind: 'timeout', service, code, message: `The ${name} timed out (${phase}) at ${where}.`, cause: error });
  }
  if (code === 'UND_ERR_ABORTED' || (error as { name?: string })?.name === 'AbortError') {
    return new ServiceError({ kind: 'cancelled', service, message: 'The request was cancelled.', cause: error });
  }
  const detail = code && NETWORK_CODES.has(code) ? code : (error as Error)?.message ?? String(error);
  return new ServiceError({ kind: 'network', service, code: code ?? null, message: `Could not reach the ${name} at ${where} (${detail}).`, cause: error });
}

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;

/**
 * undici is loaded on the first request, not at activation: it is most of the
 * extension's weight (the extension bundle loads it from its own file).
 */
function loadUndici(): Promise<Undici> {
  undici ??= import('undici').then((module) => ((module as Partial<Undici>).request ? module : (module as unknown as { default: Undici }).default));
  return undici;
}

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
    const { request, Agent } = await loadUndici();
    this.dispatcher ??= new Agent({
      connect: { timeout: this.options.connectTimeoutMs },
      headersTimeout: this.options.idleTimeoutMs,
      bodyTimeout: this.options.idleTimeoutMs,
    });
    return { request, dispatcher: this.dispatcher };
  }

  /** Sends a request; a status of 400 or above is returned, not thrown, for the caller to classify. */
  async send(options: SendOptions): Promise<HttpResponse> {
    const check = checkBaseUrl(this.baseUrl);
    if (!check.ok) {
      throw new ServiceError({
        kind: 'insecure_url', service: this.service, code: null,
        message: check.reason === 'insecure'
          ? `Refusing to send a key over plain http to ${new URL(this.baseUrl).host}.`
          : `The ${SERVICE_NAMES[this.service]} base URL "${this.baseUrl}" is not a valid https URL.`,
      });
    }
    const url = endpointUrl(this.baseUrl, options.path);
    if (options.signal?.aborted) throw transportError(new Error('aborted'), this.service, options.signal, url);
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}`, accept: options.accept ?? 'application/json' };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    try {
      const { request, dispatcher } = await this.ready();
      const response = await request(url, {
        method: options.method,
        headers,
        body,
        signal: options.signal,
        dispatcher,
      });
      const service = this.service;
      const signal = options.signal;
      const readBody = response.body;
      return {
        status: response.statusCode,
        header: (name) => {
          const value = response.headers[name.toLowerCase()];
          return Array.isArray(value) ? value[0] : value;
        },
        body: (async function* () {
          try {
            for await (const chunk of readBody) yield chunk as Uint8Array;
          } catch (error) {
            throw transportError(error, service, signal, url);
          }
        })(),
        text: async () => {
          try {
            return await readBody.text();
          } catch (error) {
            throw transportError(error, service, signal, url);
          }
        },
      };
    } catch (error) {
      throw transportError(error, this.service, options.signal, url);
    }
  }

  async close(): Promise<void> {
    if (this.dispatcher && this.dispatcher !== this.options.dispatcher) await this.dispatcher.close();
    this.dispatcher = this.options.dispatcher;
  }
}
