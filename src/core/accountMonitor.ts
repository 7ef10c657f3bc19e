// Keeps what is known about each service's account current: the router key
// check, credits and free count; the direct key's state, last error and rate
// limits. The status bar and the panel subscribe; nothing here knows VS Code.
import type { ServiceErrorData, ServiceId } from '../shared/errorKinds.ts';
import { errorKindRule } from '../shared/errorKindRules.ts';
import { missingScopesIn } from '../shared/scopes.ts';
import { Emitter, type Subscription } from '../shared/event.ts';
import type { DirectSnapshot, RouterSnapshot } from './accountStatus.ts';
import type { KeywardConfig } from './config.ts';
import { DirectClient, type RateLimits } from './directClient.ts';
import { ServiceError, toServiceError } from './errors.ts';
import type { Tier } from './fees.ts';
import { FreeModelGuard } from './freeGuard.ts';
import { fingerprint } from './keyFormats.ts';
import type { KeyStore } from './keyStore.ts';
import { type RouterCredits, RouterClient } from './routerClient.ts';

type Clients = { router: RouterClient; direct: DirectClient };

export interface MonitorOptions {
  keys: KeyStore;
  config: () => KeywardConfig;
  tier: () => Tier;
  now?: () => number;
}

export type Verification =
  | { service: 'router'; ok: true; warnings: ('no_credit_limit' | 'no_expiry')[]; expiresAt: string | null }
  /**
   * The key was recognised. Listing models is all a check can do without spending
   * tokens: it proves api.model.read (canListModels), never that the key may create
   * responses. missingScopes holds every scope a response has named as missing.
   */
  | { service: 'direct'; ok: true; restricted: boolean; canListModels: boolean; missingScopes: string[] }
  | { service: ServiceId; ok: false; error: ServiceError };

export class AccountMonitor {
  readonly freeGuard: FreeModelGuard;
  private router: RouterSnapshot = {
    keyInfo: null,
    credits: null,
    free: null,
    lastError: null,
    refreshedAt: null,
    stale: false,
  };
  private direct: DirectSnapshot;
  private readonly options: MonitorOptions;
  private readonly now: () => number;
  private readonly changed = new Emitter<ServiceId>();
  private clients: { [S in ServiceId]?: { id: string; client: Clients[S] } } = {};

  constructor(options: MonitorOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.freeGuard = new FreeModelGuard(this.now);
    this.freeGuard.onDidChange((free) => {
      this.router = { ...this.router, free };
      this.emit('router');
    });
    this.direct = {
      verified: null,
      lastError: null,
      lastErrorAt: null,
      rateLimits: null,
      tier: options.tier(),
      refreshedAt: null,
      stale: false,
      missingScopes: [],
      respondedAt: null,
    };
  }

  routerSnapshot(): RouterSnapshot {
    return this.router;
  }

  directSnapshot(): DirectSnapshot {
    return { ...this.direct, tier: this.options.tier() };
  }

  onDidChange(listener: (service: ServiceId) => void): Subscription {
    return this.changed.event(listener);
  }

  /** A client for the stored key and the configured base URL, or undefined without a key. */
  routerClient(): Promise<RouterClient | undefined> {
    return this.client(
      'router',
      (baseUrl, key, network) =>
        new RouterClient({ baseUrl, key, ...network, freeGuard: this.freeGuard, now: this.now }),
    );
  }

  directClient(): Promise<DirectClient | undefined> {
    return this.client(
      'direct',
      (baseUrl, key, network) => new DirectClient({ baseUrl, key, ...network, now: this.now }),
    );
  }

  /** One client per service, made again when the key (read from secret storage) or the settings change. */
  private async client<S extends ServiceId>(
    service: S,
    make: (baseUrl: string, key: string, network: KeywardConfig['network']) => Clients[S],
  ): Promise<Clients[S] | undefined> {
    const key = await this.options.keys.getKey(service);
    if (!key) return undefined;
    const config = this.options.config();
    const id = `${config[service].baseUrl}|${JSON.stringify(config.network)}|${fingerprint(key)}`;
    const cached = this.clients[service] as { id: string; client: Clients[S] } | undefined;
    if (cached?.id === id) return cached.client;
    void cached?.client.close();
    const client = make(config[service].baseUrl, key, config.network);
    (this.clients as Record<ServiceId, { id: string; client: Clients[ServiceId] } | undefined>)[service] = {
      id,
      client,
    };
    return client;
  }

  /** Forgets what was known about a service (its key changed or was deleted). */
  reset(service: ServiceId): void {
    if (service === 'router') {
      this.router = { keyInfo: null, credits: null, free: null, lastError: null, refreshedAt: null, stale: false };
      this.freeGuard.updateFromKeyCheck(null);
    } else
      this.direct = {
        ...this.direct,
        verified: null,
        lastError: null,
        lastErrorAt: null,
        rateLimits: null,
        refreshedAt: null,
        stale: false,
        missingScopes: [],
        respondedAt: null,
      };
    this.emit(service);
  }

  /** Checks a key without spending tokens and updates the snapshot. */
  async verify(service: ServiceId, signal?: AbortSignal): Promise<Verification> {
    return service === 'router' ? this.verifyRouter(signal) : this.verifyDirect(signal);
  }

  private async verifyRouter(signal?: AbortSignal): Promise<Verification> {
    const client = await this.routerClient();
    if (!client)
      return {
        service: 'router',
        ok: false,
        error: new ServiceError({ kind: 'auth', service: 'router', message: 'No routing service key is stored.' }),
      };
    try {
      const [keyInfo, credits] = await Promise.all([client.keyInfo(signal), client.credits(signal)]);
      this.router = {
        keyInfo,
        credits,
        free: this.freeGuard.status(),
        lastError: this.keepRouterBillingError(credits),
        refreshedAt: this.now(),
        stale: false,
      };
      this.emit('router');
      const warnings: ('no_credit_limit' | 'no_expiry')[] = [];
      if (keyInfo.limit === null) warnings.push('no_credit_limit');
      if (keyInfo.expiresAt === null) warnings.push('no_expiry');
      return { service: 'router', ok: true, warnings, expiresAt: keyInfo.expiresAt };
    } catch (thrown) {
      const error = toServiceError(thrown, 'router');
      const rule = errorKindRule(error.kind);
      const transient = rule.transient || rule.status === 'keep';
      this.router = {
        ...this.router,
        lastError: transient ? this.router.lastError : error.toData(),
        stale: transient ? this.router.refreshedAt !== null : false,
      };
      if (!transient) this.router.keyInfo = error.kind === 'auth' ? null : this.router.keyInfo;
      this.emit('router');
      return { service: 'router', ok: false, error };
    }
  }

  private async verifyDirect(signal?: AbortSignal): Promise<Verification> {
    const client = await this.directClient();
    if (!client)
      return {
        service: 'direct',
        ok: false,
        error: new ServiceError({ kind: 'auth', service: 'direct', message: 'No direct service key is stored.' }),
      };
    try {
      await client.models(signal);
      const missingScopes = this.direct.missingScopes.filter((scope) => scope !== 'api.model.read');
      this.direct = {
        ...this.direct,
        verified: missingScopes.length > 0 ? 'restricted' : 'ok',
        missingScopes,
        rateLimits: client.lastRateLimits ?? this.direct.rateLimits,
        refreshedAt: this.now(),
        stale: false,
        lastError: this.keepBillingError(),
      };
      this.emit('direct');
      return { service: 'direct', ok: true, restricted: missingScopes.length > 0, canListModels: true, missingScopes };
    } catch (thrown) {
      const error = toServiceError(thrown, 'direct');
      if (error.kind === 'permission') {
        const missingScopes = union(this.direct.missingScopes, scopesOf(error, 'api.model.read'));
        this.direct = {
          ...this.direct,
          verified: 'restricted',
          missingScopes,
          refreshedAt: this.now(),
          stale: false,
          lastError: this.keepBillingError(),
        };
        this.emit('direct');
        return { service: 'direct', ok: true, restricted: true, canListModels: false, missingScopes };
      }
      if (error.kind === 'auth')
        this.direct = {
          ...this.direct,
          verified: 'invalid',
          lastError: error.toData(),
          lastErrorAt: this.now(),
          stale: false,
        };
      else this.direct = { ...this.direct, stale: this.direct.refreshedAt !== null };
      this.emit('direct');
      return { service: 'direct', ok: false, error };
    }
  }

  /** A billing state seen on a request stays until a request succeeds: the model list is free and cannot tell. */
  private keepBillingError(): ServiceErrorData | null {
    const kind = this.direct.lastError?.kind;
    return kind === 'credit_exhausted' || kind === 'spend_limit' || kind === 'usage_limit'
      ? this.direct.lastError
      : null;
  }

  /**
   * A router 402 for the balance stays through key checks: the key check cannot
   * see the balance, so only a request that works (or credits readable again
   * and above zero) shows it was settled.
   */
  private keepRouterBillingError(credits: RouterCredits | null): ServiceErrorData | null {
    const last = this.router.lastError;
    if (last?.kind !== 'insufficient_credits') return null;
    return credits && credits.balance > 0 ? null : last;
  }

  /** What a prompt's outcome tells about the account. */
  recordOutcome(service: ServiceId, error: ServiceError | null, rateLimits?: RateLimits | null): void {
    if (service === 'direct') {
      // A response that names missing scopes says what the key lacks; one that works proves it may prompt.
      const missingScopes =
        error?.kind === 'permission'
          ? union(this.direct.missingScopes, scopesOf(error, null))
          : error
            ? this.direct.missingScopes
            : this.direct.missingScopes.filter((scope) => scope === 'api.model.read');
      const previous = this.direct.verified;
      this.direct = {
        ...this.direct,
        lastError: error && errorKindRule(error.kind).status !== 'keep' ? error.toData() : null,
        lastErrorAt: error ? this.now() : this.direct.lastErrorAt,
        rateLimits: rateLimits ?? this.direct.rateLimits,
        missingScopes,
        respondedAt: error ? this.direct.respondedAt : this.now(),
        verified:
          error?.kind === 'auth'
            ? 'invalid'
            : missingScopes.length > 0
              ? 'restricted'
              : previous === 'restricted'
                ? 'ok'
                : (previous ?? (error ? null : 'ok')),
      };
    } else if (error && ['auth', 'insufficient_credits', 'key_limit'].includes(error.kind)) {
      this.router = { ...this.router, lastError: error.toData() };
    } else if (!error && this.router.lastError) {
      this.router = { ...this.router, lastError: null };
    }
    this.emit(service);
  }

  dispose(): void {
    void this.clients.router?.client.close();
    void this.clients.direct?.client.close();
    this.changed.dispose();
  }

  private emit(service: ServiceId): void {
    this.changed.fire(service);
  }
}

/** The scopes an error names as missing; the fallback when it names none it can be read from. */
function scopesOf(error: ServiceError, fallback: string | null): string[] {
  const named = missingScopesIn(error.message);
  if (named.length > 0) return named;
  if (error.code && /^[a-z]+(\.[a-z_]+)+$/.test(error.code)) return [error.code];
  return fallback ? [fallback] : [];
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
