// The one request that asks another AI provider about a key found in a file (the row of providerChecks.ts): a GET
// with the key only in the header the provider reads, no redirect followed, a bounded wait and a bounded read,
// through the configured proxy. Whatever the provider or the network says reaches the report only redacted.
import type { Dispatcher } from 'undici';
import type { ProviderId } from '../../shared/keyShapes.ts';
import type { ProxyConfig } from '../proxyConfig.ts';
import { proxyDispatcher } from '../proxyDispatcher.ts';
import { redactSecrets } from '../redact.ts';
import { loadUndici } from '../transport.ts';
import { endpointUrl } from '../urlPolicy.ts';
import { type ProviderCheck, type ProviderRequest, providerMessage } from './providerChecks.ts';
import { PROVIDERS } from './providerRules.ts';
import type { Verification } from './verification.ts';
import { checkedUrl } from './verifyHosts.ts';

/** A model list or a "who am I" is small; past this the answer is not one the check knows. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const NETWORK_CODES = /^(?:E[A-Z]+|UND_ERR_[A-Z_]+)$/;
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The answer's body, up to MAX_ANSWER_BYTES; undefined past it. */
async function readBounded(body: Dispatcher.ResponseData['body']): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      body.on('error', () => undefined).destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's words, or the start of what it sent, for a reason: redacted and short. */
function said(body: unknown, text: string, key: string): string {
  const words = (providerMessage(body) || text).replace(/\s+/g, ' ').trim().slice(0, 160);
  return words ? `: ${redactSecrets(words, [key])}` : '';
}

interface Answer {
  status: number;
  text: string | undefined;
}

async function send(url: string, request: ProviderRequest, timeoutMs: number, proxy: ProxyConfig): Promise<Answer> {
  const undici = await loadUndici();
  const dispatcher = proxyDispatcher(undici, proxy, { connectTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs });
  try {
    const response = await undici.request(url, {
      method: 'GET',
      headers: { ...request.headers, accept: 'application/json' },
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // undici's request follows no redirect: a 3xx is an answer, and the key goes nowhere else.
    if (response.statusCode >= 300 && response.statusCode < 400) {
      response.body.on('error', () => undefined).destroy();
      return { status: response.statusCode, text: '' };
    }
    return { status: response.statusCode, text: await readBounded(response.body) };
  } finally {
    await dispatcher.close();
  }
}

/** Asks one provider about one key; never throws. */
export async function askProvider(
  provider: ProviderId,
  check: ProviderCheck,
  key: string,
  baseUrl: string,
  timeoutMs: number,
  proxy: ProxyConfig,
): Promise<Verification> {
  const name = PROVIDERS[provider].title;
  const request = check.request(key);
  const checkedAt = checkedUrl(baseUrl, request.path);
  const host = new URL(checkedAt).host;
  let answer: Answer;
  try {
    answer = await send(endpointUrl(baseUrl, request.path), request, timeoutMs, proxy);
  } catch (error) {
    const code = errorCode(error);
    const reason =
      code && TIMEOUT_CODES.has(code)
        ? `${host} did not answer within ${Math.round(timeoutMs / 100) / 10} s (${code})`
        : `could not reach ${host} (${code && NETWORK_CODES.test(code) ? code : String((error as Error)?.message ?? error)})`;
    return { status: 'unknown', reason: redactSecrets(reason, [key]), checkedAt };
  }
  const { status, text } = answer;
  if (status >= 300 && status < 400)
    return {
      status: 'unknown',
      reason: `${name} redirected (HTTP ${status}); Keyward does not follow a redirect with a key`,
      checkedAt,
    };
  if (text === undefined)
    return { status: 'unknown', reason: `${name} sent an answer over 1 MiB (HTTP ${status})`, checkedAt };
  const body = parse(text);
  const verdict = check.judge(status, body, key);
  if (verdict?.status === 'live')
    return { status: 'live', reason: `${name} accepted the key (${request.label})`, checkedAt };
  if (verdict?.status === 'inactive')
    return {
      status: 'inactive',
      reason: redactSecrets(
        verdict.reason ??
          `${name} refused the key (HTTP ${status}${said(body, text, key)}): revoked, expired or never valid`,
        [key],
      ),
      checkedAt,
    };
  return {
    status: 'unknown',
    reason: `${name} gave an answer that says nothing about the key (HTTP ${status}${said(body, text, key)})`,
    checkedAt,
  };
}
