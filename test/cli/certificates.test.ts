// `keyward status` and `keyward ask` against real https servers on this machine signed by a private authority made
// at run time: an issuer the machine does not trust, a certificate for another name, one that expired. Each is the
// `certificate` kind in --json, names the host and the problem, says what fixes it (the system store, or
// NODE_EXTRA_CA_CERTS for the CLI), never Node's "--use-system-ca", and is tried once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { type PrivateCa, type TlsFront, leafCertificate, privateCa, tlsFront } from '../emulator/corporateNetwork.ts';
import { cli } from './cliSupport.ts';

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
const status = (front: TlsFront) => [
  'status',
  '--service',
  'router',
  '--base-url',
  front.origin + routerPath(),
  '--json',
];
/** The machine's store stays out (KEYWARD_SYSTEM_CA=0): only what the test trusts counts. */
const env = (extra: Record<string, string> = {}) => ({
  OPENROUTER_API_KEY: bed.emulator.sandbox!.keys.routerFunded,
  KEYWARD_SYSTEM_CA: '0',
  ...extra,
});
type Failure = { ok: false; error: { kind: string; code: string; message: string; action: string } };

describe('keyward and a certificate it does not accept', () => {
  it('status: an issuer this machine does not trust is the certificate kind, with the fix and no Node flag', async () => {
    const run = await cli(status(untrusted), env());
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout) as Failure;
    expect(error.kind).toBe('certificate');
    expect(error.message).toContain(`certificate of localhost:${untrusted.port}`);
    expect(error.message).toContain('no certificate authority this machine trusts issued it');
    expect(error.action).toContain('NODE_EXTRA_CA_CERTS');
    expect(run.stdout + run.stderr).not.toContain('--use-system-ca');
    expect(bed.emulator.requests).toEqual([]);
  });

  it('ask: tried once, with no "trying again" and one connection', async () => {
    const before = untrusted.connections();
    const run = await cli(
      ['ask', '--service', 'router', '--base-url', untrusted.origin + routerPath(), '--model', 'openrouter/free', 'hi'],
      env(),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`certificate of localhost:${untrusted.port}`);
    expect(run.stderr).not.toMatch(/trying again/);
    expect(run.stderr).not.toContain('--use-system-ca');
    expect(untrusted.connections() - before).toBe(1);
  });

  it('with the authority in NODE_EXTRA_CA_CERTS, the same server is trusted', async () => {
    const run = await cli(status(untrusted), env({ NODE_EXTRA_CA_CERTS: ca.caFile }));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('a certificate for another name: names the host and the names it holds', async () => {
    const run = await cli(status(wrongName), env({ NODE_EXTRA_CA_CERTS: ca.caFile }));
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout) as Failure;
    expect(error).toMatchObject({ kind: 'certificate', code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(error.message).toContain(`certificate of localhost:${wrongName.port}`);
    expect(error.message).toContain('it was issued for another name');
    expect(error.message).toContain('service.example');
  });

  it('an expired certificate: says it expired and who must renew it', async () => {
    const run = await cli(status(expired), env({ NODE_EXTRA_CA_CERTS: ca.caFile }));
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout) as Failure;
    expect(error).toMatchObject({ kind: 'certificate', code: 'CERT_HAS_EXPIRED' });
    expect(error.message).toContain('it has expired');
    expect(error.action).toContain(`Whoever runs localhost:${expired.port} must renew its certificate`);
  });
});
