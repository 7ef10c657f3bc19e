// Whether a key found in a file still works, asked of the key's own service and
// of nothing else, on a request that costs nothing: the routing service's
// GET /key, the direct service's GET /models, another provider's model list or
// "who am I" (providerChecks.ts, where it has one). Only ever on request (`keyward
// scan --verify`, the editor's "Check whether this key is live"): a scan that
// sends what it finds would itself be a leak.
//
// 401 is the only answer that says the key is dead. A Restricted direct key
// without the Models scope is refused with "Missing scopes" (401 or 403), and
// keyCheck already takes that as known: the service had to recognise the key
// to list what it lacks, so it is live. Anything else (a 403 without that
// wording, a 5xx, a redirect, a timeout, no network) says nothing about the key.
import type { ProviderId } from '../../shared/keyShapes.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { DEFAULT_CONFIG, type KeywardConfig } from '../config.ts';
import { checkKey } from '../services/keyCheck.ts';
import { DEFAULT_PROXY, type ProxyConfig } from '../proxyConfig.ts';
import { redactSecrets } from '../redact.ts';
import { SERVICES, SERVICE_IDS } from '../services/descriptors.ts';
import { checkBaseUrl } from '../urlPolicy.ts';
import { askProvider } from './providerAsk.ts';
import { PROVIDER_CHECKS, hasProviderCheck } from './providerChecks.ts';
import type { Verification } from './verification.ts';
import { checkedUrl } from './verifyHosts.ts';
import { PROVIDERS } from './providerRules.ts';
import { fingerprintOf } from './scanner.ts';

export type { Verification, VerificationStatus } from './verification.ts';

export interface VerifierOptions {
  /** Where each service is asked; a service without a base URL here is never sent a key. */
  baseUrls: Partial<Record<string, string>>;
  /** Requests in flight at once. */
  concurrency?: number;
  /** How long one service may take to connect and to answer. */
  timeoutMs?: number;
  /** The proxy and certificate authorities; none: straight to the service. */
  proxy?: ProxyConfig;
}

export const VERIFY_DEFAULTS = { concurrency: 4, timeoutMs: 15_000 } as const;

function endpoint(service: ServiceId): string {
  return `GET ${SERVICES[service].endpoints.keyCheck}`;
}

function isServiceId(service: string): service is ServiceId {
  return (SERVICE_IDS as readonly string[]).includes(service);
}

function isProviderId(owner: string): owner is ProviderId {
  return Object.hasOwn(PROVIDERS, owner);
}

/**
 * The one place a found key meets a service. It goes through the clients' own
 * key check, so the lead can point it at the services table later.
 */
export async function askService(
  service: ServiceId,
  key: string,
  baseUrl: string,
  timeoutMs: number,
  proxy: ProxyConfig = DEFAULT_PROXY,
): Promise<Verification> {
  const config: KeywardConfig = {
    ...DEFAULT_CONFIG,
    router: { ...DEFAULT_CONFIG.router },
    direct: { ...DEFAULT_CONFIG.direct },
    network: { connectTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, proxy },
  };
  const checkedAt = checkedUrl(baseUrl, SERVICES[service].endpoints.keyCheck ?? '');
  const result = await checkKey(service, key, config, baseUrl);
  if (result.ok) return { status: 'live', reason: `the service accepted the key (${endpoint(service)})`, checkedAt };
  const { error } = result;
  const status = error.status === null ? '' : ` (HTTP ${error.status})`;
  if (error.kind === 'auth')
    return {
      status: 'inactive',
      reason: `the service refused the key${status}: revoked, expired or never valid`,
      checkedAt,
    };
  return {
    status: 'unknown',
    reason: redactSecrets(`${error.kind}${status}: ${error.message}`, [key]),
    checkedAt,
  };
}

/**
 * Verifies found keys with bounded concurrency, each fingerprint once: a key
 * seen in ten files is asked about once. Results are kept by fingerprint only.
 */
export class KeyVerifier {
  private readonly options: Required<VerifierOptions>;
  private readonly pending = new Map<string, Promise<Verification>>();
  private readonly settled = new Map<string, Verification>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** How many requests went to a service (tests hold it to one per fingerprint). */
  asked = 0;

  constructor(options: VerifierOptions) {
    this.options = {
      baseUrls: options.baseUrls,
      concurrency: Math.max(1, options.concurrency ?? VERIFY_DEFAULTS.concurrency),
      timeoutMs: options.timeoutMs ?? VERIFY_DEFAULTS.timeoutMs,
      proxy: options.proxy ?? DEFAULT_PROXY,
    };
  }

  /** What is known of a fingerprint without asking. */
  known(fingerprint: string): Verification | undefined {
    return this.settled.get(fingerprint);
  }

  /** Asks once per fingerprint; `fresh` asks again even when an answer is known (the person asked). */
  verify(service: string, key: string, fresh = false): Promise<Verification> {
    const fingerprint = fingerprintOf(key);
    const inFlight = this.pending.get(fingerprint);
    if (inFlight) return inFlight;
    const done = this.settled.get(fingerprint);
    if (done && !fresh) return Promise.resolve(done);
    const promise = this.decide(service, key).then((verification) => {
      this.settled.set(fingerprint, verification);
      this.pending.delete(fingerprint);
      return verification;
    });
    this.pending.set(fingerprint, promise);
    return promise;
  }

  private async decide(owner: string, key: string): Promise<Verification> {
    const baseUrl = this.options.baseUrls[owner];
    const provider = isProviderId(owner) ? PROVIDER_CHECKS[owner] : undefined;
    if (provider && !hasProviderCheck(provider)) return { status: 'unknown', reason: provider.none };
    if ((!isServiceId(owner) && !provider) || baseUrl === undefined)
      return { status: 'unknown', reason: 'no service to ask' };
    const unverifiable = isServiceId(owner) ? SERVICES[owner].unverifiableKey : undefined;
    if (unverifiable && key.startsWith(unverifiable.prefix)) return { status: 'unknown', reason: unverifiable.reason };
    const url = checkBaseUrl(baseUrl);
    if (!url.ok) return { status: 'unknown', reason: `no service to ask: the base URL is not https (${url.reason})` };
    await this.slot();
    try {
      this.asked++;
      const { timeoutMs, proxy } = this.options;
      if (provider && isProviderId(owner)) return await askProvider(owner, provider, key, baseUrl, timeoutMs, proxy);
      return await askService(owner as ServiceId, key, baseUrl, timeoutMs, proxy);
    } catch (error) {
      return { status: 'unknown', reason: redactSecrets(String((error as Error)?.message ?? error), [key]) };
    } finally {
      this.release();
    }
  }

  private async slot(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
