// Asks a service whether it accepts a key that is not stored (yet), without
// spending tokens and without touching what the account monitor knows: a key
// found in a file is checked before it may replace the stored one.
import type { ServiceId } from '../shared/errorKinds.ts';
import type { KeywardConfig } from './config.ts';
import { DirectClient } from './directClient.ts';
import { SERVICE_NAMES, ServiceError, toServiceError } from './errors.ts';
import { RouterClient } from './routerClient.ts';
import { SERVICES } from './services.ts';

export type KeyCheck = { ok: true } | { ok: false; error: ServiceError };

interface Checker {
  check(baseUrl: string, key: string, network: KeywardConfig['network']): Promise<void>;
}

/** GET /models where offered; a server without the list (404) still answered, so the key is not refused. */
async function listModelsOrNone(client: RouterClient): Promise<void> {
  try {
    await client.models();
  } catch (error) {
    if (!(error instanceof ServiceError && error.kind === 'bad_request' && error.status === 404)) throw error;
  }
}

const CHECKERS: Record<ServiceId, Checker> = {
  router: {
    async check(baseUrl, key, network) {
      const client = new RouterClient({ baseUrl, key, ...network });
      try {
        await client.keyInfo();
      } finally {
        await client.close();
      }
    },
  },
  direct: {
    async check(baseUrl, key, network) {
      const client = new DirectClient({ baseUrl, key, ...network });
      try {
        await client.models();
      } catch (error) {
        // A Restricted key may not list models, yet the service knows it.
        if (!(error instanceof ServiceError && error.kind === 'permission')) throw error;
      } finally {
        await client.close();
      }
    },
  },
  compatible: {
    async check(baseUrl, key, network) {
      const client = new RouterClient({ service: 'compatible', baseUrl, key, ...network });
      try {
        await listModelsOrNone(client);
      } finally {
        await client.close();
      }
    },
  },
};

export async function checkKey(service: ServiceId, key: string, config: KeywardConfig): Promise<KeyCheck> {
  const baseUrl = config[service].baseUrl;
  if (baseUrl === null)
    return {
      ok: false,
      error: new ServiceError({
        kind: 'bad_request',
        service,
        code: 'no_base_url',
        message: `No base URL is set for the ${SERVICE_NAMES[service]}.`,
        action: `Set ${SERVICES[service].settings.baseUrl} first.`,
      }),
    };
  try {
    await CHECKERS[service].check(baseUrl, key, config.network);
    return { ok: true };
  } catch (thrown) {
    return {
      ok: false,
      error: toServiceError(thrown, service),
    };
  }
}
