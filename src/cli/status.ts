// keyward status --service router|direct|compatible [--base-url URL] [--json]
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG } from '../core/config.ts';
import { DirectClient, type RateLimits } from '../core/directClient.ts';
import { ServiceError } from '../core/errors.ts';
import { redactSecrets } from '../core/redact.ts';
import { nextUtcMidnight } from '../core/freeGuard.ts';
import { type RouterCredits, type RouterKeyInfo, RouterClient } from '../core/routerClient.ts';
import type { ServiceId } from '../core/services.ts';
import { type CliIo, EXIT } from './io.ts';
import {
  BASE_URL_ENV,
  KEY_ENV,
  SERVICE_CHOICES,
  UsageError,
  baseUrlFor,
  errorJson,
  keyFor,
  reportUsage,
  serviceOption,
  writeError,
} from './common.ts';

export const STATUS_HELP = `Usage: keyward status --service ${SERVICE_CHOICES} [--base-url URL] [--json]

Checks the key without spending tokens.
  router: the key check: credit limit, what is left, usage, expiry, today's free-model
          requests, and whether the key lacks a credit limit or an expiry.
  direct: whether the key is recognised, whether it may list models, and the
          rate-limit headers the service sent. Whether it may create responses
          cannot be checked without spending tokens: it says so.
  compatible: whether the endpoint answers and lists models (GET /models); a server
          without a model list still answers prompts for a model id you give.

The key comes from ${KEY_ENV.router} (router), ${KEY_ENV.direct} (direct) or
${KEY_ENV.compatible} (compatible, optional); without --base-url, ${BASE_URL_ENV.router} /
${BASE_URL_ENV.direct} / ${BASE_URL_ENV.compatible} name the base URL (compatible needs one).
With --json every failure prints the JSON object, usage errors included.
Exit status: 0 checked, 1 service error (e.g. the key is not valid), 2 usage error.
`;

const money = (n: number | null) => (n === null ? 'none' : `$${n.toFixed(2)}`);

export function routerWarnings(info: RouterKeyInfo): string[] {
  const warnings: string[] = [];
  if (info.limit === null) warnings.push('no_credit_limit');
  if (info.expiresAt === null) warnings.push('no_expiry');
  return warnings;
}

function routerText(info: RouterKeyInfo, credits: RouterCredits | null, now: number): string {
  const free = info.freeModelDailyRequests;
  const lines = [
    `key        ${info.label}`,
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

function directText(canList: boolean, models: number, limits: RateLimits | null): string {
  const lines = [
    'key        recognised',
    `models     ${canList ? `may list models (${models})` : 'may not list models (Restricted key without Models read); it may still prompt'}`,
    // Listing models spends nothing and proves nothing about creating responses.
    'responses  not checked: only a prompt shows whether the key may create responses (api.responses.write)',
  ];
  if (limits) {
    lines.push(
      `requests   ${limits.remainingRequests ?? '?'}/${limits.limitRequests ?? '?'} left this minute (resets in ${limits.resetRequestsSeconds ?? '?'} s)`,
    );
    lines.push(`tokens     ${limits.remainingTokens ?? '?'}/${limits.limitTokens ?? '?'} left this minute`);
  } else lines.push('rate limits not reported');
  return lines.join('\n') + '\n';
}

export async function statusCommand(args: string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        service: { type: 'string' },
        'base-url': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    return reportUsage(
      io,
      'status',
      args.includes('--json'),
      new UsageError((error as Error).message, 'unknown_option'),
    );
  }
  if (values.help) {
    io.stdout.write(STATUS_HELP);
    return EXIT.ok;
  }
  let service: ServiceId;
  let baseUrl: string;
  let key: string;
  try {
    service = serviceOption(values.service);
    baseUrl = baseUrlFor(service, values['base-url'], io.env);
    key = keyFor(service, io.env);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io, 'status', values.json, error);
    throw error;
  }
  const connection = {
    baseUrl,
    key,
    connectTimeoutMs: DEFAULT_CONFIG.network.connectTimeoutMs,
    idleTimeoutMs: DEFAULT_CONFIG.network.idleTimeoutMs,
  };
  // The key check echoes fields of the service's choosing (the key's label): nothing key-shaped is printed.
  const out = { write: (text: string) => io.stdout.write(redactSecrets(text, key ? [key] : [])) };
  switch (service) {
    case 'router':
      return routerStatus(connection, out, io, values.json);
    case 'direct':
      return directStatus(connection, out, io, values.json);
    case 'compatible':
      return compatibleStatus(connection, out, io, values.json);
  }
}

interface Connection {
  baseUrl: string;
  key: string;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}
type Out = { write(text: string): unknown };

async function routerStatus(connection: Connection, out: Out, io: CliIo, json: boolean): Promise<number> {
  const service = 'router';
  const client = new RouterClient(connection);
  try {
    const [info, credits] = await Promise.all([client.keyInfo(), client.credits()]);
    const now = Date.now();
    if (json) {
      out.write(
        JSON.stringify({
          ok: true,
          service,
          key: info,
          credits,
          free: info.freeModelDailyRequests
            ? { ...info.freeModelDailyRequests, resetsAt: new Date(nextUtcMidnight(now)).toISOString() }
            : null,
          warnings: routerWarnings(info),
        }) + '\n',
      );
    } else out.write(routerText(info, credits, now));
    return EXIT.ok;
  } catch (error) {
    return fail(io, error, json);
  } finally {
    await client.close();
  }
}

async function directStatus(connection: Connection, out: Out, io: CliIo, json: boolean): Promise<number> {
  const service = 'direct';
  const client = new DirectClient(connection);
  try {
    let canList = true;
    let models = 0;
    try {
      models = (await client.models()).length;
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind !== 'permission') throw error;
      canList = false;
    }
    // canCreateResponses: null = not checked (a check that spends no tokens cannot tell).
    if (json)
      out.write(
        JSON.stringify({
          ok: true,
          service,
          recognised: true,
          canListModels: canList,
          models: canList ? models : null,
          canCreateResponses: null,
          rateLimits: client.lastRateLimits,
        }) + '\n',
      );
    else out.write(directText(canList, models, client.lastRateLimits));
    return EXIT.ok;
  } catch (error) {
    return fail(io, error, json);
  } finally {
    await client.close();
  }
}

/** GET /models: it answers (with the key, if one is set), and lists models or has no list. */
async function compatibleStatus(connection: Connection, out: Out, io: CliIo, json: boolean): Promise<number> {
  const client = new RouterClient({ ...connection, service: 'compatible' });
  try {
    let models: string[] | null = null;
    try {
      models = (await client.models()).map((model) => model.id);
    } catch (error) {
      // No model list is allowed: the model id is then given by hand.
      if (!(error instanceof ServiceError) || error.kind !== 'bad_request' || error.status !== 404) throw error;
    }
    if (json)
      out.write(
        JSON.stringify({
          ok: true,
          service: 'compatible',
          answering: true,
          keySent: connection.key !== '',
          canListModels: models !== null,
          models,
        }) + '\n',
      );
    else
      out.write(
        [
          'endpoint   answering',
          `key        ${connection.key ? 'sent' : 'none sent'}`,
          `models     ${models === null ? 'no model list (GET /models is not offered): give --model yourself' : `${models.length}${models.length ? `: ${models.slice(0, 10).join(', ')}` : ''}`}`,
        ].join('\n') + '\n',
      );
    return EXIT.ok;
  } catch (error) {
    return fail(io, error, json);
  } finally {
    await client.close();
  }
}

function fail(io: CliIo, error: unknown, json: boolean): number {
  if (!(error instanceof ServiceError)) throw error;
  if (json) io.stdout.write(errorJson(error) + '\n');
  else writeError(io, error);
  return EXIT.failure;
}
