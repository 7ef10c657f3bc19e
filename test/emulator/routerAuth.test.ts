// The emulator's OAuth PKCE sign-in: the approve page, its buttons, and the code exchange with the statuses and
// bodies of the spec and the service's guide.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', {}));

const CALLBACK = 'vscode://keyward.keyward/signin?nonce=n1';
const verifierAndChallenge = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const pageUrl = (params: Record<string, string>) =>
  `${bed.emulator.url}/router/auth?${new URLSearchParams({ callback_url: CALLBACK, ...params }).toString()}`;

/** Follows nothing: the Location the page (or a button) sends the browser to. */
async function location(response: Promise<Response>): Promise<URL> {
  const answer = await response;
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

const click = (query: Record<string, string>, decision: string) =>
  location(
    fetch(`${bed.emulator.url}/router/auth/decide?${new URLSearchParams({ callback_url: CALLBACK, ...query })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `decision=${decision}`,
      redirect: 'manual',
    }),
  );

const exchange = (body: unknown) => bed.router('/auth/keys', undefined, { body });

async function approvedCode(challenge: string, method = 'S256'): Promise<string> {
  const back = await location(
    fetch(pageUrl({ code_challenge: challenge, code_challenge_method: method, emulator_approve: 'allow' }), {
      redirect: 'manual',
    }),
  );
  return back.searchParams.get('code')!;
}

describe('emulator: the /auth page', () => {
  it('shows a heading, who asks, and Allow and Deny buttons that post back', async () => {
    const { challenge } = verifierAndChallenge();
    const answer = await fetch(pageUrl({ code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    const html = await answer.text();
    expect(html).toContain('<h1>Authorize an application</h1>');
    expect(html).toContain('vscode://keyward.keyward');
    expect(html).toMatch(/<button id="allow"[^>]*value="allow">Allow<\/button>/);
    expect(html).toMatch(/<button id="deny"[^>]*value="deny">Deny<\/button>/);
    expect(html).toContain('method="post" action="auth/decide?');
  });

  it('Allow sends the browser to the callback with a code, its own query kept', async () => {
    const { challenge } = verifierAndChallenge();
    const back = await click({ code_challenge: challenge, code_challenge_method: 'S256' }, 'allow');
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe('vscode://keyward.keyward/signin');
    expect(back.searchParams.get('nonce')).toBe('n1');
    expect(back.searchParams.get('code')).toMatch(/^[\w-]{20,}$/);
  });

  it('Deny sends the browser to the callback with error=access_denied and no code', async () => {
    const back = await click({ code_challenge: 'c', code_challenge_method: 'S256' }, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('nonce')).toBe('n1');
  });

  it('refuses a page without a callback or with an unknown method, as a page', async () => {
    const none = await fetch(`${bed.emulator.url}/router/auth?code_challenge=x`);
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('callback_url is required');
    const bad = await fetch(pageUrl({ code_challenge: 'x', code_challenge_method: 'S512' }));
    expect(bad.status).toBe(400);
  });
});

describe('emulator: POST /auth/keys', () => {
  it('exchanges a code and its verifier for a working key on a fresh account, once', async () => {
    const { verifier, challenge } = verifierAndChallenge();
    const code = await approvedCode(challenge);
    const answer = await exchange({ code, code_verifier: verifier, code_challenge_method: 'S256' });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { key: string; user_id: string };
    expect(Object.keys(body).sort()).toEqual(['key', 'user_id']);
    expect(body.user_id).toMatch(/^user_/);
    expect((await bed.router('/key', body.key)).status).toBe(200);
    // The exchange itself carried no key.
    expect(bed.emulator.requests.find((r) => r.path === '/auth/keys')?.key).toBeUndefined();

    const again = await exchange({ code, code_verifier: verifier, code_challenge_method: 'S256' });
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ error: { code: 403, message: 'Invalid code or code_verifier' } });
  });

  it('refuses a wrong verifier with 403, and the code is spent by the try', async () => {
    const { verifier, challenge } = verifierAndChallenge();
    const code = await approvedCode(challenge);
    const wrong = await exchange({ code, code_verifier: verifier + 'x', code_challenge_method: 'S256' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: { code: 403, message: 'Invalid code or code_verifier' } });
    const right = await exchange({ code, code_verifier: verifier, code_challenge_method: 'S256' });
    expect(right.status).toBe(403);
  });

  it('refuses an unknown code with 403 and an expired one after ten minutes', async () => {
    const unknown = await exchange({ code: 'nope', code_verifier: 'v', code_challenge_method: 'S256' });
    expect(unknown.status).toBe(403);
    const { verifier, challenge } = verifierAndChallenge();
    const code = await approvedCode(challenge);
    await bed.admin('POST', '/clock', { advance: '601s' });
    const late = await exchange({ code, code_verifier: verifier, code_challenge_method: 'S256' });
    expect(late.status).toBe(403);
  });

  it('refuses a method other than the page was given, or none of the spec, with 400', async () => {
    const { verifier, challenge } = verifierAndChallenge();
    const unknown = await exchange({ code: 'c', code_verifier: verifier, code_challenge_method: 'S512' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: { code: 400, message: 'Invalid code_challenge_method' } });
    const code = await approvedCode(challenge);
    const mismatch = await exchange({ code, code_verifier: verifier, code_challenge_method: 'plain' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({ error: { code: 400, message: 'Invalid code_challenge_method' } });
  });

  it('takes the plain method when the page was given plain', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const code = await approvedCode(verifier, 'plain');
    const answer = await exchange({ code, code_verifier: verifier, code_challenge_method: 'plain' });
    expect(answer.status).toBe(200);
  });

  it('refuses a body without a code with 400, and a GET with 405', async () => {
    const missing = await exchange({ code_verifier: 'v' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: { code: 400, message: 'Invalid request parameters' } });
    expect((await bed.router('/auth/keys', undefined)).status).toBe(405);
  });
});
