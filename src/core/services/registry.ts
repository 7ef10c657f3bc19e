// The one registry of what services do: a new service is its module (services/<id>.ts) and one line here, next to
// its descriptor's line in core/services/descriptors.ts. Everything else calls the module through serviceModule(id).
import type { ServiceId } from '../../shared/serviceIds.ts';
import { type CompatibleVerification, compatibleService } from './compatible.ts';
import { type DirectVerification, directService } from './direct.ts';
import type { FailedVerification, ServiceModule } from './module.ts';
import { type RouterVerification, routerService } from './router.ts';

const MODULES = {
  router: routerService,
  direct: directService,
  compatible: compatibleService,
} satisfies Record<ServiceId, ServiceModule>;

/** Typed by the id list, not by the rows: a missing module is named above, not in every caller. */
const SERVICE_MODULES: Readonly<Record<ServiceId, ServiceModule>> = MODULES;

export function serviceModule(id: ServiceId): ServiceModule {
  return SERVICE_MODULES[id];
}

/** What a key check found: each service's own findings when it worked, the error when it did not. */
export type AccountVerification = RouterVerification | DirectVerification | CompatibleVerification | FailedVerification;
