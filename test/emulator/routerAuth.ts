// The routing service's OAuth PKCE sign-in (specs/openrouter-openapi.yaml, `/auth/keys`; the page at `/auth` is not in
// the spec, it is the login-and-approve page the service's OAuth guide sends people to):
//   GET  /router/auth?callback_url=…&code_challenge=…&code_challenge_method=S256|plain   the approve page
//   POST /router/auth/decide                                                              Allow or Deny from that page
//   POST /router/api/v1/auth/keys {code, code_verifier?, code_challenge_method?}          the exchange → {key, user_id}
//
// What the spec leaves open, from the service's own guide (openrouter.ai/docs/use-cases/oauth-pkce, "Error Codes"):
// 400 "Invalid code_challenge_method" when the method differs from the one the page was given, 403 "Invalid code or
// code_verifier" for a code that is unknown, used, expired or whose verifier does not match. Bodies are the spec's
// BadRequestResponse / ForbiddenResponse shape, {error: {code, message}}. The exchange needs no key (the guide's own
// call sends none), although the spec's global bearer security formally covers the path.
//
// A code is single-use: any exchange that names it burns it, a failed one too, so a verifier cannot be guessed over
// several tries. It lives ten minutes, the longest RFC 6749 §4.1.2 recommends (the spec names no lifetime).
//
// Deny: the spec and the guide are silent. Public clients of the real service (OpenRouterLabs/spawn PR #2039,
// openclaw/openclaw issue #105447) handle a denial as a redirect to callback_url with `error=access_denied`, the
// RFC 6749 §4.1.2.1 form, so that is what the page does; whether the real one adds error_description is not known.
//
// Test mode: `emulator_approve=allow|deny` on the page's query answers at once with the redirect the button would
// give, so a test without a browser signs in through the same codes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { BodyError, readBody, readJsonObject, sendJson } from './http.ts';
import type { RouterState } from './routerState.ts';

export const AUTH_PAGE_PATH = '/router/auth';
/** How long a code may wait for its exchange. */
export const AUTH_CODE_TTL_MS = 10 * 60_000;

type Method = 'S256' | 'plain';

interface PendingCode {
  challenge: string | null;
  method: Method | null;
  createdAt: number;
  /** The account the person "logged in" as: a fresh one per approval unless the test names one. */
  accountId: string | null;
}

export interface AuthContext {
  state: RouterState;
  now: () => number;
}

/** Codes per state: a reset of the emulator makes a new RouterState, and its codes go with the old one. */
const CODES = new WeakMap<RouterState, Map<string, PendingCode>>();
const codesOf = (state: RouterState) => {
  let codes = CODES.get(state);
  if (!codes) CODES.set(state, (codes = new Map()));
  return codes;
};

function routerError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { code: status, message } });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface PageRequest {
  callbackUrl: URL;
  challenge: string | null;
  method: Method | null;
  accountId: string | null;
}

/** The page's parameters, or why they cannot be used (shown as a page, as the service shows a bad link). */
function readPageRequest(params: URLSearchParams): PageRequest | string {
  const raw = params.get('callback_url');
  if (!raw) return 'callback_url is required.';
  let callbackUrl: URL;
  try {
    callbackUrl = new URL(raw);
  } catch {
    return 'callback_url is not a valid URL.';
  }
  if (/^(javascript|data|file):$/i.test(callbackUrl.protocol)) return 'callback_url must be an app or web address.';
  const challenge = params.get('code_challenge') || null;
  const rawMethod = params.get('code_challenge_method');
  if (rawMethod !== null && rawMethod !== 'S256' && rawMethod !== 'plain')
    return 'code_challenge_method must be S256 or plain.';
  // RFC 7636 §4.3: a challenge without a method is plain.
  const method: Method | null = challenge ? ((rawMethod as Method | null) ?? 'plain') : null;
  return { callbackUrl, challenge, method, accountId: params.get('emulator_account') || null };
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1b1b1b}
button{font-size:1rem;padding:.5rem 1.5rem;margin-right:.75rem;border-radius:4px;border:1px solid #555;cursor:pointer}
#allow{background:#1a5fb4;color:#fff;border-color:#1a5fb4}code{word-break:break-all}</style></head>
<body><main>${body}</main></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

/** The buttons post relative to the page: behind a path proxy (code-server's /proxy/<port>/) they still reach it. */
function approvePage(res: ServerResponse, request: PageRequest, query: string): void {
  const where = request.callbackUrl.protocol.startsWith('http')
    ? request.callbackUrl.host
    : `${request.callbackUrl.protocol}//${request.callbackUrl.host}`;
  page(
    res,
    200,
    'Authorize an application — routing service',
    `<h1>Authorize an application</h1>
<p>An application at <code>${escapeHtml(where)}</code> asks for an API key to your routing service account.</p>
<p>It can spend your credits with that key until you delete it or set a limit on your keys page.</p>
<form method="post" action="auth/decide?${escapeHtml(query)}">
<button id="allow" type="submit" name="decision" value="allow">Allow</button>
<button id="deny" type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** Where the browser goes after a decision: the callback with a fresh code, or with the denial. */
function decide(ctx: AuthContext, request: PageRequest, allow: boolean): string {
  const target = new URL(request.callbackUrl.href);
  if (!allow) {
    target.searchParams.set('error', 'access_denied');
    return target.href;
  }
  const code = randomBytes(24).toString('base64url');
  codesOf(ctx.state).set(code, {
    challenge: request.challenge,
    method: request.method,
    createdAt: ctx.now(),
    accountId: request.accountId,
  });
  target.searchParams.set('code', code);
  return target.href;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'content-length': '0' });
  res.end();
}

/** GET /router/auth (the page) and POST /router/auth/decide (its buttons). */
export async function handleAuthPage(ctx: AuthContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const request = readPageRequest(url.searchParams);
  if (typeof request === 'string')
    return page(res, 400, 'Invalid request', `<h1>Invalid request</h1><p>${request}</p>`);
  if (url.pathname === AUTH_PAGE_PATH && req.method === 'GET') {
    const auto = url.searchParams.get('emulator_approve');
    if (auto === 'allow' || auto === 'deny') return redirect(res, decide(ctx, request, auto === 'allow'));
    return approvePage(res, request, url.searchParams.toString());
  }
  if (url.pathname === `${AUTH_PAGE_PATH}/decide` && req.method === 'POST') {
    const form = new URLSearchParams((await readBody(req, 10_000)).toString('utf8'));
    const decision = form.get('decision');
    if (decision !== 'allow' && decision !== 'deny')
      return page(res, 400, 'Invalid request', '<h1>Invalid request</h1><p>Choose Allow or Deny.</p>');
    return redirect(res, decide(ctx, request, decision === 'allow'));
  }
  return page(res, 404, 'Not found', '<h1>Not found</h1>');
}

function verifierMatches(pending: PendingCode, verifier: string | undefined): boolean {
  if (pending.challenge === null) return true;
  if (!verifier) return false;
  const made = pending.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return made === pending.challenge;
}

/** POST /auth/keys: a code from the page and its verifier → a new key on the account that approved. */
export async function exchangeAuthCode(ctx: AuthContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return routerError(res, 405, `Method ${req.method ?? ''} not allowed`);
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(req);
  } catch (error) {
    if (error instanceof BodyError) return routerError(res, 400, error.message);
    throw error;
  }
  const { code, code_verifier: verifier, code_challenge_method: method } = body;
  if (typeof code !== 'string' || code === '') return routerError(res, 400, 'Invalid request parameters');
  if (verifier !== undefined && typeof verifier !== 'string')
    return routerError(res, 400, 'Invalid request parameters');
  if (method !== undefined && method !== null && method !== 'S256' && method !== 'plain')
    return routerError(res, 400, 'Invalid code_challenge_method');
  const codes = codesOf(ctx.state);
  const pending = codes.get(code);
  codes.delete(code);
  if (!pending || ctx.now() - pending.createdAt > AUTH_CODE_TTL_MS)
    return routerError(res, 403, 'Invalid code or code_verifier');
  if (pending.challenge !== null && (method ?? null) !== pending.method)
    return routerError(res, 400, 'Invalid code_challenge_method');
  if (!verifierMatches(pending, verifier)) return routerError(res, 403, 'Invalid code or code_verifier');
  const accountId =
    pending.accountId !== null && ctx.state.accounts.has(pending.accountId)
      ? pending.accountId
      : ctx.state.createAccount('Signed in with OAuth').id;
  const key = ctx.state.createKey({ accountId, name: 'OAuth sign-in' });
  sendJson(res, 200, { key: key.value, user_id: `user_${accountId}` });
}
