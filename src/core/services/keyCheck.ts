// Asks a service whether it accepts a key that is not stored (yet), without
// spending tokens and without touching what the account monitor knows: a key
// found in a file is checked before it may replace the stored one. The check is
// the service module's one key check (services/<id>.ts).
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { KeywardConfig } from '../config.ts';
import { SERVICE_NAMES, ServiceError, toServiceError } from '../errors.ts';
import { SERVICES, baseUrlOf } from './descriptors.ts';
import { serviceModule } from './registry.ts';

export type KeyCheck = { ok: true } | { ok: false; error: ServiceError };

/** `baseUrl` asks that server instead of the configured one (the CLI's --base-url). */
export async function checkKey(
  service: ServiceId,
  key: string,
  config: KeywardConfig,
  baseUrlOverride?: string,
): Promise<KeyCheck> {
  const baseUrl = baseUrlOverride ?? baseUrlOf(config, service);
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
  const module = serviceModule(service);
  const client = await module.open({ baseUrl, key, ...config.network });
  try {
    await module.checkKey(client);
    return { ok: true };
  } catch (thrown) {
    return {
      ok: false,
      error: toServiceError(thrown, service),
    };
  } finally {
    await client.close();
  }
}
