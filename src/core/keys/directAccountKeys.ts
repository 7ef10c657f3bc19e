// The direct service's keys as an admin key sees them (accountKeys.ts's shape): every live project's keys with their
// owner and last use. The API lists and deletes project keys but cannot create, disable or limit one (a user's key
// is made by the user), so delete is the one action; the key Keyward uses is found by its redacted form.
import type { AccountKeysApi, AccountKeysOptions, ListedKey } from './accountKeys.ts';
import { DirectAdminApi, type KeyOwner } from './directAdminApi.ts';
import { matchRedacted } from './redactedMatch.ts';

function ownerName(owner: KeyOwner): string {
  if (owner.type === 'service_account') return owner.name || owner.id;
  return owner.name || owner.email || owner.id;
}

/** The id the list carries: the project's and the key's, so delete knows both. */
const idOf = (projectId: string, keyId: string) => `${projectId}/${keyId}`;

export function directAccountKeys(options: AccountKeysOptions): AccountKeysApi {
  const api = new DirectAdminApi({ ...options.config.network, baseUrl: options.baseUrl, adminKey: options.accountKey });
  return {
    async list(inUseKey, signal) {
      const listed: ListedKey[] = [];
      for (const project of await api.listProjects({ signal })) {
        for (const key of await api.listProjectKeys(project.id, signal)) {
          listed.push({
            id: idOf(project.id, key.id),
            name: key.name,
            shown: key.redactedValue,
            place: project.name || project.id,
            owner: ownerName(key.owner),
            createdMs: key.createdAtMs || null,
            lastUsedMs: key.lastUsedAtMs,
            expiresMs: null,
            disabled: false,
            limitUsd: null,
            remainingUsd: null,
            limitReset: null,
            usageTodayUsd: null,
            usageMonthUsd: null,
            inUse: inUseKey !== undefined && matchRedacted(inUseKey, key.redactedValue),
            actions: ['delete'],
          });
        }
      }
      return listed;
    },
    async delete(key, signal) {
      const slash = key.id.indexOf('/');
      await api.deleteProjectKey(key.id.slice(0, slash), key.id.slice(slash + 1), signal);
    },
    async createPlaceKey(like, name, signal) {
      const account = await api.createServiceAccount(like.id.slice(0, like.id.indexOf('/')), name, signal);
      if (!account.key) throw new Error(`The direct service made the service account ${account.name} without a key.`);
      return account.key.value;
    },
    async monthSpend(signal) {
      const costs = await api.costsThisMonth(signal);
      return { total: costs.total, currency: costs.currency };
    },
    close: () => api.close(),
  };
}
