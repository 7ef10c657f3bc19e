// The routing service's keys as a management key sees them (accountKeys.ts's shape): limit and what is left, usage
// today and this month, expiry, disabled; every action the key management API offers. The key Keyward uses is found
// by its label (the list's "sk-or-v1-0e6...1c96"), never by computing a hash.
import type { AccountKeysApi, AccountKeysOptions, ListedKey } from './accountKeys.ts';
import { matchRedacted } from './redactedMatch.ts';
import { type RouterKeyRecord, RouterKeysApi } from './routerKeysApi.ts';

export function listedRouterKey(record: RouterKeyRecord, inUseKey: string | undefined): ListedKey {
  return {
    id: record.hash,
    name: record.name,
    shown: record.label,
    place: null,
    owner: null,
    createdMs: record.createdAtMs,
    lastUsedMs: null,
    expiresMs: record.expiresAtMs,
    disabled: record.disabled,
    limitUsd: record.limit,
    remainingUsd: record.limitRemaining,
    limitReset: record.limitReset,
    usageTodayUsd: record.usageDaily,
    usageMonthUsd: record.usageMonthly,
    inUse: inUseKey !== undefined && matchRedacted(inUseKey, record.label),
    actions: [record.disabled ? 'enable' : 'disable', 'set-limit', 'delete'],
  };
}

export function routerAccountKeys(options: AccountKeysOptions): AccountKeysApi {
  const api = new RouterKeysApi({
    ...options.config.network,
    baseUrl: options.baseUrl,
    managementKey: options.accountKey,
  });
  return {
    list: async (inUseKey, signal) => (await api.list(signal)).map((record) => listedRouterKey(record, inUseKey)),
    delete: (key, signal) => api.delete(key.id, signal),
    setDisabled: async (key, disabled, signal) => void (await api.change(key.id, { disabled }, signal)),
    setLimit: async (key, limitUsd, signal) => void (await api.change(key.id, { limit: limitUsd }, signal)),
    close: () => api.close(),
  };
}
