// The model lists the panel offers, read once per key and service and kept
// until the key changes or the person refreshes.
import type { ServiceErrorData } from '../../shared/errorKinds.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import type { AccountMonitor } from '../monitor/accountMonitor.ts';
import { ServiceError } from '../errors.ts';
import { SERVICE_IDS } from '../services/descriptors.ts';
import { cannotListModels } from '../services/module.ts';
import { serviceModule } from '../services/registry.ts';

const each = <T>(value: T) => Object.fromEntries(SERVICE_IDS.map((id) => [id, value])) as Record<ServiceId, T>;

export interface ModelList {
  service: ServiceId;
  models: ModelOption[] | null;
  canList: boolean;
  error?: ServiceErrorData;
}

export class ModelCatalog {
  private readonly lists: Record<ServiceId, ModelOption[] | null> = each<ModelOption[] | null>(null);
  private readonly listable: Record<ServiceId, boolean> = each(true);

  private readonly monitor: AccountMonitor;

  constructor(monitor: AccountMonitor) {
    this.monitor = monitor;
  }

  get models(): Record<ServiceId, ModelOption[] | null> {
    return { ...this.lists };
  }

  get canList(): Record<ServiceId, boolean> {
    return { ...this.listable };
  }

  forget(service: ServiceId): void {
    this.lists[service] = null;
  }

  /** The service's list, read when not known yet; undefined when there is no key to read it with. */
  async load(service: ServiceId): Promise<ModelList | undefined> {
    const known = this.lists[service];
    if (known) return { service, models: known, canList: this.listable[service] };
    try {
      const client = await this.monitor.client(service);
      if (!client) return undefined;
      this.lists[service] = await serviceModule(service).modelOptions(client);
      this.listable[service] = true;
      return { service, models: this.lists[service], canList: true };
    } catch (error) {
      const failure = error instanceof ServiceError ? error : undefined;
      // A Restricted key may prompt yet not list models, nor may a server without GET /models: the person types a model id.
      this.listable[service] = !(failure && cannotListModels(failure));
      return {
        service,
        models: null,
        canList: this.listable[service],
        ...(failure ? { error: failure.toData() } : {}),
      };
    }
  }
}
