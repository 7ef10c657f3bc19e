// A refused certificate, through the transport to real https servers on this machine, each signed by a private
// authority made at run time: an issuer nobody trusts, a certificate for another name, one that expired. Each is its
// own error kind naming the host and what is wrong, says what fixes it, is never sent again, and never passes on
// Node's advice to run it with --use-system-ca (no VS Code user can).
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsClient } from '../../src/core/wire/chatCompletionsClient.ts';
import { DEFAULT_PROXY } from '../../src/core/proxyConfig.ts';
import { DEFAULT_RETRY_POLICY } from '../../src/core/retryPolicy.ts';
import { ServiceError } from '../../src/core/errors.ts';
import { Transport } from '../../src/core/transport.ts';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { type PrivateCa, type TlsFront, leafCertificate, privateCa, tlsFront } from '../emulator/corporateNetwork.ts';
import { routerDescriptor } from '../../src/core/services/routerDescriptor.ts';

let bed: TestBed;
let ca: PrivateCa;
let untrusted: TlsFront;
let wrongName: TlsFront;
let expired: TlsFront;

beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
  ca = await privateCa();
  const port = Number(new URL(bed.emulator.url).port);
  untrusted = await tlsFront(ca, port);
  wrongName = await tlsFront(ca, port, await leafCertificate(ca, { names: ['service.example'] }));
  expired = await tlsFront(ca, port, await leafCertificate(ca, { expired: true }));
}, 60_000);
afterAll(async () => {
  await Promise.all([untrusted, wrongName, expired].map((front) => front.close()));
  ca.dispose();
  await bed.close();
});

const routerPath = () => new URL(bed.emulator.routerBaseUrl).pathname;
const key = () => bed.emulator.sandbox!.keys.routerFunded;
// The machine's own store stays out: only what the test trusts counts.
const noSystemStore = { ...DEFAULT_PROXY, systemCertificates: false };

async function failure(front: TlsFront, trustTheAuthority: boolean): Promise<ServiceError> {
  const transport = new Transport('router', front.origin + routerPath(), {
    connectTimeoutMs: 5000,
    idleTimeoutMs: 5000,
    proxy: noSystemStore,
    // The authority trusted as the system store would, so that the name or the dates are what fails.
    ...(trustTheAuthority ? { dispatcher: new Agent({ connect: { ca: [ca.caPem] } }) } : {}),
  });
  try {
    await transport.send({ method: 'GET', path: 'key', key: key() });
  } catch (error) {
    return error as ServiceError;
  } finally {
    await transport.close();
  }
  throw new Error('the request went through');
}

describe('a refused certificate', () => {
  it('from an issuer this machine does not trust: names the host, the store to add it to, and the CLI variable', async () => {
    const error = await failure(untrusted, false);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.kind).toBe('certificate');
    expect(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']).toContain(error.code);
    expect(error.message).toContain(`certificate of localhost:${untrusted.port}`);
    expect(error.message).toContain('no certificate authority this machine trusts issued it');
    expect(error.action).toMatch(/http\.systemCertificates is off/);
    expect(error.action).toContain('NODE_EXTRA_CA_CERTS');
    expect(error.message + error.action).not.toContain('--use-system-ca');
  });

  it('with the system store read: add the authority there and reload the window', async () => {
    const transport = new Transport('router', untrusted.origin + routerPath(), {
      connectTimeoutMs: 5000,
      idleTimeoutMs: 5000,
      proxy: DEFAULT_PROXY,
    });
    const error = (await transport
      .send({ method: 'GET', path: 'key', key: key() })
      .catch((e: unknown) => e)) as ServiceError;
    await transport.close();
    expect(error.kind).toBe('certificate');
    expect(error.action).toMatch(/Add the certificate authority that issued it to the system's certificate store/);
    expect(error.action).toMatch(/reload the window/);
    expect(error.action).toContain('NODE_EXTRA_CA_CERTS');
  });

  it('issued for another name: names the host and the names the certificate holds', async () => {
    const error = await failure(wrongName, true);
    expect(error.kind).toBe('certificate');
    expect(error.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(error.message).toContain(`certificate of localhost:${wrongName.port}`);
    expect(error.message).toContain('it was issued for another name');
    expect(error.message).toContain('service.example');
    expect(error.action).toMatch(/base URL/);
  });

  it('expired: says so, and who must renew it', async () => {
    const error = await failure(expired, true);
    expect(error.kind).toBe('certificate');
    expect(error.code).toBe('CERT_HAS_EXPIRED');
    expect(error.message).toContain(`certificate of localhost:${expired.port}`);
    expect(error.message).toContain('it has expired');
    expect(error.action).toContain(`Whoever runs localhost:${expired.port} must renew its certificate`);
  });

  it('is tried once: a prompt makes one connection, not a retry per backoff step', async () => {
    const client = new ChatCompletionsClient({
      profile: routerDescriptor,
      baseUrl: untrusted.origin + routerPath(),
      key: key(),
      connectTimeoutMs: 5000,
      idleTimeoutMs: 5000,
      proxy: noSystemStore,
      retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const before = untrusted.connections();
    const retries: unknown[] = [];
    const prompt = client
      .chat(
        { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
        { onRetry: (n) => retries.push(n) },
      )
      .collect();
    await expect(prompt).rejects.toMatchObject({ kind: 'certificate' });
    await client.close();
    expect(retries).toEqual([]);
    expect(untrusted.connections() - before).toBe(1);
  });
});
