// Signing in to the routing service without pasting a key: OAuth PKCE as its spec (`/auth/keys`) and OAuth guide
// have it. A verifier of 32 random bytes, its S256 challenge, and the sign-in page beside the API (…/api/v1 → …/auth).
// The exchange of the code for a key is codeExchange.ts, which travels with the wire clients (dist/wireClients.js).
import { createHash, randomBytes } from 'node:crypto';
import { checkBaseUrl } from '../urlPolicy.ts';

/** base64url of 32 random bytes: 43 characters, inside RFC 7636's 43–128. */
export function newVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** S256: base64url(SHA-256(verifier)), no padding. */
export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A value of our own for the callback URL: the service passes no `state`, so the callback carries this instead. */
export function newNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** The API's path below the service's origin; its sign-in page is `/auth` beside it. */
const API_PATH = /\/api\/v1\/?$/;

export type SignInPage = { ok: true; url: string } | { ok: false; reason: 'not_api_v1' | 'invalid' | 'insecure' };

/**
 * The sign-in page of the service at `baseUrl` (the routing service's base URL setting, so a test or a company proxy
 * moves both): https://openrouter.ai/api/v1 → https://openrouter.ai/auth. Only https, or http to this machine, as
 * for the key itself: the page hands out a code that becomes a key.
 */
export function signInPage(baseUrl: string): SignInPage {
  const check = checkBaseUrl(baseUrl);
  if (!check.ok) return { ok: false, reason: check.reason };
  const url = check.url;
  if (!API_PATH.test(url.pathname) || url.search || url.hash) return { ok: false, reason: 'not_api_v1' };
  url.pathname = url.pathname.replace(API_PATH, '/auth');
  return { ok: true, url: url.href };
}

/** The page's address with the callback and the challenge: `…/auth?callback_url=…&code_challenge=…&…=S256`. */
export function authUrl(page: string, callbackUrl: string, challenge: string): string {
  const url = new URL(page);
  url.searchParams.set('callback_url', callbackUrl);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.href;
}
