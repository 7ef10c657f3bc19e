// Keeps what is known about each service's account current: one snapshot per service, kept as its module says
// (services/<id>.ts: what a key check and a prompt's outcome change). The status bar and the panel subscribe;
// nothing here knows VS Code, nor which service it holds.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';
import type { StatusView } from '../account/accountStatus.ts';
import type { KeywardConfig } from '../config.ts';
import { ClientPool } from './clientPool.ts';
import type { RateLimits } from '../wire/responsesClient.ts';
import type { ServiceError } from '../errors.ts';
import type { Tier } from '../fees.ts';
import { FreeModelGuard } from '../wire/freeGuard.ts';
import type { KeyMetadata, KeyStore } from '../keys/keyStore.ts';
import { SERVICE_IDS } from '../services/descriptors.ts';
import type { AccountContext, AccountSnapshot, Remedy, WireClient } from '../services/module.ts';
import { type AccountVerification, serviceModule } from '../services/registry.ts';

export type { AccountVerification };

export interface MonitorOptions {
  keys: KeyStore;
  config: () => KeywardConfig;
  tier: () => Tier | null;
  now?: () => number;
}

export class AccountMonitor extends Disposable {
  readonly freeGuard: FreeModelGuard;
  private readonly snapshots = new Map<ServiceId, AccountSnapshot>();
  private readonly options: MonitorOptions;
  private readonly context: AccountContext;
  private readonly changed = this._register(new Emitter<ServiceId>());
  private readonly clients: ClientPool;

  constructor(options: MonitorOptions) {
    super();
    this.options = options;
    const now = options.now ?? Date.now;
    this.freeGuard = this._register(new FreeModelGuard(now));
    this.clients = new ClientPool({ keys: options.keys, config: options.config, now, freeGuard: this.freeGuard });
    this._register(toDisposable(() => this.clients.close()));
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

  /** The service's client for the stored key and the configured base URL (see ClientPool). */
  client(service: ServiceId): Promise<WireClient | undefined> {
    return this.clients.client(service);
  }

  /** Why a service has no client: no base URL set yet, or no key where one is needed. */
  unavailable(service: ServiceId): ServiceError {
    return this.clients.unavailable(service);
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

  private emit(service: ServiceId): void {
    this.changed.fire(service);
  }
}
