// A proxy that refused the CONNECT tunnel, named for what it means. undici reports it as an abort, "Proxy response
// (407) !== 200 when HTTP Tunneling". 407 is the standard answer for missing or wrong proxy credentials; some proxies
// (tinyproxy among them) answer 401 instead. After credentials were sent, either means they were refused: the
// person's to fix, where they set them, not the network administrator's. The password is never shown.
import type { ServiceId } from '../shared/serviceIds.ts';
import { SERVICE_NAMES, ServiceError } from './errors.ts';
import { type ProxyConfig, proxySecrets, shownProxy } from './proxyConfig.ts';

/** Where the credentials Keyward sent to the proxy came from, or null when it sent none. */
function credentialSource(proxy: ProxyConfig): string | null {
  if (proxy.authorization) return 'the http.proxyAuthorization setting';
  try {
    const url = new URL(proxy.url ?? '');
    if (url.username || url.password)
      return `the user name and password in the proxy URL (${proxy.urlFrom ?? 'http.proxy'})`;
  } catch {
    // no URL, no credentials in it
  }
  return null;
}

export function proxyRefusal(
  error: unknown,
  service: ServiceId,
  where: string,
  proxy: ProxyConfig | undefined,
): ServiceError | undefined {
  const refused = /^Proxy response \((\d{3})\)/.exec((error as Error | undefined)?.message ?? '');
  if (!refused || !proxy?.url) return undefined;
  const status = refused[1]!;
  const shown = shownProxy(proxy.url);
  const reach = `Could not reach the ${SERVICE_NAMES[service]} at ${where} through the proxy ${shown}`;
  const sent = credentialSource(proxy);
  let message = `${reach}: it refused the tunnel (HTTP ${status}).`;
  let action = 'Ask the network administrator whether the proxy lets this host through.';
  if ((status === '407' || status === '401') && sent) {
    message = `${reach}: it refused the credentials Keyward sent (HTTP ${status}).`;
    action = `The proxy did not accept the credentials from ${sent}: correct the user name or password there (the CLI reads them from HTTPS_PROXY, as http://user:password@host:port). The password is not shown.`;
  } else if (status === '407' || status === '401') {
    message = `${reach}: it asks for credentials, and none are set (HTTP ${status}).`;
    action =
      'Put the proxy credentials in the proxy URL (http.proxy, or HTTPS_PROXY for the CLI: http://user:password@host:port), or set http.proxyAuthorization.';
  }
  return new ServiceError({
    kind: 'network',
    service,
    code: `proxy_${status}`,
    message,
    action,
    // The same credentials or the same policy refuse the same way a second later.
    shouldRetry: false,
    secrets: proxySecrets(proxy),
    cause: error,
  });
}
