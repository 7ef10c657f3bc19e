// Signing in to the routing service without pasting a key: OAuth PKCE as its spec (`/auth/keys`) and OAuth guide
// have it. A verifier of 32 random bytes, its S256 challenge, the sign-in page beside the API (…/api/v1 → …/auth),
// and the exchange of the code the page sends back for a key. The key comes back wrapped (SecretValue), so nothing
// but the one place that stores it reads it.
import { createHash, randomBytes } from 'node:crypto';
import { classifyRouterResponse } from '../classify.ts';
import { ServiceError } from '../errors.ts';
import { parseObject } from '../json.ts';
import { type HttpResponse, Transport, type TransportOptions } from '../transport.ts';
import { checkBaseUrl } from '../urlPolicy.ts';
import { SecretValue } from './secretValue.ts';

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

const EXCHANGE_ADVICE: Record<number, string> = {
  400: 'The routing service did not take the sign-in request. Sign in again; if it keeps failing, set a key by hand (Set Router Key).',
  403: 'The routing service refused the sign-in code: it was used, has expired, or came from another sign-in. Sign in again.',
};

export interface ExchangeOptions extends TransportOptions {
  /** The routing service's base URL, ending in /api/v1. */
  baseUrl: string;
  code: string;
  verifier: string;
  signal?: AbortSignal | undefined;
}

/** POST /auth/keys: the code and its verifier for a key the user controls. No key is sent: there is none yet. */
export async function exchangeCode(options: ExchangeOptions): Promise<{ key: SecretValue; userId: string | null }> {
  const { baseUrl, code, verifier, signal, ...transportOptions } = options;
  const transport = new Transport('router', baseUrl, transportOptions);
  // The code and the verifier are secrets until spent: masked wherever an answer echoes them.
  const secrets = [code, verifier];
  try {
    let response: HttpResponse;
    let text: string;
    try {
      response = await transport.send({
        method: 'POST',
        path: '/auth/keys',
        key: '',
        body: { code, code_verifier: verifier, code_challenge_method: 'S256' },
        signal,
      });
      text = await response.text();
    } catch (error) {
      throw error instanceof ServiceError ? remade(error, secrets) : error;
    }
    if (response.status >= 400) {
      const error = classifyRouterResponse({
        status: response.status,
        text,
        header: response.header,
        now: Date.now(),
        secrets,
      });
      throw remade(error, secrets, EXCHANGE_ADVICE[response.status]);
    }
    const body = parseObject(text);
    const key = typeof body?.key === 'string' ? body.key.trim() : '';
    if (!key || /\s/.test(key))
      throw new ServiceError({
        kind: 'server',
        service: 'router',
        status: response.status,
        message: 'The routing service answered the sign-in without a key.',
        secrets,
      });
    return { key: new SecretValue(key), userId: typeof body?.user_id === 'string' ? body.user_id : null };
  } finally {
    await transport.close();
  }
}

function remade(error: ServiceError, secrets: string[], action?: string): ServiceError {
  return new ServiceError({
    kind: error.kind,
    service: 'router',
    status: error.status,
    code: error.code,
    message: error.message,
    action: action ?? error.action,
    retryAfterSeconds: error.retryAfterSeconds,
    shouldRetry: error.shouldRetry,
    secrets,
  });
}
