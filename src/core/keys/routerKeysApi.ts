// The routing service's key management API, spoken with a management key (specs/openrouter-openapi.yaml, /keys and
// /keys/{hash}): list every key over all pages, create one (its plaintext comes once, wrapped), get, change (name,
// disabled, limit, limit_reset) and delete.
//
// The management key mints keys that spend the balance: it goes to these paths only, lives in a private field (no
// inspect or JSON of the client shows it), and every error is built by ServiceError with it as a known secret. Every
// string the list carries passes the redactor before it is kept. `hash` is the spec's "unique hash identifier" of a
// key and nothing more: it is used as an id, never computed from a key (a found key is matched by its label).
import type { ErrorKind } from '../../shared/errorKinds.ts';
import { classifyResponse } from '../classify.ts';
import { type Json, obj } from '../json.ts';
import { redactSecrets } from '../redact.ts';
import type { TransportOptions } from '../transport.ts';
import { KeyedJsonApi } from './keyedJsonApi.ts';
import { SecretValue } from './secretValue.ts';

export interface RouterKeysOptions extends TransportOptions {
  /** The routing service's base URL, ending in /api/v1. */
  baseUrl: string;
  managementKey: string;
}

export type LimitReset = 'daily' | 'weekly' | 'monthly';

/** A key as the list shows it: never the key itself, only its label. */
export interface RouterKeyRecord {
  hash: string;
  name: string;
  /** "sk-or-v1-0e6...1c96": what `matchRedacted` (redactedMatch.ts) compares a found key with. */
  label: string;
  disabled: boolean;
  limit: number | null;
  limitRemaining: number | null;
  limitReset: LimitReset | null;
  usage: number;
  usageDaily: number;
  usageWeekly: number;
  usageMonthly: number;
  createdAtMs: number | null;
  expiresAtMs: number | null;
}

export interface NewRouterKey {
  name: string;
  limit: number | null;
  limitReset: LimitReset | null;
  /** UTC; null: never. */
  expiresAtMs: number | null;
}

export interface KeyChange {
  name?: string;
  disabled?: boolean;
  limit?: number | null;
  limitReset?: LimitReset | null;
}

/** Most pages a list may take: a server that never ends its list must not hold Keyward forever. */
export const MAX_PAGES = 100;

const ADVICE: Partial<Record<ErrorKind, string>> = {
  auth: 'The routing service did not accept the management key: it may have been deleted or disabled. Create one under Settings, Management keys, and add it again.',
  permission:
    'This key is not a management key. Create one under Settings, Management keys (it can manage keys but not call models), and add it with Keyward: Add a Management or Admin Key….',
};

const text = (value: unknown): string => (typeof value === 'string' ? redactSecrets(value) : '');
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const msOf = (value: unknown): number | null => {
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? null : at;
};
const resetOf = (value: unknown): LimitReset | null =>
  value === 'daily' || value === 'weekly' || value === 'monthly' ? value : null;

function recordOf(raw: Json): RouterKeyRecord {
  return {
    hash: text(raw.hash),
    name: text(raw.name),
    label: text(raw.label),
    disabled: raw.disabled === true,
    limit: num(raw.limit),
    limitRemaining: num(raw.limit_remaining),
    limitReset: resetOf(raw.limit_reset),
    usage: num(raw.usage) ?? 0,
    usageDaily: num(raw.usage_daily) ?? 0,
    usageWeekly: num(raw.usage_weekly) ?? 0,
    usageMonthly: num(raw.usage_monthly) ?? 0,
    createdAtMs: msOf(raw.created_at),
    expiresAtMs: msOf(raw.expires_at),
  };
}

/** An ISO 8601 instant in UTC, as the spec asks of expires_at ("other timezones will be rejected"). */
const utc = (ms: number) => new Date(ms).toISOString();

export class RouterKeysApi {
  readonly #api: KeyedJsonApi;

  constructor(options: RouterKeysOptions) {
    const { managementKey, baseUrl, ...transport } = options;
    this.#api = new KeyedJsonApi({
      service: 'router',
      baseUrl,
      key: managementKey,
      transport,
      classify: (failed) => classifyResponse('router', failed),
      // The spec's 403 here: "Only management keys can perform this operation".
      refine: (status, kind) => (status === 403 && kind !== 'key_limit' ? 'permission' : kind),
      advice: ADVICE,
    });
  }

  /** Every key of the account over all pages, the disabled ones included. */
  async list(signal?: AbortSignal): Promise<RouterKeyRecord[]> {
    const keys: RouterKeyRecord[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = await this.#api.call(
        { method: 'GET', path: `/keys?include_disabled=true&offset=${keys.length}`, signal },
        'key list',
      );
      if (!Array.isArray(body.data))
        throw this.#api.malformed(200, 'The routing service sent a key list without data.');
      if (body.data.length === 0) return keys;
      keys.push(...body.data.map((row) => recordOf(obj(row) ?? {})));
    }
    throw this.#api.endless('key list', MAX_PAGES);
  }

  /** A new key; its plaintext comes this once, wrapped (reveal() to store it). */
  async create(key: NewRouterKey, signal?: AbortSignal): Promise<{ record: RouterKeyRecord; key: SecretValue }> {
    const body = await this.#api.call(
      {
        method: 'POST',
        path: '/keys',
        body: {
          name: key.name,
          limit: key.limit,
          limit_reset: key.limitReset,
          ...(key.expiresAtMs === null ? {} : { expires_at: utc(key.expiresAtMs) }),
        },
        signal,
      },
      'new key',
    );
    const data = obj(body.data);
    if (!data || typeof body.key !== 'string' || body.key === '')
      throw this.#api.malformed(201, 'The routing service created a key without sending it.');
    return { record: recordOf(data), key: new SecretValue(body.key) };
  }

  async get(hash: string, signal?: AbortSignal): Promise<RouterKeyRecord> {
    return this.#record(await this.#api.call({ method: 'GET', path: keyPath(hash), signal }, 'key'));
  }

  async change(hash: string, change: KeyChange, signal?: AbortSignal): Promise<RouterKeyRecord> {
    const body: Record<string, unknown> = {};
    if (change.name !== undefined) body.name = change.name;
    if (change.disabled !== undefined) body.disabled = change.disabled;
    if (change.limit !== undefined) body.limit = change.limit;
    if (change.limitReset !== undefined) body.limit_reset = change.limitReset;
    return this.#record(await this.#api.call({ method: 'PATCH', path: keyPath(hash), body, signal }, 'key change'));
  }

  /** Deletes a key for good. */
  async delete(hash: string, signal?: AbortSignal): Promise<void> {
    const body = await this.#api.call({ method: 'DELETE', path: keyPath(hash), signal }, 'key deletion');
    if (body.deleted !== true)
      throw this.#api.malformed(200, 'The routing service did not confirm the deletion of the key.');
  }

  close(): Promise<void> {
    return this.#api.close();
  }

  #record(body: Json): RouterKeyRecord {
    const data = obj(body.data);
    if (!data) throw this.#api.malformed(200, 'The routing service sent a key without its record.');
    return recordOf(data);
  }
}

const keyPath = (hash: string) => `/keys/${encodeURIComponent(hash)}`;
