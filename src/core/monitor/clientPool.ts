// One wire client per service for the stored key and the configured base URL, made again when either changes.
// Kept apart from the account snapshots: what talks to a service and what is known about its account change for
// different reasons.
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { KeywardConfig } from '../config.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import type { FreeModelGuard } from '../wire/freeGuard.ts';
import { fingerprint } from '../keys/fingerprint.ts';
import type { KeyStore } from '../keys/keyStore.ts';
import { SERVICES, baseUrlOf } from '../services/descriptors.ts';
import type { WireClient } from '../services/module.ts';
import { serviceModule } from '../services/registry.ts';

export interface ClientPoolOptions {
  keys: KeyStore;
  config: () => KeywardConfig;
  now: () => number;
  freeGuard: FreeModelGuard;
}

/** Closes a client once it is made; one that failed to load has nothing to close. */
function closeWhenOpen(client: Promise<WireClient>): Promise<void> {
  return client.then(
    (opened) => opened.close(),
    () => undefined,
  );
}

export class ClientPool {
  private readonly options: ClientPoolOptions;
  // The promise is kept, so that calls made while a client's code loads share the one client.
  private readonly clients = new Map<ServiceId, { id: string; client: Promise<WireClient> }>();

  constructor(options: ClientPoolOptions) {
    this.options = options;
  }

  /**
   * The service's client (its module's type) for the stored key and the configured base URL; undefined without a
   * key where one is needed, or without a base URL.
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
      now: this.options.now,
      freeGuard: this.options.freeGuard,
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

  close(): void {
    for (const { client } of this.clients.values()) void closeWhenOpen(client);
    this.clients.clear();
  }
}
