/**
 * The services Keyward can prompt. What each one is (endpoints, settings, keys,
 * capabilities) and does lives in its module, `core/services/<id>.ts`; this list
 * is the part the webview and the protocol guard need too.
 */
export const SERVICE_IDS = ['router', 'direct', 'compatible'] as const;

export type ServiceId = (typeof SERVICE_IDS)[number];

export function isServiceId(value: unknown): value is ServiceId {
  return (SERVICE_IDS as readonly unknown[]).includes(value);
}

/** The service a new chat starts on: the first of the list. */
export const DEFAULT_SERVICE: ServiceId = SERVICE_IDS[0];

/** A record with one entry per service, so a new id needs no new key in the tables built with it. */
export function perService<T>(make: (id: ServiceId) => T): Record<ServiceId, T> {
  return Object.fromEntries(SERVICE_IDS.map((id) => [id, make(id)])) as Record<ServiceId, T>;
}

/**
 * The model a new chat picks on each service, '' where it has none to suggest (the person types or picks one). It
 * sits next to the id list because the webview starts from it before the host's state arrives; the compiler asks for a
 * row with every new id, here, in the file the id is added to. The routing service's free router costs nothing; the
 * direct service's small model is its cheapest.
 */
const DEFAULT_MODELS = {
  router: 'openrouter/free',
  direct: 'gpt-5.4-mini',
  compatible: '',
} satisfies Record<ServiceId, string>;

export function defaultModel(service: ServiceId): string {
  return (DEFAULT_MODELS as Record<ServiceId, string>)[service];
}
