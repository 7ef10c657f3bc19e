// The routing service: chat completions, a key check that reads the key's limit and expiry, prepaid credits, free
// models with per-minute and per-day allowances.
import { type RouterSnapshot, isNegativeBalance, routerStatusView } from '../account/accountStatus.ts';
import { type ServiceError, toServiceError } from '../errors.ts';
import { nextUtcMidnight } from '../wire/freeGuard.ts';
import { keepsWhatWasKnown } from '../../shared/errorKindRules.ts';
import { routerOptions } from '../wire/modelOptions.ts';
import type { RouterCredits, RouterKeyInfo, ChatCompletionsClient } from '../wire/chatCompletionsClient.ts';
import type { ServiceErrorData } from '../../shared/errorKinds.ts';
import { promptChat } from './chatCompletions.ts';
import type { ServiceModule } from './module.ts';
import { routerDescriptor } from './routerDescriptor.ts';

export interface RouterVerification {
  service: 'router';
  ok: true;
  warnings: ('no_credit_limit' | 'no_expiry')[];
  expiresAt: string | null;
}

const EMPTY: RouterSnapshot = {
  keyInfo: null,
  credits: null,
  free: null,
  lastError: null,
  refreshedAt: null,
  stale: false,
};

/** What the service recommends for every key and this one lacks. */
export function routerWarnings(info: RouterKeyInfo): ('no_credit_limit' | 'no_expiry')[] {
  const warnings: ('no_credit_limit' | 'no_expiry')[] = [];
  if (info.limit === null) warnings.push('no_credit_limit');
  if (info.expiresAt === null) warnings.push('no_expiry');
  return warnings;
}

/**
 * A 402 for the balance stays through key checks: the key check cannot see the balance, so only a request that
 * works (or credits readable again and above zero) shows it was settled.
 */
function keepBillingError(last: ServiceErrorData | null, credits: RouterCredits | null): ServiceErrorData | null {
  if (last?.kind !== 'insufficient_credits') return null;
  return credits && credits.balance > 0 ? null : last;
}

const money = (n: number | null) => (n === null ? 'none' : `$${n.toFixed(2)}`);

/** `masked`: the key as every other place masks it; the service's label (`sk-or-v1-57...635`) cuts it its own way. */
function statusText(info: RouterKeyInfo, credits: RouterCredits | null, now: number, masked?: string): string {
  const free = info.freeModelDailyRequests;
  const lines = [
    `key        ${masked ?? info.label}`,
    `limit      ${info.limit === null ? 'no limit' : money(info.limit)}${info.limitReset ? ` (resets ${info.limitReset})` : ''}`,
    `remaining  ${info.limitRemaining === null ? 'no limit' : money(info.limitRemaining)}`,
    `usage      ${money(info.usage)} (today ${money(info.usageDaily)})`,
    `expires    ${info.expiresAt ?? 'never'}`,
    `free today ${free ? `${Math.min(free.used, free.limit)}/${free.limit} (resets ${new Date(nextUtcMidnight(now)).toISOString()})` : 'unknown'}`,
    `balance    ${credits ? money(credits.balance) : 'not readable with this key (management keys only)'}`,
  ];
  if (credits && credits.balance < 0)
    lines.push(
      `warning    the balance is below zero: every call fails, free models included, until at least ${money(-credits.balance)} of credits are added`,
    );
  if (info.limit === null)
    lines.push(
      'warning    this key has no credit limit: set one in the key settings so a leak cannot spend the whole balance',
    );
  if (info.expiresAt === null) lines.push('warning    this key has no expiry: create keys with an expiry date');
  return lines.join('\n') + '\n';
}

/** The key check: GET /key reads the key's label, limit and expiry, and spends nothing. */
function checkKey(client: ChatCompletionsClient, signal?: AbortSignal): Promise<RouterKeyInfo> {
  return client.keyInfo(signal);
}

export const routerService = {
  descriptor: routerDescriptor,
  open: async (options) =>
    new (await import('../wire/wireClients.ts')).ChatCompletionsClient({ ...options, profile: routerDescriptor }),
  prompt: promptChat,
  modelOptions: async (client, signal) => routerOptions(await client.models(signal)),
  rateLimits: () => undefined,
  checkKey,
  async cliStatus(client, key) {
    const [info, credits] = await Promise.all([checkKey(client), client.credits()]);
    const now = Date.now();
    return {
      json: {
        key: key ? { ...info, masked: key.masked } : info,
        credits,
        free: info.freeModelDailyRequests
          ? { ...info.freeModelDailyRequests, resetsAt: new Date(nextUtcMidnight(now)).toISOString() }
          : null,
        warnings: routerWarnings(info),
      },
      text: statusText(info, credits, now, key?.masked),
    };
  },
  account: {
    empty: () => EMPTY,
    current: (snapshot) => snapshot,
    reset(_snapshot, context) {
      context.freeGuard.updateFromKeyCheck(null);
      return EMPTY;
    },
    async verify(client, snapshot, context, signal) {
      try {
        const [keyInfo, credits] = await Promise.all([checkKey(client, signal), client.credits(signal)]);
        const next: RouterSnapshot = {
          keyInfo,
          credits,
          free: context.freeGuard.status(),
          lastError: keepBillingError(snapshot.lastError, credits),
          refreshedAt: context.now(),
          stale: false,
          checkError: null,
        };
        const verification: RouterVerification = {
          service: 'router',
          ok: true,
          warnings: routerWarnings(keyInfo),
          expiresAt: keyInfo.expiresAt,
        };
        return { snapshot: next, verification };
      } catch (thrown) {
        const error = toServiceError(thrown, routerDescriptor.id);
        const transient = keepsWhatWasKnown(error.kind);
        const next: RouterSnapshot = {
          ...snapshot,
          lastError: transient ? snapshot.lastError : error.toData(),
          stale: transient ? snapshot.refreshedAt !== null : false,
          checkError: error.toData(),
        };
        if (!transient) next.keyInfo = error.kind === 'auth' ? null : snapshot.keyInfo;
        return { snapshot: next, verification: { service: routerDescriptor.id, ok: false, error } };
      }
    },
    recordOutcome(snapshot, error: ServiceError | null) {
      // What a request tells about this account: the key refused, the balance or the key's limit spent.
      if (error && ['auth', 'insufficient_credits', 'key_limit'].includes(error.kind))
        return { ...snapshot, lastError: error.toData() };
      if (!error && snapshot.lastError) return { ...snapshot, lastError: null };
      return snapshot;
    },
    view: (snapshot, meta, _name, now) => routerStatusView(snapshot, meta, now),
    counting: () => false,
    remedy: (snapshot, pages) =>
      isNegativeBalance(snapshot) && pages.credits
        ? {
            icon: 'credit-card',
            label: 'Add Credits',
            args: [],
            description: 'the balance is below zero: every call fails until it is back above zero',
            url: pages.credits,
          }
        : undefined,
    notice(verification, pages) {
      if (verification.warnings.length === 0)
        return {
          severity: 'info',
          message: 'The routing service key is valid, with a credit limit and an expiry date.',
          args: [],
        };
      const problems = verification.warnings
        .map((w) => (w === 'no_credit_limit' ? 'no credit limit' : 'no expiry date'))
        .join(' and ');
      return {
        severity: 'warning',
        message:
          'The routing service key is valid, but it has {0}. The service recommends a credit limit and an expiry on every key.',
        args: [problems],
        ...(pages.keys ? { open: { label: 'Open Key Settings', url: pages.keys } } : {}),
      };
    },
    freeChanged: (snapshot, free) => ({ ...snapshot, free }),
  },
} satisfies ServiceModule<RouterSnapshot, ChatCompletionsClient, RouterVerification>;
