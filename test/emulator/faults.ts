// Fault injection: the broken networks and misbehaving servers that clients must
// survive. A fault is queued for the next N matching requests, or named for one
// request in the `x-emulator-fault` header (`kind` or `kind;afterChunks=N;...`).
import type { IncomingMessage } from 'node:http';

export const FAULT_KINDS = [
  'reset', // connection reset (before headers, or mid-stream after N chunks)
  'stall', // stop sending and keep the connection open
  'http500', // 500 with the service's own error body
  'http502_html', // 502 with an HTML body, as a proxy in front of the service sends
  'malformed_sse', // a data line that is not JSON, then the stream goes on
  'error_event', // a mid-stream error event in the service's shape, then the end
  'long_line', // one very long data line (a 512 KiB delta)
  'invalid_utf8', // a delta with bytes that are not UTF-8
  'error_in_200', // HTTP 200 with an error body instead of a result
  'echo_key', // the caller's full key echoed in an error field (`field`)
  'moderation', // routing service: 403, a provider's moderation flagged the input
  'region', // direct service: 403 unsupported_country_region_territory
  'redirect', // a 3xx (`status`, default 307) to `location`
  'slow_headers', // holds the headers `delayMs`, then answers as usual
  'endless_line', // a stream line that never ends (after N chunks)
  'endless_event', // a stream event of data lines that never ends (after N chunks)
  'endless_body', // an error body (`status`, default 500) that never ends
  'should_retry', // no fault of its own: the service's own answer carries `x-should-retry` (default false)
  'rate_limit', // 429 in the service's own shape, with Retry-After `retryAfter` seconds (default 1; 0: none)
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** Where `echo_key` puts the key: each field a real server has been seen to fill with text of its own choosing. */
export const ECHO_FIELDS = ['message', 'code', 'reason', 'raw', 'provider', 'title', 'stream', 'label'] as const;
export type EchoField = (typeof ECHO_FIELDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Which service the fault applies to; both when absent. */
  service?: 'router' | 'direct';
  /** Only requests whose path ends with this. */
  path?: string;
  /** Streams: data chunks sent before the fault strikes. 0 = right after the headers. */
  afterChunks?: number;
  /** reset and stall: strike before any header is sent. */
  beforeHeaders?: boolean;
  /** error_event on the direct service: fields nested under `error` (as recorded) or at the top (as the spec has it). */
  shape?: 'nested' | 'top';
  /** redirect and endless_body: the HTTP status. */
  status?: number;
  /** redirect: the Location header (default: the same path on another host). */
  location?: string;
  /** slow_headers: how long the headers are held. */
  delayMs?: number;
  /** echo_key: which field carries the key. */
  field?: EchoField;
  /** Any fault: the response carries `x-should-retry: true|false`, as the direct service's SDK obeys. */
  shouldRetry?: boolean;
  /** rate_limit: the Retry-After seconds; 0 leaves the header out ("may be omitted", spec TooManyRequests). */
  retryAfter?: number;
}

export interface QueuedFault extends FaultSpec {
  remaining: number;
}

export function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === 'string' && (FAULT_KINDS as readonly string[]).includes(value);
}

export function parseFaultSpec(raw: Record<string, unknown>): FaultSpec {
  if (!isFaultKind(raw.kind))
    throw new Error(`unknown fault kind ${JSON.stringify(raw.kind)}; one of ${FAULT_KINDS.join(', ')}`);
  const spec: FaultSpec = { kind: raw.kind };
  if (raw.service === 'router' || raw.service === 'direct') spec.service = raw.service;
  else if (raw.service !== undefined) throw new Error('service must be "router" or "direct"');
  if (typeof raw.path === 'string') spec.path = raw.path;
  if (raw.afterChunks !== undefined) {
    if (typeof raw.afterChunks !== 'number' || raw.afterChunks < 0)
      throw new Error('afterChunks must be a number >= 0');
    spec.afterChunks = raw.afterChunks;
  }
  if (raw.beforeHeaders !== undefined) spec.beforeHeaders = raw.beforeHeaders === true;
  if (raw.shape === 'nested' || raw.shape === 'top') spec.shape = raw.shape;
  if (raw.status !== undefined) {
    if (typeof raw.status !== 'number' || !Number.isInteger(raw.status) || raw.status < 200 || raw.status > 599)
      throw new Error('status must be an HTTP status from 200 to 599');
    spec.status = raw.status;
  }
  if (raw.location !== undefined) {
    if (typeof raw.location !== 'string') throw new Error('location must be a string');
    spec.location = raw.location;
  }
  if (raw.delayMs !== undefined) {
    if (typeof raw.delayMs !== 'number' || raw.delayMs < 0) throw new Error('delayMs must be a number >= 0');
    spec.delayMs = raw.delayMs;
  }
  if (raw.field !== undefined) {
    if (!(ECHO_FIELDS as readonly unknown[]).includes(raw.field))
      throw new Error(`field must be one of ${ECHO_FIELDS.join(', ')}`);
    spec.field = raw.field as EchoField;
  }
  if (raw.retryAfter !== undefined) {
    if (typeof raw.retryAfter !== 'number' || !Number.isInteger(raw.retryAfter) || raw.retryAfter < 0)
      throw new Error('retryAfter must be a whole number of seconds >= 0');
    spec.retryAfter = raw.retryAfter;
  }
  if (raw.shouldRetry !== undefined) {
    if (typeof raw.shouldRetry !== 'boolean') throw new Error('shouldRetry must be true or false');
    spec.shouldRetry = raw.shouldRetry;
  }
  return spec;
}

export class FaultQueue {
  private queue: QueuedFault[] = [];

  add(spec: FaultSpec, count = 1): void {
    this.queue.push({ ...spec, remaining: Math.max(1, Math.floor(count)) });
  }

  clear(): void {
    this.queue = [];
  }

  pending(): QueuedFault[] {
    return this.queue.map((fault) => ({ ...fault }));
  }

  /** The fault for this request, if any: the request's own header first, then the queue. */
  take(req: IncomingMessage, service: 'router' | 'direct', path: string): FaultSpec | undefined {
    const header = req.headers['x-emulator-fault'];
    if (typeof header === 'string' && header.length > 0) return parseFaultHeader(header);
    const index = this.queue.findIndex(
      (f) => (!f.service || f.service === service) && (!f.path || path.endsWith(f.path)),
    );
    if (index < 0) return undefined;
    const fault = this.queue[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.queue.splice(index, 1);
    const { remaining: _remaining, ...spec } = fault;
    return spec;
  }
}

function parseFaultHeader(header: string): FaultSpec {
  const [kind, ...params] = header.split(';').map((part) => part.trim());
  const raw: Record<string, unknown> = { kind };
  for (const param of params) {
    const at = param.indexOf('=');
    const name = at < 0 ? param : param.slice(0, at);
    const value = at < 0 ? undefined : param.slice(at + 1);
    if (name === 'afterChunks' || name === 'status' || name === 'delayMs' || name === 'retryAfter')
      raw[name] = Number(value);
    if (name === 'beforeHeaders') raw.beforeHeaders = value !== 'false';
    if (name === 'shouldRetry') raw.shouldRetry = value === 'true' ? true : value === 'false' ? false : value;
    if (name === 'shape' || name === 'location' || name === 'field') raw[name] = value;
  }
  return parseFaultSpec(raw);
}
