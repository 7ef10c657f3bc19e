// Which service's keys API to open for a management or admin key: one row per service that has one. Loaded with the
// key commands, not at activation.
import type { KeywardConfig } from '../config.ts';
import { baseUrlOf } from '../services/descriptors.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { AccountKeysApi, AccountKeysOptions } from './accountKeys.ts';
import { directAccountKeys } from './directAccountKeys.ts';
import { routerAccountKeys } from './routerAccountKeys.ts';

type Open = (options: AccountKeysOptions) => AccountKeysApi;

const ACCOUNT_KEY_APIS: Partial<Record<ServiceId, Open>> = {
  router: routerAccountKeys,
  direct: directAccountKeys,
};

/** The account's keys through `accountKey`; undefined for a service with no such API. */
export function openAccountKeys(
  service: ServiceId,
  accountKey: string,
  config: KeywardConfig,
  baseUrl: string | null = baseUrlOf(config, service),
): AccountKeysApi | undefined {
  const open = ACCOUNT_KEY_APIS[service];
  return open && baseUrl !== null ? open({ baseUrl, accountKey, config }) : undefined;
}
