// Asks a service whether it accepts a key that is not stored (yet), without
// spending tokens and without touching what the account monitor knows: a key
// found in a file is checked before it may replace the stored one.
import type { ServiceId } from '../shared/errorKinds.ts';
import type { KeywardConfig } from './config.ts';
import { DirectClient } from './directClient.ts';
import { ServiceError, toServiceError } from './errors.ts';
import { RouterClient } from './routerClient.ts';

export type KeyCheck = { ok: true } | { ok: false; error: ServiceError };

interface Checker {
  check(baseUrl: string, key: string, network: KeywardConfig['network']): Promise<void>;
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
};

export async function checkKey(service: ServiceId, key: string, config: KeywardConfig): Promise<KeyCheck> {
  try {
    await CHECKERS[service].check(config[service].baseUrl, key, config.network);
    return { ok: true };
  } catch (thrown) {
    return {
      ok: false,
      error: toServiceError(thrown, service),
    };
  }
}
