// Keeps what is known about each service's account current: the router key
// check, credits and free count; the direct key's state, last error and rate
// limits; whether the compatible endpoint answers. The status bar and the panel
// subscribe; nothing here knows VS Code.
import type { ServiceErrorData, ServiceId } from '../shared/errorKinds.ts';
import { errorKindRule, keepsWhatWasKnown } from '../shared/errorKindRules.ts';
import { missingScopesIn } from '../shared/scopes.ts';
import { Emitter, type Subscription } from '../shared/event.ts';
import type { CompatibleSnapshot, DirectSnapshot, RouterSnapshot } from './accountStatus.ts';
import type { KeywardConfig } from './config.ts';
import { DirectClient, type RateLimits } from './directClient.ts';
import { SERVICE_NAMES, ServiceError, toServiceError } from './errors.ts';
import type { Tier } from './fees.ts';
import { FreeModelGuard } from './freeGuard.ts';
import { fingerprint } from './keyFormats.ts';
import type { KeyStore } from './keyStore.ts';
import { type RouterCredits, RouterClient } from './routerClient.ts';
import { SERVICES, SERVICE_IDS } from './services.ts';

type Clients = { router: RouterClient; direct: DirectClient; compatible: RouterClient };

const EMPTY_COMPATIBLE: CompatibleSnapshot = {
  verified: null,
  canListModels: null,
  lastError: null,
  refreshedAt: null,
  stale: false,
};

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
  /** The endpoint answered; canListModels is false when it offers no GET /models (the user types an id). */
  | { service: 'compatible'; ok: true; canListModels: boolean }
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
  private compatible: CompatibleSnapshot = EMPTY_COMPATIBLE;
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

  compatibleSnapshot(): CompatibleSnapshot {
    return this.compatible;
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

  /** The chat-completions client of a service that speaks it (core/services.ts); undefined for others. */
  chatClient(service: ServiceId): Promise<RouterClient | undefined> {
    switch (service) {
      case 'router':
        return this.routerClient();
      case 'compatible':
        return this.compatibleClient();
      case 'direct':
        return Promise.resolve(undefined);
    }
  }

  /** The compatible endpoint's client, keyless when no key is stored; undefined until a base URL is set. */
  compatibleClient(): Promise<RouterClient | undefined> {
    return this.client(
      'compatible',
      (baseUrl, key, network) => new RouterClient({ service: 'compatible', baseUrl, key, ...network, now: this.now }),
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
    const key = (await this.options.keys.getKey(service)) ?? '';
    if (!key && !SERVICES[service].capabilities.keyOptional) return undefined;
    const config = this.options.config();
    const baseUrl = config[service].baseUrl;
    if (baseUrl === null) return undefined;
    const id = `${baseUrl}|${JSON.stringify(config.network)}|${key ? fingerprint(key) : 'no key'}`;
    const cached = this.clients[service] as { id: string; client: Clients[S] } | undefined;
    if (cached?.id === id) return cached.client;
    void cached?.client.close();
    const client = make(baseUrl, key, config.network);
    (this.clients as Record<ServiceId, { id: string; client: Clients[ServiceId] } | undefined>)[service] = {
      id,
      client,
    };
    return client;
  }

  /** Why a service has no client: no base URL set yet, or no key where one is needed. */
  unavailable(service: ServiceId): ServiceError {
    if (this.options.config()[service].baseUrl === null)
      return new ServiceError({
        kind: 'bad_request',
        service,
        code: 'no_base_url',
        message: `No base URL is set for the ${SERVICE_NAMES[service]}.`,
        action: `Set ${SERVICES[service].settings.baseUrl} to the server, e.g. http://localhost:11434/v1 for Ollama.`,
      });
    return new ServiceError({ kind: 'auth', service, message: `No ${SERVICE_NAMES[service]} key is stored.` });
  }

  /** Forgets what was known about a service (its key changed or was deleted). */
  reset(service: ServiceId): void {
    switch (service) {
      case 'router':
        this.router = { keyInfo: null, credits: null, free: null, lastError: null, refreshedAt: null, stale: false };
        this.freeGuard.updateFromKeyCheck(null);
        break;
      case 'compatible':
        this.compatible = EMPTY_COMPATIBLE;
        break;
      case 'direct':
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
        break;
    }
    this.emit(service);
  }

  /** Checks a key without spending tokens and updates the snapshot. */
  async verify(service: ServiceId, signal?: AbortSignal): Promise<Verification> {
    switch (service) {
      case 'router':
        return this.verifyRouter(signal);
      case 'direct':
        return this.verifyDirect(signal);
      case 'compatible':
        return this.verifyCompatible(signal);
    }
  }

  /** A keyless endpoint is checked as well as a keyed one: GET /models, which spends nothing. */
  private async verifyCompatible(signal?: AbortSignal): Promise<Verification> {
    const client = await this.compatibleClient();
    if (!client) return { service: 'compatible', ok: false, error: this.unavailable('compatible') };
    try {
      await client.models(signal);
      this.compatible = { verified: 'ok', canListModels: true, lastError: null, refreshedAt: this.now(), stale: false };
      this.emit('compatible');
      return { service: 'compatible', ok: true, canListModels: true };
    } catch (thrown) {
      const error = toServiceError(thrown, 'compatible');
      // A server without GET /models still answers chats: the model id is typed instead.
      if (error.kind === 'bad_request' && (error.status === 404 || error.status === 405)) {
        this.compatible = {
          verified: 'ok',
          canListModels: false,
          lastError: null,
          refreshedAt: this.now(),
          stale: false,
        };
        this.emit('compatible');
        return { service: 'compatible', ok: true, canListModels: false };
      }
      const transient = keepsWhatWasKnown(error.kind);
      this.compatible = {
        ...this.compatible,
        verified: error.kind === 'auth' ? 'invalid' : transient ? this.compatible.verified : null,
        lastError: error.toData(),
        stale: transient && this.compatible.refreshedAt !== null,
      };
      this.emit('compatible');
      return { service: 'compatible', ok: false, error };
    }
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
      const transient = keepsWhatWasKnown(error.kind);
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
    switch (service) {
      case 'direct':
        this.recordDirectOutcome(error, rateLimits);
        break;
      case 'router':
        this.recordRouterOutcome(error);
        break;
      case 'compatible':
        this.compatible =
          error && errorKindRule(error.kind).status !== 'keep'
            ? { ...this.compatible, lastError: error.toData(), verified: error.kind === 'auth' ? 'invalid' : null }
            : error
              ? this.compatible
              : { ...this.compatible, verified: 'ok', lastError: null, refreshedAt: this.now(), stale: false };
        break;
    }
    this.emit(service);
  }

  private recordDirectOutcome(error: ServiceError | null, rateLimits?: RateLimits | null): void {
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
  }

  private recordRouterOutcome(error: ServiceError | null): void {
    if (error && ['auth', 'insufficient_credits', 'key_limit'].includes(error.kind)) {
      this.router = { ...this.router, lastError: error.toData() };
    } else if (!error && this.router.lastError) {
      this.router = { ...this.router, lastError: null };
    }
  }

  dispose(): void {
    for (const service of SERVICE_IDS) void this.clients[service]?.client.close();
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
