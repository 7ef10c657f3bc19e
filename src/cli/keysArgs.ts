// keyward keys' arguments and what every subcommand works with: the service, its settings as the editor's would be,
// and the management or admin key read from the environment.
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG, type KeywardConfig } from '../core/config.ts';
import { SERVICES, SERVICE_IDS, type ServiceId } from '../core/services/descriptors.ts';
import type { CliIo } from './io.ts';
import { UsageError, baseUrlFor, proxyFor } from './common.ts';

/** The services whose accounts a key can manage (descriptor's accountKey). */
export const MANAGED = SERVICE_IDS.filter((id) => SERVICES[id].accountKey);

export const OPTIONS = {
  service: { type: 'string' },
  'base-url': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  id: { type: 'string' },
  'key-from-env': { type: 'string' },
  'key-file': { type: 'string' },
  yes: { type: 'boolean', default: false },
  name: { type: 'string' },
  limit: { type: 'string' },
  reset: { type: 'string' },
  'expires-days': { type: 'string' },
  out: { type: 'string' },
  'print-key': { type: 'boolean', default: false },
  'env-file': { type: 'string' },
  'delete-old': { type: 'boolean', default: false },
} as const;

export type KeysValues = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** What every subcommand works with: the service, its settings as the editor's would be, the account key. */
export interface KeysContext {
  service: ServiceId;
  config: KeywardConfig;
  /** --base-url, else the service's variable, else the real service. */
  baseUrl: string;
  accountKey: string;
  values: KeysValues;
  io: CliIo;
}

export function parseKeysArgs(args: string[]) {
  return parseArgs({ args, options: OPTIONS, allowPositionals: true });
}

export function contextOf(values: KeysValues, io: CliIo): KeysContext {
  const service = MANAGED.find((id) => id === values.service);
  if (!service)
    throw new UsageError(
      `--service must be ${MANAGED.join(' or ')}`,
      values.service ? 'invalid_option' : 'missing_option',
    );
  const env = SERVICES[service].accountKey!.env;
  const accountKey = io.env[env]?.trim() ?? '';
  if (!accountKey)
    throw new UsageError(`${env} is not set: keyward keys reads the ${SERVICES[service].accountKey!.name} from it`);
  const baseUrl = baseUrlFor(service, values['base-url'], io.env);
  const network = { ...DEFAULT_CONFIG.network, proxy: proxyFor(io.env) };
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    network,
  };
  return { service, config, baseUrl, accountKey, values, io };
}
