// The one registry of what services do. A service with behaviour of its own is its module (services/<id>.ts) and one
// line here, next to its descriptor's line in core/services/descriptors.ts; an OpenAI-compatible one (a local server,
// a hosted gateway) needs no line here: its module is built from its descriptor. Everything else calls the module
// through serviceModule(id).
import { perService, type ServiceId } from '../../shared/serviceIds.ts';
import type { CompatibleVerification } from './compatible.ts';
import { type OwnModuleId, SERVICES } from './descriptors.ts';
import { type DirectVerification, directService } from './direct.ts';
import type { FailedVerification, ServiceModule } from './module.ts';
import { openAiCompatibleService } from './openAiCompatible.ts';
import { type RouterVerification, routerService } from './router.ts';

const OWN_MODULES = {
  router: routerService,
  direct: directService,
} satisfies Record<OwnModuleId, ServiceModule>;

/** Typed by the id list, not by the rows: a missing module is named above, not in every caller. */
const SERVICE_MODULES: Readonly<Record<ServiceId, ServiceModule>> = perService(
  (id) => (OWN_MODULES as Partial<Record<ServiceId, ServiceModule>>)[id] ?? openAiCompatibleService(SERVICES[id]),
);

export function serviceModule(id: ServiceId): ServiceModule {
  return SERVICE_MODULES[id];
}

/** What a key check found: each service's own findings when it worked, the error when it did not. */
export type AccountVerification = RouterVerification | DirectVerification | CompatibleVerification | FailedVerification;
