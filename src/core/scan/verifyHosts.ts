// Where `keyward scan --verify` sends a key found in a file, kept apart from
// verify.ts so that the CLI can name the hosts (in --help, in checks of its
// flags) without loading the network stack.
import { SERVICES, SERVICE_IDS, type ServiceId } from '../services/descriptors.ts';

/**
 * Where `keyward scan --verify` sends a key found in a file: the service's own
 * host, from the services table. Not OPENAI_BASE_URL / OPENROUTER_BASE_URL: they
 * often point at a proxy or another provider, which must not receive other
 * people's keys. Only an explicit flag (`--verify-base-url`) names another.
 */
export function officialBaseUrls(): Partial<Record<ServiceId, string>> {
  const urls: Partial<Record<ServiceId, string>> = {};
  for (const id of SERVICE_IDS) {
    const url = SERVICES[id].defaultBaseUrl;
    if (url !== null && SERVICES[id].endpoints.keyCheck !== null) urls[id] = url;
  }
  return urls;
}
