// Whether a key is what the person says it is before it is stored as a management or admin key: asked of the one
// API it may call (the direct service's organization API; the routing service's key management API), never of a
// model, key-check or models endpoint. One row per service that has such a key (descriptor's accountKey); loaded
// with the key commands, not at activation.
import type { KeywardConfig } from '../config.ts';
import { ServiceError } from '../errors.ts';
import { SERVICES, baseUrlOf } from '../services/descriptors.ts';
import type { TransportOptions } from '../transport.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { directKeyKind } from './keyFormats.ts';
import { DirectAdminApi } from './directAdminApi.ts';
import { RouterKeysApi } from './routerKeysApi.ts';

/** What the key can see, for the person: "3 projects", "5 keys". */
export interface AccountKeySeen {
  count: number;
  what: 'projects' | 'keys';
}

export type AccountKeyCheck = { ok: true; seen: AccountKeySeen } | { ok: false; error: ServiceError };

type Check = (
  key: string,
  options: TransportOptions & { baseUrl: string; signal?: AbortSignal },
) => Promise<AccountKeySeen>;

const CHECKS: Partial<Record<ServiceId, Check>> = {
  router: async (key, { signal, ...options }) => {
    // The list is the one call a management key can make and an ordinary key cannot (403).
    const api = new RouterKeysApi({ ...options, managementKey: key });
    try {
      return { count: (await api.list(signal)).length, what: 'keys' };
    } finally {
      await api.close();
    }
  },
  direct: async (key, { signal, ...options }) => {
    // Refused by shape before any request: a key of another kind never leaves for the organization API.
    if (directKeyKind(key.trim()) !== 'admin')
      throw new ServiceError({
        kind: 'auth',
        service: 'direct',
        message: 'This is not an admin key: an admin key starts with sk-admin-.',
      });
    const api = new DirectAdminApi({ ...options, adminKey: key });
    try {
      return { count: (await api.listProjects({ signal })).length, what: 'projects' };
    } finally {
      await api.close();
    }
  },
};

/** Asks the service whether `key` manages its account; says why not in the service's words when it does not. */
export async function checkAccountKey(
  service: ServiceId,
  key: string,
  config: KeywardConfig,
  signal?: AbortSignal,
): Promise<AccountKeyCheck> {
  const check = CHECKS[service];
  const baseUrl = baseUrlOf(config, service);
  // Only the services whose descriptor has an accountKey offer it, and they have a default base URL.
  if (!check || !SERVICES[service].accountKey || baseUrl === null)
    throw new Error(`The ${SERVICES[service].displayName} has no management or admin key to check.`);
  try {
    return { ok: true, seen: await check(key, { ...config.network, baseUrl, ...(signal ? { signal } : {}) }) };
  } catch (error) {
    if (error instanceof ServiceError) return { ok: false, error };
    throw error;
  }
}
