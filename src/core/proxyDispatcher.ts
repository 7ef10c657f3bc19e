// The dispatcher a transport sends through: straight, or through the configured proxy (an HTTP CONNECT tunnel, so
// the proxy sees the host name and encrypted bytes, never the key), with the certificate authorities to trust.
import type { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';
import { loadBuiltin } from './builtin.ts';
import { lazy } from './lazy.ts';
import type { ProxyConfig } from './proxyConfig.ts';

export interface DispatcherFactory {
  Agent: typeof Agent;
  EnvHttpProxyAgent: typeof EnvHttpProxyAgent;
}

export interface Waits {
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

/**
 * Node's own authorities (its bundle and NODE_EXTRA_CA_CERTS) and the operating system's, read once: a company's
 * inspecting proxy signs with a root the IT department put in the system store, not in Node's bundle. Undefined
 * where Node cannot list them (before 22.15), which leaves Node's default in place.
 */
export const trustedAuthorities = lazy((): string[] | undefined => {
  const tls = loadBuiltin<typeof import('node:tls')>('node:tls');
  if (typeof tls.getCACertificates !== 'function') return undefined;
  return [...new Set([...tls.getCACertificates('default'), ...tls.getCACertificates('system')])];
});

export function proxyDispatcher(undici: DispatcherFactory, proxy: ProxyConfig, waits: Waits): Dispatcher {
  const ca = proxy.systemCertificates ? trustedAuthorities() : undefined;
  const tls = { ...(ca ? { ca } : {}), ...(proxy.strictSSL ? {} : { rejectUnauthorized: false }) };
  const timeouts = { headersTimeout: waits.idleTimeoutMs, bodyTimeout: waits.idleTimeoutMs };
  const connect = { timeout: waits.connectTimeoutMs, ...tls };
  if (proxy.url === null) return new undici.Agent({ ...timeouts, connect });
  return new undici.EnvHttpProxyAgent({
    ...timeouts,
    connect,
    connectTimeout: waits.connectTimeoutMs,
    // Plain http goes only to this machine (urlPolicy.ts): never through a proxy, whose localhost is not ours and
    // which would read the key in clear text. An empty string, not undefined: undici would read the environment.
    httpProxy: '',
    httpsProxy: proxy.url,
    noProxy: proxy.noProxy,
    ...(proxy.authorization ? { token: proxy.authorization } : {}),
    requestTls: tls,
    proxyTls: tls,
  });
}
