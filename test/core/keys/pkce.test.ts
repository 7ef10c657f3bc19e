// Signing in to the routing service with OAuth PKCE, over HTTP against the emulator's /auth page and /auth/keys. The
// test plays the browser: it opens the page in the emulator's test mode (which answers as the Allow or Deny button
// would) and hands the callback's query to the window's sign-ins, as the URI handler does.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exchangeCode } from '../../../src/core/keys/codeExchange.ts';
import { authUrl, challengeOf, newVerifier, signInPage } from '../../../src/core/keys/pkce.ts';
import { SignInError, SignIns, type SignInAttempt } from '../../../src/core/keys/signInAttempt.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FAST } from '../clientSupport.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', {}));

const CALLBACK = 'vscode://keyward.keyward/signin';
const callbackOf = (attempt: SignInAttempt) => `${CALLBACK}?nonce=${attempt.nonce}`;

/** The browser: opens the page, "clicks" a button, and returns the query the callback URI carries. */
async function browser(url: string, decision: 'allow' | 'deny' = 'allow'): Promise<string> {
  const answer = await fetch(`${url}&emulator_approve=${decision}`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!).search.slice(1);
}

async function failure(promise: Promise<unknown>): Promise<SignInError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignInError);
  return error as SignInError;
}

const options = (extra: { timeoutMs?: number; baseUrl?: string } = {}) => ({
  baseUrl: bed.emulator.routerBaseUrl,
  ...FAST,
  exchange: exchangeCode,
  ...extra,
});

describe('PKCE parts', () => {
  it('makes a 43-character base64url verifier of 32 random bytes, and its S256 challenge', () => {
    const a = newVerifier();
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newVerifier()).not.toBe(a);
    // RFC 7636 appendix B.
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('finds the sign-in page beside the API, https or loopback only', () => {
    expect(signInPage('https://openrouter.ai/api/v1')).toEqual({ ok: true, url: 'https://openrouter.ai/auth' });
    expect(signInPage('https://gateway.example/or/api/v1/')).toEqual({
      ok: true,
      url: 'https://gateway.example/or/auth',
    });
    expect(signInPage(bed.emulator.routerBaseUrl)).toEqual({ ok: true, url: `${bed.emulator.url}/router/auth` });
    expect(signInPage('http://openrouter.example/api/v1')).toEqual({ ok: false, reason: 'insecure' });
    expect(signInPage('https://openrouter.example/v1')).toEqual({ ok: false, reason: 'not_api_v1' });
  });

  it('puts the callback, the challenge and S256 in the page address, never the verifier', () => {
    const url = new URL(authUrl('https://openrouter.ai/auth', `${CALLBACK}?nonce=n`, 'CH'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      callback_url: `${CALLBACK}?nonce=n`,
      code_challenge: 'CH',
      code_challenge_method: 'S256',
    });
  });
});

describe('a sign-in attempt', () => {
  it('signs in: the browser approves, the code is exchanged once, and the key works', async () => {
    const signIns = new SignIns();
    const attempt = signIns.start(options());
    const url = attempt.authUrl(callbackOf(attempt));
    expect(url.startsWith(`${bed.emulator.url}/router/auth?`)).toBe(true);
    const query = await browser(url);
    await signIns.callback(query);
    const key = await attempt.result;
    expect(String(key)).not.toBe(key.reveal());
    expect((await bed.router('/key', key.reveal())).status).toBe(200);
    const exchanges = bed.emulator.requests.filter((r) => r.path === '/auth/keys');
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.key).toBeUndefined();
    // The verifier travelled only in the exchange: the page's address held its hash.
    expect(url).not.toContain(String((exchanges[0] as { body?: { code_verifier?: string } }).body?.code_verifier));
  });

  it('refuses a callback this window did not start, and the waiting attempt still signs in', async () => {
    const signIns = new SignIns();
    const attempt = signIns.start(options());
    const url = attempt.authUrl(callbackOf(attempt));
    // A callback of another window's (or someone else's) sign-in: a nonce this window never made.
    const other = new SignIns().start(options());
    const foreign = await browser(other.authUrl(callbackOf(other)));
    expect((await failure(signIns.callback(foreign))).reason).toBe('not_started_here');
    expect((await failure(signIns.callback('code=abc'))).reason).toBe('not_started_here');
    other.cancel();
    await signIns.callback(await browser(url));
    await expect(attempt.result).resolves.toBeDefined();
    expect(bed.emulator.requests.filter((r) => r.path === '/auth/keys')).toHaveLength(1);
  });

  it('refuses a code that comes back twice without sending it again', async () => {
    const signIns = new SignIns();
    const attempt = signIns.start(options());
    const query = await browser(attempt.authUrl(callbackOf(attempt)));
    const [first, second] = await Promise.allSettled([signIns.callback(query), signIns.callback(query)]);
    expect(first.status).toBe('fulfilled');
    expect(((second as PromiseRejectedResult).reason as SignInError).reason).toBe('code_reused');
    expect((await failure(signIns.callback(query))).reason).toBe('code_reused');
    await attempt.result;
    expect(bed.emulator.requests.filter((r) => r.path === '/auth/keys')).toHaveLength(1);
  });

  it('times out, and a callback after that is refused as ended', async () => {
    const signIns = new SignIns();
    const attempt = signIns.start(options({ timeoutMs: 50 }));
    const query = await browser(attempt.authUrl(callbackOf(attempt)));
    expect((await failure(attempt.result)).reason).toBe('timeout');
    expect((await failure(signIns.callback(query))).reason).toBe('ended');
    expect(bed.emulator.requests.filter((r) => r.path === '/auth/keys')).toHaveLength(0);
  });

  it('is cancelled, by the person or by a new attempt, and the old callback is refused', async () => {
    const signIns = new SignIns();
    const first = signIns.start(options());
    const firstQuery = await browser(first.authUrl(callbackOf(first)));
    const second = signIns.start(options());
    expect((await failure(first.result)).reason).toBe('cancelled');
    expect((await failure(signIns.callback(firstQuery))).reason).toBe('ended');
    signIns.cancel();
    expect((await failure(second.result)).reason).toBe('cancelled');
    expect(bed.emulator.requests.filter((r) => r.path === '/auth/keys')).toHaveLength(0);
  });

  it('ends as denied when the person chose Deny', async () => {
    const signIns = new SignIns();
    const attempt = signIns.start(options());
    await signIns.callback(await browser(attempt.authUrl(callbackOf(attempt)), 'deny'));
    expect((await failure(attempt.result)).reason).toBe('denied');
  });

  it('ends as refused when the service refuses the code, its 403 named and the code masked', async () => {
    const signIns = new SignIns();
    const attempt = signIns.start(options());
    const query = new URLSearchParams(await browser(attempt.authUrl(callbackOf(attempt))));
    const code = query.get('code')!;
    // The code is spent elsewhere first (as a second window or an intercepted redirect would).
    await bed.router('/auth/keys', undefined, { body: { code } });
    await signIns.callback(query.toString());
    const error = await failure(attempt.result);
    expect(error.reason).toBe('refused');
    expect(error.serviceError?.status).toBe(403);
    expect(error.message).toContain('Invalid code or code_verifier');
    expect(error.serviceError?.action).toMatch(/Sign in again/);
  });

  it('ends as a network failure when the service cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const signIns = new SignIns();
    const attempt = signIns.start(options({ baseUrl: `http://127.0.0.1:${port}/router/api/v1` }));
    attempt.authUrl(callbackOf(attempt));
    await signIns.callback(`nonce=${attempt.nonce}&code=c`);
    const error = await failure(attempt.result);
    expect(error.reason).toBe('network');
    expect(error.message).not.toContain('code=c');
  });

  it('gives no page for a base URL that is not https or not the API, and ends', async () => {
    const attempt = new SignIns().start(options({ baseUrl: 'http://openrouter.example/api/v1' }));
    expect(() => attempt.authUrl(CALLBACK)).toThrow(/not https/);
    expect((await failure(attempt.result)).reason).toBe('no_page');
  });
});
