// How requests leave the machine on a corporate network: the proxy, the hosts that bypass it, whether certificates
// are checked, and which certificate authorities are trusted. Plain data: the editor fills it from VS Code's
// `http.*` settings, the CLI from HTTPS_PROXY / NO_PROXY, and the transport (proxyDispatcher.ts) obeys it.
/** A setting or variable that could not be used, and why (the shape of config.ts's ConfigProblem). */
export interface ProxyProblem {
  setting: string;
  message: string;
}

export interface ProxyConfig {
  /** The proxy https requests go through (http:// or https://, userinfo allowed); null: straight to the service. */
  url: string | null;
  /** Hosts that go straight, in NO_PROXY's syntax (comma or space separated, `*.` and `.` suffixes, `host:port`). */
  noProxy: string;
  /** Check the certificates of the service and of the proxy (VS Code's http.proxyStrictSSL). */
  strictSSL: boolean;
  /** The Proxy-Authorization header sent to the proxy only (VS Code's http.proxyAuthorization). */
  authorization: string | null;
  /** Trust the operating system's certificate store beside Node's own (VS Code's http.systemCertificates). */
  systemCertificates: boolean;
  /** Where `url` came from (`http.proxy`, or the environment variable's name), for a message about its credentials. */
  urlFrom?: string;
}

export const DEFAULT_PROXY: ProxyConfig = {
  url: null,
  noProxy: '',
  strictSSL: true,
  authorization: null,
  systemCertificates: true,
};

/**
 * A proxy address as curl and undici take it: a scheme-less `host:port` means http (curl's rule for HTTPS_PROXY),
 * only http and https proxies are spoken. Undefined when it is not one, for the caller to name.
 */
export function proxyUrl(raw: string): string | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.hostname === '') return undefined;
  return url.href;
}

/** A proxy URL fit for a message or a log: no userinfo, no path. */
export function shownProxy(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the configured proxy';
  }
}

/** What must never appear in a message: the proxy's password and its Proxy-Authorization value. */
export function proxySecrets(proxy: ProxyConfig | undefined): string[] {
  if (!proxy) return [];
  const secrets: string[] = [];
  if (proxy.authorization) {
    secrets.push(proxy.authorization);
    const credentials = proxy.authorization.replace(/^\S+\s+/, '');
    if (credentials !== proxy.authorization) secrets.push(credentials);
  }
  if (proxy.url) {
    try {
      const parsed = new URL(proxy.url);
      if (parsed.password) secrets.push(parsed.password, decodeURIComponent(parsed.password));
    } catch {
      // not a URL: nothing of it is shown either
    }
  }
  return secrets.filter((secret) => secret.length >= 4);
}

/**
 * The CLI's proxy, from the environment as curl reads it: https_proxy before HTTPS_PROXY (a key only ever goes
 * over https, so HTTP_PROXY is the fallback, as undici's EnvHttpProxyAgent and many corporate set-ups expect),
 * no_proxy before NO_PROXY. NODE_EXTRA_CA_CERTS is Node's own, read when the process starts.
 */
export function proxyFromEnv(env: Record<string, string | undefined>): {
  proxy: ProxyConfig;
  problems: ProxyProblem[];
} {
  const problems: ProxyProblem[] = [];
  const names = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];
  const name = names.find((candidate) => (env[candidate] ?? '').trim() !== '');
  let url: string | null = null;
  if (name) {
    url = proxyUrl(env[name] ?? '') ?? null;
    if (url === null) problems.push({ setting: name, message: 'is not an http or https proxy URL' });
  }
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? '';
  // KEYWARD_SYSTEM_CA=0 opts out of the system store, as http.systemCertificates does in the editor.
  const systemCertificates = env.KEYWARD_SYSTEM_CA !== '0';
  const urlFrom = url === null ? {} : { urlFrom: name };
  return { proxy: { ...DEFAULT_PROXY, url, noProxy, systemCertificates, ...urlFrom }, problems };
}

type Reader = (name: string) => unknown;

/**
 * The editor's proxy from VS Code's `http` section (`read('proxy')` is `http.proxy`). An empty http.proxy falls
 * back to the environment, as VS Code itself does.
 */
export function proxyFromSettings(
  read: Reader,
  env: Record<string, string | undefined>,
): { proxy: ProxyConfig; problems: ProxyProblem[] } {
  const fromEnv = proxyFromEnv(env);
  const problems: ProxyProblem[] = [];
  const raw = read('proxy');
  let url = fromEnv.proxy.url;
  let urlFrom = fromEnv.proxy.urlFrom;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const parsed = proxyUrl(raw);
    if (parsed) [url, urlFrom] = [parsed, 'http.proxy'];
    else problems.push({ setting: 'http.proxy', message: 'is not an http or https proxy URL' });
  } else problems.push(...fromEnv.problems);
  const noProxySetting = read('noProxy');
  const noProxy = Array.isArray(noProxySetting)
    ? noProxySetting.filter((entry): entry is string => typeof entry === 'string').join(',')
    : fromEnv.proxy.noProxy;
  const strict = read('proxyStrictSSL');
  const authorization = read('proxyAuthorization');
  const system = read('systemCertificates');
  return {
    proxy: {
      url,
      noProxy,
      strictSSL: strict !== false,
      authorization: typeof authorization === 'string' && authorization.trim() !== '' ? authorization.trim() : null,
      systemCertificates: system !== false,
      ...(url !== null && urlFrom ? { urlFrom } : {}),
    },
    problems,
  };
}
