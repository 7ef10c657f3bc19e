// What the chat offers of the services: which are set up (the switch), which are ready to send, and the masks of
// the keys Keyward holds (the webview masks them in the state it saves, without ever holding a key).
import { type KeyMask, keyMaskOf } from '../../shared/keyShapes.ts';
import type { ServiceChoice } from '../../shared/protocol.ts';
import { type ServiceId, defaultModel } from '../../shared/serviceIds.ts';
import type { KeywardConfig } from '../../core/config.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { SERVICES, SERVICE_IDS, isConfigured } from '../../core/services/descriptors.ts';
import { serviceLabel, serviceShortLabel } from '../serviceNames.ts';

/** Whether each service can send: it holds a key, or needs none. */
export function keyReadiness(keys: KeyStore): Record<ServiceId, boolean> {
  // A service whose key is optional is ready without one.
  return Object.fromEntries(
    SERVICE_IDS.map((id) => [id, SERVICES[id].capabilities.keyOptional || keys.metadata(id) !== undefined]),
  ) as Record<ServiceId, boolean>;
}

/** The stored and rotated-out keys as masks, from what global state already keeps (masked form, length). */
export function heldKeyMasks(keys: KeyStore): KeyMask[] {
  const held = [...SERVICE_IDS.map((id) => keys.metadata(id)).filter((m) => m !== undefined), ...keys.retired()];
  return held.map((k) => keyMaskOf(k.masked, k.length)).filter((m) => m !== undefined);
}

/** The services the switch offers: the hosted ones always, the compatible one once it has a base URL. */
export function offeredServices(config: KeywardConfig): ServiceChoice[] {
  return SERVICE_IDS.filter((id) => isConfigured(config, id)).map((id) => ({
    id,
    name: serviceLabel(id, config),
    shortName: serviceShortLabel(id, config),
    pricedModels: SERVICES[id].capabilities.hasModelPrices,
    hasCredits: SERVICES[id].capabilities.hasCredits,
    keyOptional: SERVICES[id].capabilities.keyOptional,
    ...(SERVICES[id].capabilities.hasFreeModels ? { freeModel: defaultModel(id) } : {}),
    ...(SERVICES[id].commands.signIn ? { signIn: true } : {}),
  }));
}
