// The table of what each service is (its descriptor: plain data, in services/<id>Descriptor.ts). What a service
// does (its client, key check, account state, status view) is its module, registered in services/registry.ts. A
// new service is one line here and one there; `satisfies Record<ServiceId, ...>` makes the compiler ask for both,
// and every other file reads the rows through the generic helpers below. No vscode import: the CLI reads it too.
import { SERVICE_IDS, type ServiceId } from '../../shared/serviceIds.ts';
import type { KeywardConfig } from '../config.ts';
import { compatibleDescriptor } from './compatibleDescriptor.ts';
import type { ServiceCapabilities, ServiceDescriptor } from './descriptor.ts';
import { directDescriptor } from './directDescriptor.ts';
import { routerDescriptor } from './routerDescriptor.ts';

export { SERVICE_IDS, type ServiceId };
export type {
  ConfiguredService,
  ErrorDialect,
  ServiceCapabilities,
  ServiceCommands,
  ServiceDescriptor,
  WireFamily,
} from './descriptor.ts';

const DESCRIPTORS = {
  router: routerDescriptor,
  direct: directDescriptor,
  compatible: compatibleDescriptor,
} satisfies Record<ServiceId, ServiceDescriptor>;

/** The services with a module of their own (services/<id>.ts): registry.ts must name each; the rest share one. */
export type OwnModuleId = {
  [Id in ServiceId]: (typeof DESCRIPTORS)[Id]['module'] extends 'own' ? Id : never;
}[ServiceId];

/** Every command id the rows name (commandIds.ts checks each is declared). */
export type DescribedCommandId = {
  // Each row's own keys: a command only some rows name (signIn) counts where it is named.
  [Id in ServiceId]: (typeof DESCRIPTORS)[Id]['commands'][keyof (typeof DESCRIPTORS)[Id]['commands']];
}[ServiceId];

/** Typed by the id list, not by the rows: a missing row is named above, not in every file that reads one. */
export const SERVICES: Readonly<Record<ServiceId, ServiceDescriptor>> = DESCRIPTORS;

export function service(id: ServiceId): ServiceDescriptor {
  return SERVICES[id];
}

export function capable(id: ServiceId, capability: keyof ServiceCapabilities): boolean {
  return SERVICES[id].capabilities[capability];
}

/** The service whose SecretStorage slot this is. */
export function serviceOfSecret(name: string): ServiceId | undefined {
  return SERVICE_IDS.find((id) => SERVICES[id].secretSlot === name);
}

/** The configured base URL, or null when the service has none yet (compatible before it is set). */
export function baseUrlOf(config: KeywardConfig, id: ServiceId): string | null {
  return SERVICES[id].configured(config).baseUrl;
}

/** The name a person gave the service (compatible), else its display name. */
export function serviceName(config: KeywardConfig, id: ServiceId): string {
  return SERVICES[id].configured(config).givenName || SERVICES[id].displayName;
}

/** The service's pages as configured: keys and credits/billing, null where the service has none. */
export function pagesOf(config: KeywardConfig, id: ServiceId): { keys: string | null; credits: string | null } {
  return SERVICES[id].configured(config).pages;
}

/** A service is configured when it can be called: the two hosted ones always, compatible once it has a base URL. */
export function isConfigured(config: KeywardConfig, id: ServiceId): boolean {
  return baseUrlOf(config, id) !== null;
}
