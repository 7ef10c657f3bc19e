// The routing service's key management API (specs/openrouter-openapi.yaml, /keys and /keys/{hash}), spoken with a
// management key: list (include_disabled, offset), create (the plaintext key in the 201 answer only), get, patch
// (name, disabled, limit, limit_reset, include_byok_in_limit) and delete. Any other key is refused with the spec's
// 403. What the spec leaves open, and what is assumed here:
// - `hash` is "Unique hash identifier for the API key" and nothing more: here 64 random hex characters, unrelated to
//   the key's value, so a client cannot (and must not) compute it from a key.
// - `label` in the list is the spec's example form, "sk-or-v1-0e6...1c96": twelve characters, three dots, four.
// - A page holds PAGE_SIZE keys; the spec names `offset` but no page size.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { utcMonth, utcWeekStart } from './clock.ts';
import { BodyError, readJsonObject, sendJson } from './http.ts';
import type { RouterKey, RouterState } from './routerState.ts';

export const PAGE_SIZE = 100;
const RESETS = new Set(['daily', 'weekly', 'monthly']);

function fail(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { code: status, message } });
}

/** The list's label of a key, as the spec's example shows it. */
export function listedLabel(value: string): string {
  return `${value.slice(0, 12)}...${value.slice(-4)}`;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));

function recordOf(state: RouterState, key: RouterKey, now: number): Record<string, unknown> {
  const day = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  return {
    hash: key.hash,
    name: key.name,
    label: listedLabel(key.value),
    disabled: key.disabled,
    limit: key.limit,
    limit_remaining: state.keyLimitRemaining(key),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    usage: state.keyUsage(key),
    usage_daily: state.keyUsage(key, day),
    usage_weekly: state.keyUsage(key, utcWeekStart(now)),
    usage_monthly: state.keyUsage(key, Date.parse(`${utcMonth(now)}-01T00:00:00Z`)),
    byok_usage: 0,
    byok_usage_daily: 0,
    byok_usage_weekly: 0,
    byok_usage_monthly: 0,
    created_at: iso(key.createdAt),
    updated_at: iso(key.updatedAt),
    expires_at: iso(key.expiresAt),
    creator_user_id: `user_${key.accountId}`,
    workspace_id: '00000000-0000-4000-8000-000000000000',
  };
}

/** The body's fields for create (`creating`) or patch, checked as the spec types them; a string is what is wrong. */
function fieldsOf(body: Record<string, unknown>, creating: boolean, now: number): Partial<RouterKey> | string {
  const out: Partial<RouterKey> = {};
  if (creating || body.name !== undefined) {
    if (typeof body.name !== 'string' || body.name.trim() === '') return 'name must be a non-empty string';
    out.name = body.name;
  }
  if (body.limit !== undefined) {
    if (body.limit !== null && (typeof body.limit !== 'number' || !Number.isFinite(body.limit) || body.limit < 0))
      return 'limit must be a number of USD, 0 or more, or null';
    out.limit = body.limit;
  }
  if (body.limit_reset !== undefined) {
    if (body.limit_reset !== null && !RESETS.has(body.limit_reset as string))
      return 'limit_reset must be daily, weekly, monthly or null';
    out.limitReset = body.limit_reset as RouterKey['limitReset'];
  }
  if (body.include_byok_in_limit !== undefined) {
    if (typeof body.include_byok_in_limit !== 'boolean') return 'include_byok_in_limit must be a boolean';
    out.includeByokInLimit = body.include_byok_in_limit;
  }
  if (!creating && body.disabled !== undefined) {
    if (typeof body.disabled !== 'boolean') return 'disabled must be a boolean';
    out.disabled = body.disabled;
  }
  if (creating && body.expires_at !== undefined && body.expires_at !== null) {
    // "Must be UTC, other timezones will be rejected."
    const at = typeof body.expires_at === 'string' && /Z$/.test(body.expires_at) ? Date.parse(body.expires_at) : NaN;
    if (Number.isNaN(at)) return 'expires_at must be an ISO 8601 timestamp in UTC (ending in Z)';
    if (at <= now) return 'expires_at must be in the future';
    out.expiresAt = at;
  }
  return out;
}

/** GET/POST /keys and GET/PATCH/DELETE /keys/{hash}, for the management key `manager`. */
export async function handleRouterKeys(
  state: RouterState,
  now: number,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  manager: RouterKey,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (!manager.management) return fail(res, 403, 'Only management keys can perform this operation');
  const owned = [...state.keys.values()].filter(
    (k) => k.accountId === manager.accountId && !k.deleted && !k.management,
  );
  if (path === '/keys' && method === 'GET') {
    const url = new URL(req.url ?? '/', 'http://x');
    const offset = Number(url.searchParams.get('offset') ?? '0');
    if (!Number.isInteger(offset) || offset < 0) return fail(res, 400, 'Invalid request parameters');
    const withDisabled = url.searchParams.get('include_disabled') === 'true';
    const listed = owned.filter((k) => withDisabled || !k.disabled).slice(offset, offset + PAGE_SIZE);
    return sendJson(res, 200, { data: listed.map((k) => recordOf(state, k, now)) });
  }
  let body: Record<string, unknown> = {};
  if (method === 'POST' || method === 'PATCH') {
    try {
      body = await readJsonObject(req);
    } catch (error) {
      if (error instanceof BodyError) return fail(res, 400, 'Invalid request parameters');
      throw error;
    }
  }
  if (path === '/keys' && method === 'POST') {
    const fields = fieldsOf(body, true, now);
    if (typeof fields === 'string') return fail(res, 400, fields);
    const key = state.createKey({ accountId: manager.accountId, name: fields.name!, ...fields });
    return sendJson(res, 201, { data: recordOf(state, key, now), key: key.value });
  }
  const hash = /^\/keys\/([^/]+)$/.exec(path)?.[1];
  const key = hash === undefined ? undefined : owned.find((k) => k.hash === decodeURIComponent(hash));
  if (hash === undefined) return fail(res, 404, 'Not Found');
  if (!key) return fail(res, 404, 'Resource not found');
  if (method === 'GET') return sendJson(res, 200, { data: recordOf(state, key, now) });
  if (method === 'DELETE') {
    key.deleted = true;
    return sendJson(res, 200, { deleted: true });
  }
  if (method === 'PATCH') {
    const fields = fieldsOf(body, false, now);
    if (typeof fields === 'string') return fail(res, 400, fields);
    Object.assign(key, fields, { updatedAt: now });
    return sendJson(res, 200, { data: recordOf(state, key, now) });
  }
  return fail(res, 405, `Method ${method} not allowed`);
}
