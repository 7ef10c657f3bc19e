// Keeps what is known about each service's account current: one snapshot per service, kept as its module says
// (services/<id>.ts: what a key check and a prompt's outcome change). The status bar and the panel subscribe;
// nothing here knows VS Code, nor which service it holds.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';
import type { StatusView } from '../account/accountStatus.ts';
import type { KeywardConfig } from '../config.ts';
import type { RateLimits } from '../wire/responsesClient.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import type { Tier } from '../fees.ts';
import { FreeModelGuard } from '../wire/freeGuard.ts';
import { fingerprint } from '../keys/keyFormats.ts';
import type { KeyMetadata, KeyStore } from '../keys/keyStore.ts';
import { SERVICES, SERVICE_IDS, baseUrlOf } from '../services/descriptors.ts';
import type { AccountContext, AccountSnapshot, Remedy, WireClient } from '../services/module.ts';
import { type AccountVerification, serviceModule } from '../services/registry.ts';

export type { AccountVerification };

export interface MonitorOptions {
  keys: KeyStore;
  config: () => KeywardConfig;
  tier: () => Tier | null;
  now?: () => number;
}

/** Closes a client once it is made; one that failed to load has nothing to close. */
function closeWhenOpen(client: Promise<WireClient>): Promise<void> {
  return client.then(
    (opened) => opened.close(),
    () => undefined,
  );
}

export class AccountMonitor extends Disposable {
  readonly freeGuard: FreeModelGuard;
  private readonly snapshots = new Map<ServiceId, AccountSnapshot>();
  private readonly options: MonitorOptions;
  private readonly context: AccountContext;
  private readonly changed = this._register(new Emitter<ServiceId>());
  // The promise is kept, so that calls made while a client's code loads share the one client.
  private readonly clients = new Map<ServiceId, { id: string; client: Promise<WireClient> }>();

  constructor(options: MonitorOptions) {
    super();
    this.options = options;
    this._register(toDisposable(() => this.closeClients()));
    const now = options.now ?? Date.now;
    this.freeGuard = this._register(new FreeModelGuard(now));
    this.context = { now, tier: options.tier, freeGuard: this.freeGuard };
    for (const service of SERVICE_IDS) this.snapshots.set(service, serviceModule(service).account.empty(this.context));
    this._register(
      this.freeGuard.onDidChange((free) => {
        for (const service of SERVICE_IDS) {
          const { freeChanged } = serviceModule(service).account;
          if (!freeChanged) continue;
          this.snapshots.set(service, freeChanged(this.stored(service), free));
          this.emit(service);
        }
      }),
    );
  }

  private stored(service: ServiceId): AccountSnapshot {
    return this.snapshots.get(service) ?? serviceModule(service).account.empty(this.context);
  }

  /** What is known about the service's account now; its type is the service module's snapshot. */
  snapshot(service: ServiceId): AccountSnapshot {
    return serviceModule(service).account.current(this.stored(service), this.context);
  }

  /** The status-bar item's text, tooltip and severity for the service. */
  view(service: ServiceId, meta: KeyMetadata | undefined, name: string, now: number): StatusView {
    return serviceModule(service).account.view(this.snapshot(service), meta, name, now);
  }

  /** The service's item counts down a wait the service named. */
  counting(service: ServiceId): boolean {
    return serviceModule(service).account.counting(this.snapshot(service));
  }

  /** What fixes the state the service's item shows, if anything does. */
  remedy(service: ServiceId, pages: { keys: string | null; credits: string | null }): Remedy | undefined {
    return serviceModule(service).account.remedy(this.snapshot(service), pages);
  }

  onDidChange(listener: (service: ServiceId) => void): Subscription {
    return this.changed.event(listener);
  }

  /**
   * The service's client (its module's type) for the stored key and the configured base URL; undefined without a
   * key where one is needed, or without a base URL. Made again when the key or the settings change.
   */
  async client(service: ServiceId): Promise<WireClient | undefined> {
    const key = (await this.options.keys.getKey(service)) ?? '';
    if (!key && !SERVICES[service].capabilities.keyOptional) return undefined;
    const config = this.options.config();
    const baseUrl = baseUrlOf(config, service);
    if (baseUrl === null) return undefined;
    const id = `${baseUrl}|${JSON.stringify(config.network)}|${key ? fingerprint(key) : 'no key'}`;
    const cached = this.clients.get(service);
    if (cached?.id === id) return cached.client;
    if (cached) void closeWhenOpen(cached.client);
    const client = serviceModule(service).open({
      baseUrl,
      key,
      ...config.network,
      now: this.context.now,
      freeGuard: this.freeGuard,
    });
    this.clients.set(service, { id, client });
    // A client whose code failed to load is not kept: the next call tries again.
    client.catch(() => {
      if (this.clients.get(service)?.client === client) this.clients.delete(service);
    });
    return client;
  }

  /** Why a service has no client: no base URL set yet, or no key where one is needed. */
  unavailable(service: ServiceId): ServiceError {
    if (baseUrlOf(this.options.config(), service) === null)
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
    this.snapshots.set(service, serviceModule(service).account.reset(this.stored(service), this.context));
    this.emit(service);
  }

  /** Checks a key without spending tokens and updates the snapshot. */
  async verify(service: ServiceId, signal?: AbortSignal): Promise<AccountVerification> {
    const client = await this.client(service);
    if (!client) return { service, ok: false, error: this.unavailable(service) };
    const { snapshot, verification } = await serviceModule(service).account.verify(
      client,
      this.stored(service),
      this.context,
      signal,
    );
    this.snapshots.set(service, snapshot);
    this.emit(service);
    return verification as AccountVerification;
  }

  /** What a prompt's outcome tells about the account. */
  recordOutcome(service: ServiceId, error: ServiceError | null, rateLimits?: RateLimits | null): void {
    this.snapshots.set(
      service,
      serviceModule(service).account.recordOutcome(this.stored(service), error, rateLimits, this.context),
    );
    this.emit(service);
  }

  private closeClients(): void {
    for (const { client } of this.clients.values()) void closeWhenOpen(client);
    this.clients.clear();
  }

  private emit(service: ServiceId): void {
    this.changed.fire(service);
  }
}
