/**
 * The services Keyward can prompt. What each one is (endpoints, settings, keys,
 * capabilities) lives in one table, `core/services.ts`; this list is the part the
 * webview and the protocol guard need too.
 */
export const SERVICE_IDS = ['router', 'direct', 'compatible'] as const;

export type ServiceId = (typeof SERVICE_IDS)[number];

export function isServiceId(value: unknown): value is ServiceId {
  return (SERVICE_IDS as readonly unknown[]).includes(value);
}
