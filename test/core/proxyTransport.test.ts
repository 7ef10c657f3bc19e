// The transport under the editor's proxy settings (VS Code's http.proxy, http.proxyStrictSSL, http.noProxy,
// http.proxyAuthorization, as the host hands them to core): through a real CONNECT proxy to the emulator behind a
// TLS front signed by a private authority. VS Code's own proxy agent does the same with these settings
// (microsoft/vscode-proxy-agent src/index.ts: strictSSL decides rejectUnauthorized, proxyAuthorization the header).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROXY, type ProxyConfig, proxyFromSettings } from '../../src/core/proxyConfig.ts';
import { Transport } from '../../src/core/transport.ts';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { DEFAULT_RETRY_POLICY, emptyHistory, retryDelayMs } from '../../src/core/retryPolicy.ts';
import type { ServiceError } from '../../src/core/errors.ts';
import {
  type ConnectProxy,
  type CorporateNetwork,
  type TlsFront,
  corporateNetwork,
  guardedProxy,
} from '../emulator/corporateNetwork.ts';

let bed: TestBed;
let network: CorporateNetwork;
let front: TlsFront;
let proxy: ConnectProxy;
let guarded: ConnectProxy;

beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
  network = await corporateNetwork(bed.emulator.url, 'bob:proxy-secret-1');
  ({ front, proxy, guarded } = network);
}, 60_000);
afterAll(() => Promise.all([network.close(), bed.close()]));
beforeEach(() => network.forget());

const key = () => bed.emulator.sandbox!.keys.routerFunded;
const routerUrl = () => front.origin + new URL(bed.emulator.routerBaseUrl).pathname;

async function keyCheck(baseUrl: string, settings: ProxyConfig): Promise<number> {
  const transport = new Transport('router', baseUrl, { connectTimeoutMs: 5000, idleTimeoutMs: 5000, proxy: settings });
  try {
    const response = await transport.send({ method: 'GET', path: 'key', key: key() });
    await response.text();
    return response.status;
  } finally {
    await transport.close();
  }
}

// The system store stays out: a test machine's store must not decide the outcome.
const editor = (overrides: Partial<ProxyConfig>): ProxyConfig => ({
  ...DEFAULT_PROXY,
  systemCertificates: false,
  url: proxy.url,
  ...overrides,
});

describe('transport through the editor proxy settings', () => {
  it('http.proxyStrictSSL true refuses the private certificate; false accepts it, through the proxy', async () => {
    await expect(keyCheck(routerUrl(), editor({ strictSSL: true }))).rejects.toMatchObject({
      kind: 'certificate',
      message: expect.stringMatching(/certificate of localhost:\d+ .*through the proxy /i) as unknown,
    });
    expect(await keyCheck(routerUrl(), editor({ strictSSL: false }))).toBe(200);
    expect(proxy.tunnels.map((tunnel) => tunnel.target)).toContain(`localhost:${front.port}`);
  });

  it('http.proxyAuthorization goes to the proxy as Proxy-Authorization, the key only to the service', async () => {
    const authorization = `Basic ${Buffer.from('bob:proxy-secret-1').toString('base64')}`;
    expect(await keyCheck(routerUrl(), editor({ url: guarded.url, strictSSL: false, authorization }))).toBe(200);
    expect(guarded.tunnels[0]!.headers['proxy-authorization']).toBe(authorization);
    expect(JSON.stringify(guarded.tunnels)).not.toContain(key());
    expect(bed.emulator.requests.at(-1)).toMatchObject({ service: 'router', key: key() });
  });

  it('a refused proxy authorisation is named without the credentials', async () => {
    const authorization = `Basic ${Buffer.from('bob:not-the-secret').toString('base64')}`;
    const failure = keyCheck(routerUrl(), editor({ url: guarded.url, strictSSL: false, authorization }));
    await expect(failure).rejects.toMatchObject({ kind: 'network', code: 'proxy_407' });
    const error = (await failure.catch((caught: unknown) => caught)) as Error & { action: string };
    expect(error.message + error.action).not.toContain(authorization.slice(6));
    expect(error.action).toContain('http.proxyAuthorization');
  });

  it('http.noProxy sends a listed host straight', async () => {
    expect(await keyCheck(routerUrl(), editor({ strictSSL: false, noProxy: 'intranet.example,localhost' }))).toBe(200);
    expect(proxy.tunnels).toEqual([]);
  });

  it('plain http to another machine is refused before the proxy hears of it', async () => {
    await expect(keyCheck('http://api.example.invalid/v1', editor({}))).rejects.toMatchObject({
      kind: 'insecure_url',
    });
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.plain).toEqual([]);
  });
});

// Issue 31: a proxy that refuses the credentials Keyward sent was blamed on the network administrator. 407 is the
// standard answer; tinyproxy answers 401 to a CONNECT with wrong Basic credentials.
describe('a proxy that refuses the credentials', () => {
  const refusal = async (status: 401 | 407, settings: (url: string) => Partial<ProxyConfig>) => {
    const refusing = await guardedProxy(status, 'carol:right-pass-word');
    try {
      const failure = await keyCheck(routerUrl(), editor({ strictSSL: false, ...settings(refusing.url) })).catch(
        (error: unknown) => error as ServiceError,
      );
      return { error: failure as ServiceError, tunnels: refusing.tunnels.length };
    } finally {
      await refusing.close();
    }
  };
  const wrong = `Basic ${Buffer.from('carol:wrong-pass-word').toString('base64')}`;

  it.each([401, 407] as const)(
    'HTTP %i after http.proxyAuthorization was sent: the credentials were refused, and where they are set',
    async (status) => {
      const { error, tunnels } = await refusal(status, (url) => ({ url, authorization: wrong, urlFrom: 'http.proxy' }));
      expect(error).toMatchObject({ kind: 'network', code: `proxy_${status}` });
      expect(error.message).toContain(`it refused the credentials Keyward sent (HTTP ${status})`);
      expect(error.action).toContain('the http.proxyAuthorization setting');
      expect(error.action).not.toMatch(/network administrator/);
      expect(error.message + error.action).not.toContain(wrong.slice(6));
      // Refused credentials are refused again a second later: never sent again.
      expect(retryDelayMs(error, emptyHistory(), DEFAULT_RETRY_POLICY)).toBeUndefined();
      expect(tunnels).toBe(1);
    },
  );

  it.each([401, 407] as const)(
    'HTTP %i after the proxy URL carried them: names the URL and the setting it came from',
    async (status) => {
      const { error } = await refusal(status, (url) => ({
        url: url.replace('http://', 'http://carol:wrong-pass-word@'),
        urlFrom: 'http.proxy',
      }));
      expect(error.message).toContain(`it refused the credentials Keyward sent (HTTP ${status})`);
      expect(error.action).toContain('the user name and password in the proxy URL (http.proxy)');
      expect(error.message + error.action).not.toContain('wrong-pass-word');
    },
  );

  it('HTTP 407 with no credentials set: the proxy needs them, and where to put them', async () => {
    const { error } = await refusal(407, (url) => ({ url }));
    expect(error.message).toContain('it asks for credentials, and none are set (HTTP 407)');
    expect(error.action).toContain('http.proxyAuthorization');
    expect(error.action).not.toMatch(/network administrator/);
  });
});

describe('the http section as VS Code gives it', () => {
  const settings = (values: Record<string, unknown>) => (name: string) => values[name];

  it('reads http.proxy, http.noProxy (a list), http.proxyStrictSSL, http.proxyAuthorization, http.systemCertificates', () => {
    const { proxy: read, problems } = proxyFromSettings(
      settings({
        proxy: 'http://proxy.corp:3128',
        noProxy: ['localhost', '*.corp'],
        proxyStrictSSL: false,
        proxyAuthorization: 'Basic abc',
        systemCertificates: false,
      }),
      {},
    );
    expect(problems).toEqual([]);
    expect(read).toEqual({
      url: 'http://proxy.corp:3128/',
      noProxy: 'localhost,*.corp',
      strictSSL: false,
      authorization: 'Basic abc',
      systemCertificates: false,
      urlFrom: 'http.proxy',
    });
  });

  it('an empty http.proxy falls back to the environment, as VS Code does; a bad one is named', () => {
    expect(proxyFromSettings(settings({ proxy: '' }), { HTTPS_PROXY: 'proxy.corp:8080' }).proxy.url).toBe(
      'http://proxy.corp:8080/',
    );
    const bad = proxyFromSettings(settings({ proxy: 'socks5://proxy.corp:1080' }), {});
    expect(bad.proxy.url).toBeNull();
    expect(bad.problems).toEqual([{ setting: 'http.proxy', message: 'is not an http or https proxy URL' }]);
  });
});
