// The exchange of a sign-in code for a key (POST /auth/keys of the routing service's spec). It speaks HTTP through the
// transport, so it is loaded with the wire clients (wire/wireClients.ts re-exports it; dist/wireClients.js), not with
// the command that signs in. The key comes back wrapped (SecretValue): nothing but the one place that stores it
// reads it.
import { classifyRouterResponse } from '../classify.ts';
import { ServiceError } from '../errors.ts';
import { parseObject } from '../json.ts';
import { type HttpResponse, Transport, type TransportOptions } from '../transport.ts';
import { SecretValue } from './secretValue.ts';

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
