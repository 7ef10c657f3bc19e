// Where `keyward scan --verify` sends a key found in a file (each service's and each provider's own host), kept apart from
// verify.ts so that the CLI can name the hosts (in --help, in checks of its
// flags) without loading the network stack.
import type { KeyOwner, ProviderId } from '../../shared/keyShapes.ts';
import { redactSecrets } from '../redact.ts';
import { SERVICES, SERVICE_IDS } from '../services/descriptors.ts';
import { type NoProviderCheck, PROVIDER_CHECKS, type ProviderCheck, hasProviderCheck } from './providerChecks.ts';

/**
 * Where `keyward scan --verify` sends a key found in a file: the service's own
 * host, from the services table. Not OPENAI_BASE_URL / OPENROUTER_BASE_URL: they
 * often point at a proxy or another provider, which must not receive other
 * people's keys. Only an explicit flag (`--verify-base-url`) names another.
 */
export function officialBaseUrls(): Partial<Record<KeyOwner, string>> {
  const urls: Partial<Record<KeyOwner, string>> = {};
  for (const id of SERVICE_IDS) {
    const url = SERVICES[id].defaultBaseUrl;
    if (url !== null && SERVICES[id].endpoints.keyCheck !== null) urls[id] = url;
  }
  // Other providers' keys, each to its provider's own API host (providerChecks.ts), where it has a no-cost check.
  for (const [id, check] of Object.entries(PROVIDER_CHECKS) as [ProviderId, ProviderCheck | NoProviderCheck][])
    if (hasProviderCheck(check)) urls[id] = check.baseUrl;
  return urls;
}

/** The request's URL as a report may show it: no user name, password, query or fragment. */
export function checkedUrl(baseUrl: string, path: string): string {
  try {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return redactSecrets(`${baseUrl}${path}`);
  }
}
