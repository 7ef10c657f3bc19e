// Liveness of found keys, asked over real HTTP of the emulator: live, inactive
// (401), unknown (down, 5xx, or no service to ask), each key only to its own
// service, and each fingerprint once.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../src/core/scan/scanner.ts';
import { KeyVerifier } from '../../../src/core/scan/verify.ts';
import { officialBaseUrls } from '../../../src/core/scan/verifyHosts.ts';
import { SERVICES } from '../../../src/core/services/descriptors.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

const verifier = (baseUrls: Partial<Record<string, string>> = {}) =>
  new KeyVerifier({
    baseUrls: { router: bed.emulator.routerBaseUrl, direct: bed.emulator.directBaseUrl, ...baseUrls },
    timeoutMs: 10_000,
  });

/** A loopback port nothing listens on: the service is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function newRouterKey(): Promise<{ id: string; key: string }> {
  return bed.admin('POST', '/router/keys', { accountId: bed.emulator.sandbox!.routerFundedAccountId, name: 'found' });
}

async function newDirectKey(extra: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  return bed.admin('POST', '/direct/keys', { orgId: bed.emulator.sandbox!.directOrgId, permissions: 'All', ...extra });
}

describe('key verification', () => {
  it('a sandbox key of each service is live, asked of its own service only', async () => {
    const { routerFunded, direct } = bed.emulator.sandbox!.keys;
    const v = verifier();
    expect(await v.verify('router', routerFunded)).toMatchObject({ status: 'live' });
    expect(bed.emulator.requests).toEqual([{ service: 'router', method: 'GET', path: '/key', key: routerFunded }]);
    expect(await v.verify('direct', direct)).toMatchObject({ status: 'live' });
    expect(bed.emulator.requests.filter((r) => r.service === 'direct')).toEqual([
      { service: 'direct', method: 'GET', path: '/models', key: direct },
    ]);
    expect(bed.emulator.requests).toHaveLength(2);
  });

  it('a revoked key is inactive (401), on both services', async () => {
    const router = await newRouterKey();
    const direct = await newDirectKey();
    await bed.admin('DELETE', `/router/keys/${router.id}`);
    await bed.admin('DELETE', `/direct/keys/${direct.id}`);
    const v = verifier();
    expect(await v.verify('router', router.key)).toMatchObject({ status: 'inactive', reason: /HTTP 401/ });
    expect(await v.verify('direct', direct.key)).toMatchObject({ status: 'inactive', reason: /HTTP 401/ });
  });

  it('a Restricted direct key without the Models scope is live, whether "Missing scopes" comes as 401 or 403', async () => {
    const restricted = await newDirectKey({ permissions: 'Restricted', scopes: ['api.responses.write'] });
    expect(await verifier().verify('direct', restricted.key)).toMatchObject({ status: 'live' });
    await bed.admin('POST', '/config', { missingScopesStatus: 403 });
    expect(await verifier().verify('direct', restricted.key)).toMatchObject({ status: 'live' });
  });

  it('unknown when the service is down or fails, and the reason never holds the key', async () => {
    const down = `http://127.0.0.1:${await closedPort()}/router/api/v1`;
    const { routerFunded, direct } = bed.emulator.sandbox!.keys;
    const result = await verifier({ router: down }).verify('router', routerFunded);
    expect(result.status).toBe('unknown');
    expect(result.reason).toMatch(/network/);
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'direct' });
    expect(await verifier().verify('direct', direct)).toMatchObject({
      status: 'unknown',
      reason: /server \(HTTP 500\)/,
    });
    await bed.admin('POST', '/faults', { kind: 'http502_html', service: 'router', path: '/key' });
    const proxied = await verifier().verify('router', routerFunded);
    expect(proxied.status).toBe('unknown');
    await bed.admin('POST', '/faults', { kind: 'echo_key', service: 'router', field: 'title' });
    const echoed = await verifier().verify('router', routerFunded);
    expect(echoed.status).toBe('unknown');
    expect(echoed.reason).not.toContain(routerFunded.slice(9));
  });

  it('a key seen twice is asked once; asking again on purpose asks again', async () => {
    const { routerFunded } = bed.emulator.sandbox!.keys;
    const v = verifier();
    const both = await Promise.all([v.verify('router', routerFunded), v.verify('router', routerFunded)]);
    expect(both.map((r) => r.status)).toEqual(['live', 'live']);
    await v.verify('router', routerFunded);
    expect(bed.emulator.requests).toHaveLength(1);
    expect(v.asked).toBe(1);
    // Kept by fingerprint, and by nothing that holds the key.
    expect(v.known(fingerprintOf(routerFunded))).toEqual(both[0]);
    expect(v.known(routerFunded)).toBeUndefined();
    await v.verify('router', routerFunded, true);
    expect(bed.emulator.requests).toHaveLength(2);
  });

  it('a key of a service with no base URL, or an unknown service, is never sent', async () => {
    const v = new KeyVerifier({ baseUrls: { router: bed.emulator.routerBaseUrl } });
    const { direct } = bed.emulator.sandbox!.keys;
    expect(await v.verify('direct', direct)).toEqual({ status: 'unknown', reason: 'no service to ask' });
    expect(await v.verify('elsewhere', routerKey())).toEqual({ status: 'unknown', reason: 'no service to ask' });
    const admin = await verifier().verify('direct', directKey('admin'));
    expect(admin).toMatchObject({ status: 'unknown', reason: /admin key/ });
    const insecure = new KeyVerifier({ baseUrls: { router: 'http://example.com/api/v1' } });
    expect((await insecure.verify('router', routerKey())).reason).toMatch(/^no service to ask/);
    expect(bed.emulator.requests).toEqual([]);
  });

  it('no more than the set number of requests at once', async () => {
    await bed.admin('POST', '/faults', { kind: 'slow_headers', service: 'router', delayMs: 300, count: 6 });
    const keys = await Promise.all(Array.from({ length: 6 }, () => newRouterKey()));
    const v = new KeyVerifier({ baseUrls: { router: bed.emulator.routerBaseUrl }, concurrency: 2 });
    const started = Date.now();
    const results = await Promise.all(keys.map(({ key }) => v.verify('router', key)));
    expect(results.every((r) => r.status === 'live')).toBe(true);
    // Six requests held 300 ms each, two at a time: three rounds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(850);
  });
});

describe('where a found key is verified', () => {
  it('the official hosts of the services table, whatever OPENROUTER_BASE_URL / OPENAI_BASE_URL say', () => {
    const saved = { router: process.env.OPENROUTER_BASE_URL, direct: process.env.OPENAI_BASE_URL };
    process.env.OPENROUTER_BASE_URL = 'http://127.0.0.1:9/proxy';
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/proxy';
    try {
      expect(officialBaseUrls()).toMatchObject({
        router: SERVICES.router.defaultBaseUrl,
        direct: SERVICES.direct.defaultBaseUrl,
      });
      expect(officialBaseUrls()).toEqual({
        router: 'https://openrouter.ai/api/v1',
        direct: 'https://api.openai.com/v1',
        anthropic: 'https://api.anthropic.com/v1',
        google: 'https://generativelanguage.googleapis.com/v1beta',
        groq: 'https://api.groq.com/openai/v1',
        xai: 'https://api.x.ai/v1',
        huggingface: 'https://huggingface.co/api',
        replicate: 'https://api.replicate.com/v1',
        together: 'https://api.together.xyz/v1',
      });
    } finally {
      for (const [name, value] of [
        ['OPENROUTER_BASE_URL', saved.router],
        ['OPENAI_BASE_URL', saved.direct],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });

  it('each answer says where the key was sent (checkedAt), without credentials; nothing sent, no checkedAt', async () => {
    const { routerFunded } = bed.emulator.sandbox!.keys;
    const withUser = bed.emulator.routerBaseUrl.replace('http://', 'http://user:pass@');
    const v = verifier({ router: withUser });
    expect(await v.verify('router', routerFunded)).toMatchObject({
      status: 'live',
      checkedAt: `${bed.emulator.routerBaseUrl}/key`,
    });
    expect((await verifier().verify('compatible', routerFunded)).checkedAt).toBeUndefined();
  });
});
