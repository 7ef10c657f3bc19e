// The admin API under /__admin/: what a person does in the services' settings
// pages (accounts, purchases, keys, limits), plus the clock and faults for tests.
// Documented in README.md beside this file.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDuration } from './clock.ts';
import type { EmulatorClock } from './clock.ts';
import { type FaultQueue, parseFaultSpec } from './faults.ts';
import { readAdminJson, sendJson } from './http.ts';
import type { RouterState } from './routerState.ts';
import type { DirectState, Permission } from './directState.ts';
import type { ServiceConfig } from './routerService.ts';
import type { CompatibleState } from './compatibleService.ts';

export interface AdminContext {
  router: RouterState;
  direct: DirectState;
  clock: EmulatorClock;
  faults: FaultQueue;
  config: ServiceConfig;
  compatible: CompatibleState;
  reset(sandbox: boolean): unknown;
  /** The service requests since the last reset, with their bodies. */
  requests?: () => readonly unknown[];
}

class AdminError extends Error {}

function num(value: unknown, name: string, allowNull = false): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null && allowNull) return null;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new AdminError(`${name} must be a number${allowNull ? ' or null' : ''}`);
  return value;
}

function str(value: unknown, name: string, fallback?: string): string {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || value.length === 0) throw new AdminError(`${name} must be a non-empty string`);
  return value;
}

/** An absolute expiry from `expiresAt` (ISO date) or `expiresIn` (a duration from now). */
function expiry(body: Record<string, unknown>, now: number): number | null {
  if (typeof body.expiresIn === 'string' || typeof body.expiresIn === 'number') {
    const ms = parseDuration(body.expiresIn);
    if (ms === undefined) throw new AdminError('expiresIn must be a duration such as "30d"');
    return now + ms;
  }
  if (typeof body.expiresAt === 'string') {
    const at = Date.parse(body.expiresAt);
    if (Number.isNaN(at)) throw new AdminError('expiresAt must be an ISO date');
    return at;
  }
  return null;
}

const PERMISSIONS: Permission[] = ['all', 'restricted', 'read_only'];

function permission(value: unknown): Permission | undefined {
  if (value === undefined) return undefined;
  const normal = typeof value === 'string' ? value.toLowerCase().replace(' ', '_') : value;
  if (!PERMISSIONS.includes(normal as Permission))
    throw new AdminError('permissions must be "All", "Restricted" or "Read Only"');
  return normal as Permission;
}

function scopes(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string'))
    throw new AdminError('scopes must be an array of strings');
  return value;
}

export async function handleAdmin(
  ctx: AdminContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  let body: Record<string, unknown>;
  try {
    body = method === 'GET' || method === 'DELETE' ? {} : await readAdminJson(req);
  } catch (error) {
    return sendJson(res, 400, { error: `bad admin request body: ${(error as Error).message}` });
  }
  try {
    const result = route(ctx, method, path.split('/').filter(Boolean), body);
    if (result === undefined)
      return sendJson(res, 404, { error: `no admin route ${method} /__admin/${path.replace(/^\//, '')}` });
    sendJson(res, 200, result);
  } catch (error) {
    sendJson(res, 400, { error: (error as Error).message });
  }
}

function route(ctx: AdminContext, method: string, parts: string[], body: Record<string, unknown>): unknown {
  const { router, direct, clock } = ctx;
  const now = clock.now();
  const [area, a, b, c, d] = parts;
  const is = (m: string, length: number) => method === m && parts.length === length;

  if (area === 'state' && is('GET', 1))
    return {
      now: new Date(now).toISOString(),
      config: ctx.config,
      router: router.snapshot(),
      direct: direct.snapshot(),
      faults: ctx.faults.pending(),
    };
  if (area === 'reset' && is('POST', 1)) return ctx.reset(body.sandbox === true);
  // The OpenAI-compatible server's key and the Authorization header each request carried.
  if (area === 'compatible' && is('GET', 1)) return { key: ctx.compatible.key, seen: ctx.compatible.seen };
  if (area === 'config' && is('GET', 1)) return ctx.config;
  // What each service request carried (path, bearer, body): an in-host test proves what left the editor.
  if (area === 'requests' && is('GET', 1)) return { requests: ctx.requests?.() ?? [] };
  if (area === 'config' && is('POST', 1)) {
    const delay = num(body.tokenDelayMs, 'tokenDelayMs');
    const tokens = num(body.answerTokens, 'answerTokens');
    const retry = num(body.inFlightRetryAfterSeconds, 'inFlightRetryAfterSeconds');
    if (delay !== undefined && delay !== null) ctx.config.tokenDelayMs = Math.max(0, delay);
    if (tokens !== undefined && tokens !== null) ctx.config.answerTokens = Math.max(1, Math.floor(tokens));
    if (retry !== undefined && retry !== null) ctx.config.inFlightRetryAfterSeconds = Math.max(0, retry);
    if (body.missingScopesStatus !== undefined) {
      if (body.missingScopesStatus !== 401 && body.missingScopesStatus !== 403)
        throw new AdminError('missingScopesStatus must be 401 or 403');
      ctx.config.missingScopesStatus = body.missingScopesStatus;
    }
    return ctx.config;
  }
  if (area === 'clock' && is('GET', 1)) return { now: new Date(now).toISOString(), epochMs: now };
  if (area === 'clock' && is('POST', 1)) {
    if (body.advance !== undefined) {
      const ms = parseDuration(body.advance);
      if (ms === undefined || ms < 0) throw new AdminError('advance must be a duration such as "61s", "1d" or "365d"');
      clock.advance(ms);
    } else if (typeof body.set === 'string') {
      const at = Date.parse(body.set);
      if (Number.isNaN(at)) throw new AdminError('set must be an ISO date');
      clock.set(at);
    } else if (body.reset === true) clock.reset();
    else throw new AdminError('give advance, set or reset');
    return { now: new Date(clock.now()).toISOString(), epochMs: clock.now() };
  }
  if (area === 'faults' && is('GET', 1)) return { faults: ctx.faults.pending() };
  if (area === 'faults' && is('DELETE', 1)) {
    ctx.faults.clear();
    return { faults: [] };
  }
  if (area === 'faults' && is('POST', 1)) {
    ctx.faults.add(parseFaultSpec(body), num(body.count, 'count') ?? 1);
    return { faults: ctx.faults.pending() };
  }

  if (area === 'router') {
    if (a === 'accounts' && is('POST', 2)) {
      const account = router.createAccount(str(body.name, 'name', 'account'));
      return { id: account.id, name: account.name };
    }
    if (a === 'accounts' && b && is('PATCH', 3)) {
      const account = router.account(b);
      if (body.denyDataCollection !== undefined) {
        if (typeof body.denyDataCollection !== 'boolean')
          throw new AdminError('denyDataCollection must be true or false');
        account.denyDataCollection = body.denyDataCollection;
      }
      return { id: account.id, denyDataCollection: account.denyDataCollection };
    }
    if (a === 'accounts' && b && c === 'purchase' && is('POST', 4)) {
      const method = body.method ?? 'card';
      if (method !== 'card' && method !== 'crypto') throw new AdminError('method must be "card" or "crypto"');
      const account = router.account(b);
      const purchase = router.purchase(account, num(body.amount, 'amount') ?? 0, method);
      return {
        purchase,
        balance: router.balance(account),
        totalPurchased: account.totalPurchased,
        freeDailyLimit: router.freeDailyLimit(account),
      };
    }
    if (a === 'accounts' && b && c === 'spend' && is('POST', 4)) {
      const account = router.account(b);
      // On one key (by its value), so its usage and limit move as a request's would.
      const key =
        typeof body.key === 'string' ? [...router.keys.values()].find((k) => k.value === body.key) : undefined;
      if (body.key !== undefined && !key) throw new AdminError('no such key');
      router.spend(account, key, num(body.amount, 'amount') ?? 0);
      return { balance: router.balance(account) };
    }
    if (a === 'accounts' && b && c === 'free-requests' && is('POST', 4)) {
      const account = router.account(b);
      router.freeUsed(account);
      account.freeUsedToday = Math.max(0, Math.floor(num(body.used, 'used') ?? 0));
      return { used: account.freeUsedToday, limit: router.freeDailyLimit(account) };
    }
    if (a === 'keys' && is('POST', 2)) {
      const limitReset = body.limitReset ?? null;
      if (limitReset !== null && !['daily', 'weekly', 'monthly'].includes(limitReset as string))
        throw new AdminError('limitReset must be daily, weekly, monthly or null');
      const key = router.createKey({
        accountId: str(body.accountId, 'accountId'),
        name: str(body.name, 'name', 'key'),
        limit: num(body.limit, 'limit', true) ?? null,
        limitReset: limitReset as 'daily' | null,
        expiresAt: expiry(body, now),
        management: body.management === true,
      });
      return { id: key.id, key: key.value, name: key.name };
    }
    if (a === 'keys' && b && is('PATCH', 3)) {
      if (body.expiresAt !== undefined || body.expiresIn !== undefined)
        throw new AdminError("a key's expiry can be set only when the key is created");
      const key = router.key(b);
      const limit = num(body.limit, 'limit', true);
      if (limit !== undefined) key.limit = limit;
      return { id: key.id, limit: key.limit, limitRemaining: router.keyLimitRemaining(key) };
    }
    if (a === 'keys' && b && is('DELETE', 3)) {
      router.key(b).deleted = true;
      return { id: b, deleted: true };
    }
  }

  if (area === 'direct') {
    if (a === 'orgs' && is('POST', 2)) {
      const org = direct.createOrg(str(body.name, 'name', 'organisation'));
      if (body.autoReload !== undefined) Object.assign(org.autoReload, body.autoReload);
      return { id: org.id, defaultProjectId: direct.defaultProject(org).id };
    }
    if (a === 'orgs' && b && is('PATCH', 3)) {
      const org = direct.org(b);
      const limit = num(body.spendLimit, 'spendLimit', true);
      if (limit !== undefined) org.spendLimit = limit;
      if (body.autoReload !== undefined) {
        const reload = body.autoReload as Record<string, unknown>;
        const amount = num(reload.amount, 'autoReload.amount');
        if (amount !== undefined && amount !== null && amount < 5)
          throw new AdminError('the minimum auto-reload recharge is 5 dollars');
        Object.assign(org.autoReload, reload);
      }
      return { id: org.id, spendLimit: org.spendLimit, autoReload: org.autoReload };
    }
    if (a === 'orgs' && b && c === 'projects' && is('POST', 4)) {
      const project = direct.createProject(direct.org(b), str(body.name, 'name'));
      return { id: project.id, name: project.name };
    }
    if (a === 'orgs' && b && c === 'projects' && d && is('PATCH', 5)) {
      const project = direct.project(direct.org(b), d);
      const limit = num(body.spendLimit, 'spendLimit', true);
      if (limit !== undefined) project.spendLimit = limit;
      if (body.archived !== undefined) {
        if (typeof body.archived !== 'boolean') throw new AdminError('archived must be true or false');
        project.archivedAt = body.archived ? (project.archivedAt ?? now) : null;
      }
      return { id: project.id, spendLimit: project.spendLimit, archived: project.archivedAt !== null };
    }
    if (a === 'orgs' && b && c === 'purchase' && is('POST', 4)) {
      const org = direct.org(b);
      direct.purchase(org, num(body.amount, 'amount') ?? 10);
      const tier = direct.tier(org);
      return {
        balance: direct.balance(org),
        totalPurchased: org.totalPurchased,
        tier: tier.tier,
        monthlyLimit: tier.monthlyLimit,
      };
    }
    if (a === 'orgs' && b && c === 'free-credits' && is('POST', 4)) {
      const org = direct.org(b);
      const expiresIn = body.expiresIn === undefined ? null : (parseDuration(body.expiresIn) ?? null);
      direct.grantFreeCredits(org, num(body.amount, 'amount') ?? 0, expiresIn);
      return { balance: direct.balance(org) };
    }
    if (a === 'orgs' && b && c === 'spend' && is('POST', 4)) {
      const org = direct.org(b);
      const project =
        typeof body.projectId === 'string' ? direct.project(org, body.projectId) : direct.defaultProject(org);
      const amount = num(body.amount, 'amount') ?? 0;
      const lineItem = body.lineItem === undefined ? undefined : str(body.lineItem, 'lineItem');
      direct.spend(org, project, amount, lineItem ? { lines: [{ item: lineItem, amount }] } : {});
      return { balance: direct.balance(org), monthSpend: direct.monthSpend(org) };
    }
    if (a === 'keys' && is('POST', 2)) {
      const kind = body.kind;
      if (kind !== undefined && kind !== 'proj' && kind !== 'svcacct' && kind !== 'admin')
        throw new AdminError('kind must be proj, svcacct or admin');
      const key = direct.createKey({
        orgId: str(body.orgId, 'orgId'),
        ...(typeof body.projectId === 'string' ? { projectId: body.projectId } : {}),
        permissions: permission(body.permissions) ?? 'all',
        scopes: scopes(body.scopes) ?? [],
        expiresAt: expiry(body, now),
        ...(kind ? { kind } : {}),
        ...(body.name === undefined ? {} : { name: str(body.name, 'name') }),
        ...(body.serviceAccountId === undefined
          ? {}
          : { serviceAccountId: str(body.serviceAccountId, 'serviceAccountId') }),
      });
      return { id: key.id, key: key.value, permissions: key.permissions, name: key.name };
    }
    if (a === 'keys' && b && is('PATCH', 3)) {
      const key = direct.key(b);
      key.permissions = permission(body.permissions) ?? key.permissions;
      const list = scopes(body.scopes);
      if (list) key.scopes = new Set(list);
      return { id: key.id, permissions: key.permissions, scopes: [...key.scopes] };
    }
    if (a === 'keys' && b && c === 'disable' && is('POST', 4)) {
      direct.key(b).disabled = true;
      return { id: b, disabled: true };
    }
    if (a === 'keys' && b && is('DELETE', 3)) {
      direct.key(b).revoked = true;
      return { id: b, revoked: true };
    }
  }
  return undefined;
}
