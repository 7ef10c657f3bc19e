// A key must never travel in clear text: only https, except to this machine.
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_HOSTS.has(hostname.toLowerCase())) return true;
  return /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

export type BaseUrlCheck = { ok: true; url: URL } | { ok: false; reason: 'invalid' | 'insecure' };

export function checkBaseUrl(raw: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { ok: true, url };
  return { ok: false, reason: url.protocol === 'http:' ? 'insecure' : 'invalid' };
}

/** Joins a base URL ending in /v1 (with or without a trailing slash) and an endpoint path. */
export function endpointUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}
