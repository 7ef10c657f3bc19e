// The direct service: OpenAI's Responses API, a key check that lists models (it proves api.model.read, not more),
// Restricted keys whose missing scopes errors name, usage tiers, rate-limit headers, and billing states a free
// check cannot see.
import { type DirectSnapshot, directStatusView } from '../account/accountStatus.ts';
import type { ResponsesClient, RateLimits } from '../wire/responsesClient.ts';
import { ServiceError, toServiceError } from '../errors.ts';
import { errorKindRule } from '../../shared/errorKindRules.ts';
import type { ServiceErrorData } from '../../shared/errorKinds.ts';
import { directOptions } from '../wire/modelOptions.ts';
import { toResponsesInput, toResponsesTools } from '../lm/messages.ts';
import { blocksPrompting, missingScopesIn } from '../../shared/scopes.ts';
import { directDescriptor } from './directDescriptor.ts';
import type { AccountContext, ServiceModule } from './module.ts';

export interface DirectVerification {
  service: 'direct';
  ok: true;
  /**
   * The key was recognised. Listing models is all a check can do without spending tokens: it proves
   * api.model.read (canListModels), never that the key may create responses. missingScopes holds every scope a
   * response has named as missing.
   */
  restricted: boolean;
  canListModels: boolean;
  missingScopes: string[];
}

/** What the key check saw: the model ids, or the refusal of a Restricted key the service still knows. */
export type DirectKeyCheck = { models: string[]; refusal: null } | { models: null; refusal: ServiceError };

function empty(context: AccountContext): DirectSnapshot {
  return {
    verified: null,
    lastError: null,
    lastErrorAt: null,
    rateLimits: null,
    tier: context.tier(),
    refreshedAt: null,
    stale: false,
    missingScopes: [],
    respondedAt: null,
  };
}

/** The scopes an error names as missing; the fallback when it names none it can be read from. */
function scopesOf(error: ServiceError, fallback: string | null): string[] {
  const named = missingScopesIn(error.message);
  if (named.length > 0) return named;
  if (error.code && /^[a-z]+(\.[a-z_]+)+$/.test(error.code)) return [error.code];
  return fallback ? [fallback] : [];
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** A billing state seen on a request stays until a request succeeds: the model list is free and cannot tell. */
function keepBillingError(last: ServiceErrorData | null): ServiceErrorData | null {
  const kind = last?.kind;
  return kind === 'credit_exhausted' || kind === 'spend_limit' || kind === 'usage_limit' ? last : null;
}

function statusText(canList: boolean, models: number, limits: RateLimits | null): string {
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

/** The key check: listing models spends nothing, and a Restricted key refused it is still a key the service knows. */
async function checkKey(client: ResponsesClient, signal?: AbortSignal): Promise<DirectKeyCheck> {
  try {
    return { models: await client.models(signal), refusal: null };
  } catch (error) {
    // A Restricted key may not list models, yet the service knows it.
    if (error instanceof ServiceError && error.kind === 'permission') return { models: null, refusal: error };
    throw error;
  }
}

export const directService = {
  descriptor: directDescriptor,
  open: async (options) =>
    new (await import('../wire/wireClients.ts')).ResponsesClient({ ...options, profile: directDescriptor }),
  prompt(client, input, options) {
    const last = input.turns.at(-1);
    const conversation = input.messages
      ? toResponsesInput(input.messages)
      : input.previousResponseId && last
        ? last.content
        : input.turns;
    const settings = input.settings ?? {};
    return client.respond(
      {
        model: input.model,
        input: input.text ?? conversation,
        ...(input.previousResponseId && !input.messages ? { previousResponseId: input.previousResponseId } : {}),
        ...(input.instructions ? { instructions: input.instructions } : {}),
        ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
        ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
        ...(settings.reasoningEffort === undefined ? {} : { reasoningEffort: settings.reasoningEffort }),
        ...(input.tools && input.tools.length > 0 ? { tools: toResponsesTools(input.tools) } : {}),
        ...(input.toolChoice ? { toolChoice: input.toolChoice } : {}),
      },
      {
        signal: options.signal,
        onRetry: options.onRetry,
        ...(options.stream === undefined ? {} : { stream: options.stream }),
      },
    );
  },
  modelOptions: async (client, signal) => directOptions(await client.models(signal)),
  rateLimits: (client) => client.lastRateLimits,
  checkKey,
  async cliStatus(client) {
    const { models } = await checkKey(client);
    const canList = models !== null;
    // canCreateResponses: null = not checked (a check that spends no tokens cannot tell).
    return {
      json: {
        recognised: true,
        canListModels: canList,
        models: canList ? models.length : null,
        canCreateResponses: null,
        rateLimits: client.lastRateLimits,
      },
      text: statusText(canList, models?.length ?? 0, client.lastRateLimits),
    };
  },
  account: {
    empty,
    current: (snapshot, context) => ({ ...snapshot, tier: context.tier() }),
    reset: (snapshot) => ({
      ...snapshot,
      verified: null,
      lastError: null,
      lastErrorAt: null,
      rateLimits: null,
      refreshedAt: null,
      stale: false,
      missingScopes: [],
      respondedAt: null,
    }),
    async verify(client, snapshot, context, signal) {
      try {
        const { refusal } = await checkKey(client, signal);
        if (refusal) {
          const missingScopes = union(snapshot.missingScopes, scopesOf(refusal, 'api.model.read'));
          const next: DirectSnapshot = {
            ...snapshot,
            verified: 'restricted',
            missingScopes,
            refreshedAt: context.now(),
            stale: false,
            checkError: null,
            lastError: keepBillingError(snapshot.lastError),
          };
          const verification: DirectVerification = {
            service: 'direct',
            ok: true,
            restricted: true,
            canListModels: false,
            missingScopes,
          };
          return { snapshot: next, verification };
        }
        const missingScopes = snapshot.missingScopes.filter((scope) => scope !== 'api.model.read');
        const next: DirectSnapshot = {
          ...snapshot,
          verified: missingScopes.length > 0 ? 'restricted' : 'ok',
          missingScopes,
          rateLimits: client.lastRateLimits ?? snapshot.rateLimits,
          refreshedAt: context.now(),
          stale: false,
          checkError: null,
          lastError: keepBillingError(snapshot.lastError),
        };
        const verification: DirectVerification = {
          service: 'direct',
          ok: true,
          restricted: missingScopes.length > 0,
          canListModels: true,
          missingScopes,
        };
        return { snapshot: next, verification };
      } catch (thrown) {
        const error = toServiceError(thrown, directDescriptor.id);
        const next: DirectSnapshot =
          error.kind === 'auth'
            ? {
                ...snapshot,
                verified: 'invalid',
                lastError: error.toData(),
                lastErrorAt: context.now(),
                stale: false,
                checkError: error.toData(),
              }
            : { ...snapshot, stale: snapshot.refreshedAt !== null, checkError: error.toData() };
        return { snapshot: next, verification: { service: directDescriptor.id, ok: false, error } };
      }
    },
    recordOutcome(snapshot, error, rateLimits, context) {
      // A response that names missing scopes says what the key lacks; one that works proves it may prompt.
      const missingScopes =
        error?.kind === 'permission'
          ? union(snapshot.missingScopes, scopesOf(error, null))
          : error
            ? snapshot.missingScopes
            : snapshot.missingScopes.filter((scope) => scope === 'api.model.read');
      const previous = snapshot.verified;
      return {
        ...snapshot,
        lastError: error && errorKindRule(error.kind).status !== 'keep' ? error.toData() : null,
        lastErrorAt: error ? context.now() : snapshot.lastErrorAt,
        rateLimits: rateLimits ?? snapshot.rateLimits,
        missingScopes,
        respondedAt: error ? snapshot.respondedAt : context.now(),
        verified:
          error?.kind === 'auth'
            ? 'invalid'
            : missingScopes.length > 0
              ? 'restricted'
              : previous === 'restricted'
                ? 'ok'
                : (previous ?? (error ? null : 'ok')),
      };
    },
    view: (snapshot, meta, _name, now) => directStatusView(snapshot, meta, now),
    // A live countdown for "rate limited (12s)".
    counting: (snapshot) => snapshot.lastError?.kind === 'rate_limit',
    remedy(snapshot, pages) {
      const missing = snapshot.missingScopes.filter(blocksPrompting);
      return missing.length > 0 && pages.keys
        ? {
            icon: 'shield',
            label: 'Give the Key {0}',
            args: [missing.join(', ')],
            description: 'opens the API keys page',
            url: pages.keys,
          }
        : undefined;
    },
    notice(verification, pages) {
      // Say what the check could see: listing models never proves the key may create responses.
      const blocking = verification.missingScopes.filter(blocksPrompting);
      if (blocking.length > 0)
        return {
          severity: 'warning',
          message:
            'The direct service key is recognised but restricted: it lacks {0}, so it cannot send prompts. Give it that permission on the API keys page, or use a key with All permissions.',
          args: [blocking.join(', ')],
          ...(pages.keys ? { open: { label: 'Open Keys Page', url: pages.keys } } : {}),
        };
      if (!verification.canListModels)
        return {
          severity: 'info',
          message:
            'The direct service key is valid but restricted: it may not list models. It can still prompt; type a model id in the prompt panel.',
          args: [],
        };
      return {
        severity: 'info',
        message:
          'The direct service key is valid and may list models. Whether it may create responses (api.responses.write) cannot be checked without spending tokens: the first prompt will show it.',
        args: [],
      };
    },
  },
} satisfies ServiceModule<DirectSnapshot, ResponsesClient, DirectVerification>;
