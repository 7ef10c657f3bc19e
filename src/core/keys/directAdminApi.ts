// The direct service's organization API, spoken with an admin key (specs/openai-openapi.yaml, the paths under
// /organization with AdminApiKeyAuth): list projects, list and delete a project's keys, create a service account
// (whose key the service returns once), and the costs of this month. The API cannot create a user's project key.
//
// The admin key is the most dangerous secret the user holds here: it goes nowhere but these paths (a key that is not
// `sk-admin-` is refused before any request, so a key of another service never leaves for this host), it lives in a
// private field (no inspect or JSON of the client shows it), and every error is built by ServiceError with it as a
// known secret. Every string the lists carry passes the redactor before it is kept.
import type { ErrorKind } from '../../shared/errorKinds.ts';
import { classifyOpenAiResponse } from '../classify.ts';
import { ServiceError } from '../errors.ts';
import { type Json, obj } from '../json.ts';
import { redactSecrets } from '../redact.ts';
import type { SendOptions, TransportOptions } from '../transport.ts';
import { KeyedJsonApi } from './keyedJsonApi.ts';
import { SecretValue } from './secretValue.ts';

export interface DirectAdminOptions extends TransportOptions {
  /** The direct service's base URL, ending in /v1. */
  baseUrl: string;
  adminKey: string;
  now?: () => number;
}

export interface AdminProject {
  id: string;
  name: string;
  createdAtMs: number;
  archived: boolean;
}

export type KeyOwner =
  { type: 'user'; id: string; name: string; email: string } | { type: 'service_account'; id: string; name: string };

/** A project key as the list shows it: never the key itself, only its redacted form. */
export interface ProjectKey {
  id: string;
  name: string;
  /** "sk-proj...xyz": what `matchRedacted` (redactedMatch.ts) compares a found key with. */
  redactedValue: string;
  createdAtMs: number;
  /** Null: never used. */
  lastUsedAtMs: number | null;
  owner: KeyOwner;
}

export interface CreatedServiceAccount {
  id: string;
  name: string;
  projectId: string;
  /** The account's key, handed over this once; null when the service made none. */
  key: { id: string; name: string; value: SecretValue } | null;
}

export interface MonthCosts {
  /** Lowercase ISO-4217, as the service sends it ("usd"). */
  currency: string;
  total: number;
  /** 00:00 UTC on the 1st of this month. */
  fromMs: number;
  /** Each UTC day since the 1st: its start and what it cost. */
  days: { startMs: number; amount: number }[];
}

/** Most pages a list may take: a server whose `has_more` never ends must not hold Keyward forever. */
export const MAX_PAGES = 100;

const ADMIN_PREFIX = 'sk-admin-';

const ADVICE: Partial<Record<ErrorKind, string>> = {
  auth: "The direct service did not accept the admin key: it may have been deleted, have expired or be mistyped. Create one on the organization's Admin keys page and add it again.",
  permission:
    'This key may not do that: organization calls need an admin key with All permissions, or Restricted with the scope the message names (Admin keys page of the organization settings).',
};

const text = (value: unknown): string => (typeof value === 'string' ? redactSecrets(value) : '');
const msOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value * 1000 : 0);

/** A numeric amount: the spec says a number; a string of digits is taken too rather than dropped. */
function amountOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

function ownerOf(raw: Json | undefined): KeyOwner {
  const account = obj(raw?.service_account);
  if (raw?.type === 'service_account' && account)
    return { type: 'service_account', id: text(account.id), name: text(account.name) };
  const user = obj(raw?.user) ?? {};
  return { type: 'user', id: text(user.id), name: text(user.name), email: text(user.email) };
}

function projectOf(raw: Json): AdminProject {
  return {
    id: text(raw.id),
    name: text(raw.name),
    createdAtMs: msOf(raw.created_at),
    archived: raw.status === 'archived' || (raw.archived_at !== null && raw.archived_at !== undefined),
  };
}

function projectKeyOf(raw: Json): ProjectKey {
  return {
    id: text(raw.id),
    name: text(raw.name),
    redactedValue: text(raw.redacted_value),
    createdAtMs: msOf(raw.created_at),
    lastUsedAtMs: typeof raw.last_used_at === 'number' ? raw.last_used_at * 1000 : null,
    owner: ownerOf(obj(raw.owner)),
  };
}

/** 00:00 UTC on the 1st of the month holding `nowMs`. */
export function monthStartUtc(nowMs: number): number {
  const now = new Date(nowMs);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

export class DirectAdminApi {
  readonly #api: KeyedJsonApi;

  constructor(options: DirectAdminOptions) {
    const { adminKey, baseUrl, now, ...transport } = options;
    this.#api = new KeyedJsonApi({
      service: 'direct',
      baseUrl,
      key: adminKey,
      transport,
      classify: (failed) => classifyOpenAiResponse(failed, 'direct'),
      advice: ADVICE,
      ...(now ? { now } : {}),
    });
  }

  /** Every project of the organisation, all pages; archived ones only when asked. */
  async listProjects(options: { includeArchived?: boolean; signal?: AbortSignal } = {}): Promise<AdminProject[]> {
    const query = options.includeArchived ? 'include_archived=true&' : '';
    const rows = await this.#list(`/organization/projects?${query}`, 'project list', options.signal);
    return rows.map(projectOf);
  }

  /** Every live key of a project, all pages: names, owners, last use and redacted values, never a key. */
  async listProjectKeys(projectId: string, signal?: AbortSignal): Promise<ProjectKey[]> {
    const rows = await this.#list(`${projectPath(projectId)}/api_keys?`, 'key list', signal);
    return rows.map(projectKeyOf);
  }

  /** Deletes a project key for good (the service refuses a service account's key: delete the account instead). */
  async deleteProjectKey(projectId: string, keyId: string, signal?: AbortSignal): Promise<void> {
    const path = `${projectPath(projectId)}/api_keys/${encodeURIComponent(keyId)}`;
    const body = await this.#call({ method: 'DELETE', path, signal }, 'key deletion');
    if (body.deleted !== true)
      throw this.#api.malformed(
        200,
        `The direct service did not confirm the deletion of key ${text(body.id) || keyId}.`,
      );
  }

  /** A service account in the project; its key, returned this once, comes wrapped (reveal() to store it). */
  async createServiceAccount(projectId: string, name: string, signal?: AbortSignal): Promise<CreatedServiceAccount> {
    const body = await this.#call(
      { method: 'POST', path: `${projectPath(projectId)}/service_accounts`, body: { name }, signal },
      'service account',
    );
    const key = obj(body.api_key);
    const value = typeof key?.value === 'string' ? key.value : undefined;
    if (key && !value) throw this.#api.malformed(200, 'The direct service created a service account without its key.');
    return {
      id: text(body.id),
      name: text(body.name),
      projectId,
      key: key && value ? { id: text(key.id), name: text(key.name), value: new SecretValue(value) } : null,
    };
  }

  /** What the organisation spent since 00:00 UTC on the 1st: the sum of /organization/costs' daily buckets. */
  async costsThisMonth(signal?: AbortSignal): Promise<MonthCosts> {
    const fromMs = monthStartUtc(this.#api.now());
    const base = `/organization/costs?start_time=${fromMs / 1000}&bucket_width=1d&limit=31`;
    const days: MonthCosts['days'] = [];
    const currencies = new Set<string>();
    let page: string | null = null;
    for (let count = 0; ; count++) {
      if (count === MAX_PAGES) throw this.#api.endless('cost report', MAX_PAGES);
      const body = await this.#call(
        { method: 'GET', path: page ? `${base}&page=${encodeURIComponent(page)}` : base, signal },
        'cost report',
      );
      if (!Array.isArray(body.data))
        throw this.#api.malformed(200, 'The direct service sent a cost report without data.');
      for (const bucket of body.data.map(obj))
        days.push({ startMs: msOf(bucket?.start_time), amount: this.#bucketSum(bucket, currencies) });
      const next = typeof body.next_page === 'string' && body.next_page !== '' ? body.next_page : null;
      if (body.has_more !== true || next === null || next === page) break;
      page = next;
    }
    if (currencies.size > 1)
      throw this.#api.malformed(
        200,
        `The direct service reported costs in several currencies (${[...currencies].join(', ')}).`,
      );
    const total = Math.round(days.reduce((sum, day) => sum + day.amount, 0) * 1e10) / 1e10;
    return { currency: [...currencies][0] ?? 'usd', total, fromMs, days };
  }

  close(): Promise<void> {
    return this.#api.close();
  }

  #bucketSum(bucket: Json | undefined, currencies: Set<string>): number {
    let sum = 0;
    for (const result of Array.isArray(bucket?.results) ? bucket.results.map(obj) : []) {
      const amount = obj(result?.amount);
      const value = amountOf(amount?.value);
      if (value === undefined) throw this.#api.malformed(200, 'The direct service sent a cost without an amount.');
      currencies.add(text(amount?.currency).toLowerCase() || 'usd');
      sum += value;
    }
    return sum;
  }

  /** Every row of a cursor list (`after` = the last id), up to MAX_PAGES pages. */
  async #list(path: string, what: string, signal: AbortSignal | undefined): Promise<Json[]> {
    const rows: Json[] = [];
    let after: string | null = null;
    for (let count = 0; count < MAX_PAGES; count++) {
      const cursor: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const body = await this.#call({ method: 'GET', path: `${path}limit=100${cursor}`, signal }, what);
      if (!Array.isArray(body.data)) throw this.#api.malformed(200, `The direct service sent a ${what} without data.`);
      rows.push(...body.data.map((row) => obj(row) ?? {}));
      const last = typeof body.last_id === 'string' ? body.last_id : (obj(body.data.at(-1))?.id as string | undefined);
      if (body.has_more !== true || !last || last === after) return rows;
      after = last;
    }
    throw this.#api.endless(what, MAX_PAGES);
  }

  /** One request: refused before sending unless the key is an admin key; a failure in the error language. */
  async #call(request: Omit<SendOptions, 'key'>, what: string): Promise<Json> {
    const key = this.#api.key;
    if (!key.startsWith(ADMIN_PREFIX) || /\s/.test(key))
      throw new ServiceError({
        kind: 'auth',
        service: 'direct',
        code: 'not_admin_key',
        message: 'This is not an admin key (sk-admin-…); Keyward sends only admin keys to the organization API.',
        action: ADVICE.auth,
        secrets: [key],
      });
    return this.#api.call(request, what);
  }
}

const projectPath = (projectId: string) => `/organization/projects/${encodeURIComponent(projectId)}`;
