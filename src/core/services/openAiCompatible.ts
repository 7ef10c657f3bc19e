// One module for every service that speaks OpenAI's chat completions with OpenAI's error bodies and nothing of its
// own (a local server, Groq, Together, Fireworks, a company gateway): the descriptor says where and what, this says
// how. A hosted one is its descriptor file and its line in services/descriptors.ts (continuedev/continue adds Groq as
// a small subclass of its OpenAI provider and one registry line, core/llm/llms/Groq.ts).
import { type CompatibleSnapshot, compatibleStatusView } from '../account/accountStatus.ts';
import { ServiceError, toServiceError } from '../errors.ts';
import { errorKindRule, keepsWhatWasKnown } from '../../shared/errorKindRules.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { routerOptions } from '../wire/modelOptions.ts';
import type { ChatCompletionsClient } from '../wire/chatCompletionsClient.ts';
import { promptChat } from './chatCompletions.ts';
import type { ServiceDescriptor } from './descriptor.ts';
import { type ServiceModule, noModelList } from './module.ts';

export interface CompatibleVerification {
  service: ServiceId;
  ok: true;
  /** False when the endpoint offers no GET /models (the user types an id). */
  canListModels: boolean;
}

export type OpenAiCompatibleModule = ServiceModule<CompatibleSnapshot, ChatCompletionsClient, CompatibleVerification>;

const EMPTY: CompatibleSnapshot = {
  verified: null,
  canListModels: null,
  lastError: null,
  refreshedAt: null,
  stale: false,
};

/** GET /models where offered (its ids); null: the server answered without a list, so the key is not refused. */
async function checkKey(client: ChatCompletionsClient, signal?: AbortSignal): Promise<string[] | null> {
  try {
    return (await client.models(signal)).map((model) => model.id);
  } catch (error) {
    if (error instanceof ServiceError && noModelList(error)) return null;
    throw error;
  }
}

async function cliStatus(client: ChatCompletionsClient, key: { masked: string } | null) {
  // Whatever shape such a server's key has, only whether one was sent is said: four characters of a short one would
  // be too many.
  const keySent = key !== null;
  const models = await checkKey(client);
  const listed = models === null ? '' : `${models.length}${models.length ? `: ${models.slice(0, 10).join(', ')}` : ''}`;
  return {
    json: { answering: true, keySent, canListModels: models !== null, models },
    text:
      [
        'endpoint   answering',
        `key        ${keySent ? 'sent' : 'none sent'}`,
        `models     ${models === null ? 'no model list (GET /models is not offered): give --model yourself' : listed}`,
      ].join('\n') + '\n',
  };
}

/** A keyless endpoint is checked as well as a keyed one: GET /models, which spends nothing. */
async function verify(
  id: ServiceId,
  client: ChatCompletionsClient,
  snapshot: CompatibleSnapshot,
  now: () => number,
  signal?: AbortSignal,
) {
  try {
    const models = await checkKey(client, signal);
    const canListModels = models !== null;
    const next: CompatibleSnapshot = {
      verified: 'ok',
      canListModels,
      lastError: null,
      refreshedAt: now(),
      stale: false,
      checkError: null,
    };
    const verification: CompatibleVerification = { service: id, ok: true, canListModels };
    return { snapshot: next, verification };
  } catch (thrown) {
    const error = toServiceError(thrown, id);
    const transient = keepsWhatWasKnown(error.kind);
    const next: CompatibleSnapshot = {
      ...snapshot,
      verified: error.kind === 'auth' ? 'invalid' : transient ? snapshot.verified : null,
      lastError: error.toData(),
      stale: transient && snapshot.refreshedAt !== null,
      checkError: error.toData(),
    };
    return { snapshot: next, verification: { service: id, ok: false as const, error } };
  }
}

/** The module of an OpenAI-compatible service, built from its descriptor. */
export function openAiCompatibleService(descriptor: ServiceDescriptor): OpenAiCompatibleModule {
  return {
    descriptor,
    open: async (options) =>
      new (await import('../wire/wireClients.ts')).ChatCompletionsClient({ ...options, profile: descriptor }),
    prompt: promptChat,
    modelOptions: async (client, signal) => routerOptions(await client.models(signal)),
    rateLimits: () => undefined,
    checkKey,
    cliStatus,
    account: {
      empty: () => EMPTY,
      current: (snapshot) => snapshot,
      reset: () => EMPTY,
      verify: (client, snapshot, context, signal) => verify(descriptor.id, client, snapshot, context.now, signal),
      recordOutcome(snapshot, error, _rateLimits, context) {
        if (error && errorKindRule(error.kind).status !== 'keep')
          return { ...snapshot, lastError: error.toData(), verified: error.kind === 'auth' ? 'invalid' : null };
        if (error) return snapshot;
        return { ...snapshot, verified: 'ok', lastError: null, refreshedAt: context.now(), stale: false };
      },
      view: (snapshot, meta, name, now) => compatibleStatusView(snapshot, meta, name, now),
      counting: () => false,
      remedy: () => undefined,
      notice: (verification, _pages, name) => ({
        severity: 'info',
        message: verification.canListModels
          ? 'The {0} answers and lists its models.'
          : 'The {0} answers, but offers no model list: type the model id in the prompt panel.',
        args: [name],
      }),
    },
  };
}
