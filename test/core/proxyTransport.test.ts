// The transport under the editor's proxy settings (VS Code's http.proxy, http.proxyStrictSSL, http.noProxy,
// http.proxyAuthorization, as the host hands them to core): through a real CONNECT proxy to the emulator behind a
// TLS front signed by a private authority. VS Code's own proxy agent does the same with these settings
// (microsoft/vscode-proxy-agent src/index.ts: strictSSL decides rejectUnauthorized, proxyAuthorization the header).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROXY, type ProxyConfig, proxyFromSettings } from '../../src/core/proxyConfig.ts';
import { Transport } from '../../src/core/transport.ts';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import {
  type ConnectProxy,
  type CorporateNetwork,
  type TlsFront,
  corporateNetwork,
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
      kind: 'network',
      message: expect.stringMatching(/through the proxy .*certificate/i) as unknown,
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
