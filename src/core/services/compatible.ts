// Any OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp, a gateway): chat completions, a key that may be
// absent, and a model list that may be absent too.
import { type CompatibleSnapshot, compatibleStatusView } from '../account/accountStatus.ts';
import { ServiceError, toServiceError } from '../errors.ts';
import { errorKindRule, keepsWhatWasKnown } from '../../shared/errorKindRules.ts';
import { routerOptions } from '../wire/modelOptions.ts';
import type { ChatCompletionsClient } from '../wire/chatCompletionsClient.ts';
import { promptChat } from './chatCompletions.ts';
import { compatibleDescriptor } from './compatibleDescriptor.ts';
import { type ServiceModule, noModelList } from './module.ts';

export interface CompatibleVerification {
  service: 'compatible';
  ok: true;
  /** False when the endpoint offers no GET /models (the user types an id). */
  canListModels: boolean;
}

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

export const compatibleService = {
  descriptor: compatibleDescriptor,
  open: async (options) =>
    new (await import('../wire/wireClients.ts')).ChatCompletionsClient({
      ...options,
      service: compatibleDescriptor.id,
    }),
  prompt: promptChat,
  modelOptions: async (client, signal) => routerOptions(await client.models(signal)),
  rateLimits: () => undefined,
  checkKey,
  async cliStatus(client, key) {
    // Whatever shape a compatible server's key has, only whether one was sent is said: four characters of a short one
    // would be too many.
    const keySent = key !== null;
    const models = await checkKey(client);
    return {
      json: { answering: true, keySent, canListModels: models !== null, models },
      text:
        [
          'endpoint   answering',
          `key        ${keySent ? 'sent' : 'none sent'}`,
          `models     ${models === null ? 'no model list (GET /models is not offered): give --model yourself' : `${models.length}${models.length ? `: ${models.slice(0, 10).join(', ')}` : ''}`}`,
        ].join('\n') + '\n',
    };
  },
  account: {
    empty: () => EMPTY,
    current: (snapshot) => snapshot,
    reset: () => EMPTY,
    /** A keyless endpoint is checked as well as a keyed one: GET /models, which spends nothing. */
    async verify(client, snapshot, context, signal) {
      try {
        const models = await checkKey(client, signal);
        const canListModels = models !== null;
        const next: CompatibleSnapshot = {
          verified: 'ok',
          canListModels,
          lastError: null,
          refreshedAt: context.now(),
          stale: false,
          checkError: null,
        };
        const verification: CompatibleVerification = { service: 'compatible', ok: true, canListModels };
        return { snapshot: next, verification };
      } catch (thrown) {
        const error = toServiceError(thrown, compatibleDescriptor.id);
        const transient = keepsWhatWasKnown(error.kind);
        const next: CompatibleSnapshot = {
          ...snapshot,
          verified: error.kind === 'auth' ? 'invalid' : transient ? snapshot.verified : null,
          lastError: error.toData(),
          stale: transient && snapshot.refreshedAt !== null,
          checkError: error.toData(),
        };
        return { snapshot: next, verification: { service: compatibleDescriptor.id, ok: false, error } };
      }
    },
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
} satisfies ServiceModule<CompatibleSnapshot, ChatCompletionsClient, CompatibleVerification>;
