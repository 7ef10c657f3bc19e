// keyward on a corporate network: HTTPS_PROXY / NO_PROXY (lower case first, as curl reads them), a private
// certificate authority through NODE_EXTRA_CA_CERTS or the system store, and the key's rules through the proxy:
// https only, no redirect followed, the key in the Authorization header to the service and nowhere in the tunnel.
// Each run is a child process, since Node reads NODE_EXTRA_CA_CERTS and the system store's location at start.
// Peers: undici's EnvHttpProxyAgent (nodejs/undici lib/dispatcher/env-http-proxy-agent.js) for NO_PROXY's syntax;
// TooTallNate's proxy-agents tests against the same `proxy` server (packages/https-proxy-agent/test/test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import {
  type ConnectProxy,
  type CorporateNetwork,
  type PrivateCa,
  type TlsFront,
  corporateNetwork,
  guardedProxy,
} from '../emulator/corporateNetwork.ts';
import { cli } from './cliSupport.ts';

let bed: TestBed;
let network: CorporateNetwork;
let ca: PrivateCa;
let front: TlsFront;
let proxy: ConnectProxy;
let guarded: ConnectProxy;

beforeAll(async () => {
  bed = await startTestBed();
  network = await corporateNetwork(bed.emulator.url, 'alice:proxy-pass-word');
  ({ ca, front, proxy, guarded } = network);
}, 60_000);
afterAll(() => Promise.all([network.close(), bed.close()]));
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  network.forget();
});

const routerPath = () => new URL(bed.emulator.routerBaseUrl).pathname;
const status = () => ['status', '--service', 'router', '--base-url', front.origin + routerPath(), '--json'];
const key = () => bed.emulator.sandbox!.keys.routerFunded;
/** No system store: only what the test gives counts (the machine's store must not make a test pass). */
const base = () => ({ OPENROUTER_API_KEY: key(), KEYWARD_SYSTEM_CA: '0' });

describe('keyward behind a proxy', () => {
  it('goes through HTTPS_PROXY with a CONNECT to the service, the key only inside the tunnel', async () => {
    const run = await cli(status(), { ...base(), HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, service: 'router' });
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels.map((tunnel) => tunnel.target))).toEqual(new Set([`localhost:${front.port}`]));
    // The proxy sees the host, never the key: no Authorization, no Proxy-Authorization made of it.
    const seen = JSON.stringify(proxy.tunnels);
    expect(seen).not.toContain(key());
    expect(proxy.tunnels[0]!.headers.authorization).toBeUndefined();
    expect(proxy.tunnels[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(proxy.plain).toEqual([]);
    expect(bed.emulator.requests.at(-1)).toMatchObject({ service: 'router', key: key() });
  });

  it('reads https_proxy before HTTPS_PROXY, and a scheme-less host:port as http (curl)', async () => {
    const lower = await cli(status(), {
      ...base(),
      https_proxy: proxy.url.replace('http://', ''),
      HTTPS_PROXY: 'http://127.0.0.1:9',
      NODE_EXTRA_CA_CERTS: ca.caFile,
    });
    expect(lower.code).toBe(0);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
  });

  it('NO_PROXY sends the host straight, past the proxy', async () => {
    const run = await cli(status(), {
      ...base(),
      HTTPS_PROXY: proxy.url,
      NO_PROXY: 'example.com, localhost',
      NODE_EXTRA_CA_CERTS: ca.caFile,
    });
    expect(run.code).toBe(0);
    expect(proxy.tunnels).toEqual([]);
    expect(bed.emulator.requests.at(-1)).toMatchObject({ service: 'router', key: key() });
  });

  it('refuses a service whose certificate no trusted authority signed, through the proxy too', async () => {
    const run = await cli(status(), { ...base(), HTTPS_PROXY: proxy.url });
    expect(run.code).toBe(1);
    const error = JSON.parse(run.stdout) as { error: { kind: string; message: string } };
    // A certificate error is its own kind (issue 31), named with its host.
    expect(error.error.kind).toBe('certificate');
    expect(error.error.message).toContain(`through the proxy ${proxy.url}`);
    expect(error.error.message).toContain(`certificate of localhost:${front.port}`);
    expect(bed.emulator.requests).toEqual([]);
  });

  it('trusts the private authority from the system store (SSL_CERT_FILE), and not when KEYWARD_SYSTEM_CA=0', async () => {
    const system = { OPENROUTER_API_KEY: key(), HTTPS_PROXY: proxy.url, SSL_CERT_FILE: ca.caFile };
    const trusted = await cli(status(), system);
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    const off = await cli(status(), { ...system, KEYWARD_SYSTEM_CA: '0' });
    expect(off.code).toBe(1);
    expect(JSON.parse(off.stdout)).toMatchObject({ error: { kind: 'certificate' } });
  });

  it('sends the proxy credentials of the proxy URL to the proxy only, and never shows the password', async () => {
    const withUser = guarded.url.replace('http://', 'http://alice:proxy-pass-word@');
    const run = await cli(status(), { ...base(), HTTPS_PROXY: withUser, NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(run.code).toBe(0);
    expect(guarded.tunnels[0]!.headers['proxy-authorization']).toBe(
      `Basic ${Buffer.from('alice:proxy-pass-word').toString('base64')}`,
    );
    expect(JSON.stringify(guarded.tunnels)).not.toContain(key());

    const asked = bed.emulator.requests.length;
    const wrong = guarded.url.replace('http://', 'http://alice:wrong-pass-word@');
    const refused = await cli(status(), { ...base(), HTTPS_PROXY: wrong, NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(refused.code).toBe(1);
    const message = (JSON.parse(refused.stdout) as { error: { message: string } }).error.message;
    expect(message).toContain(`through the proxy ${guarded.url}`);
    expect(message).toMatch(/: it refused the credentials Keyward sent \(HTTP 407\)/);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { kind: 'network', code: 'proxy_407' } });
    expect(refused.stdout + refused.stderr).not.toContain('wrong-pass-word');
    expect(bed.emulator.requests).toHaveLength(asked);
  });

  // Issue 31: tinyproxy answers 401 to a CONNECT with wrong Basic credentials; that was blamed on the administrator.
  it('a proxy answering 401 to the credentials of HTTPS_PROXY: they were refused, named where they come from', async () => {
    const refusing = await guardedProxy(401, 'alice:proxy-pass-word');
    try {
      const wrong = refusing.url.replace('http://', 'http://alice:wrong-pass-word@');
      const run = await cli(status(), { ...base(), HTTPS_PROXY: wrong, NODE_EXTRA_CA_CERTS: ca.caFile });
      expect(run.code).toBe(1);
      const { error } = JSON.parse(run.stdout) as {
        error: { kind: string; code: string; message: string; action: string };
      };
      expect(error).toMatchObject({ kind: 'network', code: 'proxy_401' });
      expect(error.message).toContain(
        `through the proxy ${refusing.url}: it refused the credentials Keyward sent (HTTP 401)`,
      );
      expect(error.action).toContain('the user name and password in the proxy URL (HTTPS_PROXY)');
      expect(error.action).not.toMatch(/network administrator/);
      expect(run.stdout + run.stderr).not.toContain('wrong-pass-word');
      // Sent once: the key check's requests each asked once, none again after the refusal.
      expect(refusing.tunnels.length).toBeLessThanOrEqual(2);
    } finally {
      await refusing.close();
    }
  });

  it('a proxy answering 407 with no credentials set: it needs them, and where they go', async () => {
    const run = await cli(status(), { ...base(), HTTPS_PROXY: guarded.url, NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout) as { error: { message: string; action: string } };
    expect(error.message).toContain('it asks for credentials, and none are set (HTTP 407)');
    expect(error.action).toContain('HTTPS_PROXY');
  });

  it('does not follow a redirect through the proxy', async () => {
    await bed.admin('POST', '/faults', {
      kind: 'redirect',
      service: 'router',
      status: 307,
      location: 'https://elsewhere.example.invalid/api/v1/key',
    });
    const run = await cli(status(), { ...base(), HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { kind: 'redirected' } });
    expect(new Set(proxy.tunnels.map((tunnel) => tunnel.target))).toEqual(new Set([`localhost:${front.port}`]));
  });

  it('refuses plain http to another machine even with a proxy set, and the proxy hears nothing', async () => {
    const run = await cli(['status', '--service', 'router', '--base-url', 'http://api.example.invalid/v1', '--json'], {
      ...base(),
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { kind: 'insecure_url' } });
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.plain).toEqual([]);
  });

  it('sends plain http to this machine straight, never in clear text through a proxy', async () => {
    const run = await cli(['status', '--service', 'router', '--base-url', bed.emulator.routerBaseUrl, '--json'], {
      ...base(),
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
    });
    expect(run.code).toBe(0);
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.plain).toEqual([]);
  });

  it('names a proxy variable that is not a proxy URL (exit 2), instead of going straight', async () => {
    const run = await cli(status(), { ...base(), HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'invalid_proxy' } });
    expect(run.stdout).toContain('HTTPS_PROXY is not an http or https proxy URL');
  });

  it('keyward ask streams an answer through the proxy', async () => {
    const run = await cli(
      ['ask', '--service', 'router', '--base-url', front.origin + routerPath(), '--model', 'openrouter/free', 'hello'],
      { ...base(), HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(JSON.stringify(proxy.tunnels)).not.toContain(key());
  });
});
