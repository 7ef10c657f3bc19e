// Keys are generated at run time and never written into the repository, so the
// project's own key scan stays clean.
import { randomBytes } from 'node:crypto';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** base64 of "OpenAI": the fixed infix of the direct service's keys. */
export const DIRECT_KEY_INFIX = ['T3Bl', 'bkFJ'].join('');
export const ROUTER_KEY_PREFIX = ['sk', 'or', 'v1', ''].join('-');

function randomFrom(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

export function routerKey(): string {
  return ROUTER_KEY_PREFIX + randomBytes(32).toString('hex');
}

export type DirectKeyKind = 'proj' | 'svcacct' | 'admin' | 'legacy';

export function directKey(kind: DirectKeyKind = 'proj', segment: 74 | 58 = kind === 'admin' ? 58 : 74): string {
  if (kind === 'legacy') return `sk-${randomFrom(ALNUM, 20)}${DIRECT_KEY_INFIX}${randomFrom(ALNUM, 20)}`;
  return `sk-${kind}-${randomFrom(BASE64URL, segment)}${DIRECT_KEY_INFIX}${randomFrom(BASE64URL, segment)}`;
}

/**
 * A routing key's `hash` in the key management API: "Unique hash identifier for the API key" (the spec says no
 * more), so here 64 random hex characters as in its examples, unrelated to the key's value.
 */
export function newKeyHash(): string {
  return randomBytes(32).toString('hex');
}

/** The truncated form the routing service shows as a key's label. */
export function routerKeyLabel(key: string): string {
  return `${key.slice(0, 11)}...${key.slice(-3)}`;
}

/** The masked form the direct service echoes in a 401 message. */
export function directKeyEcho(key: string): string {
  const dash = key.indexOf('-', 3);
  const head = dash > 0 && dash < 12 ? key.slice(0, dash + 1) : key.slice(0, 3);
  return `${head}****...${key.slice(-4)}`;
}

const LETTERS = ALNUM.slice(0, 52);

/**
 * A key of another AI provider, of the shape each rule documents (sources in
 * src/core/scan/providerRules.ts), generated so no key string is committed.
 */
export function providerKey(rule: ProviderKeyRule): string {
  switch (rule) {
    case 'anthropic-key':
      return `sk-ant-api03-${randomFrom(BASE64URL, 93)}AA`;
    case 'anthropic-admin-key':
      return `sk-ant-admin01-${randomFrom(BASE64URL, 93)}AA`;
    case 'google-api-key':
      return `AIzaSy${randomFrom(BASE64URL, 33)}`;
    case 'groq-key':
      return `gsk_${randomFrom(ALNUM, 52)}`;
    case 'xai-key':
      return `xai-${randomFrom(ALNUM, 80)}`;
    case 'huggingface-token':
      // Both letter cases, as every issued token has (a one-case run of 34 letters is taken for an identifier).
      return `hf_Aa${randomFrom(LETTERS, 32)}`;
    case 'perplexity-key':
      return `pplx-${randomFrom(ALNUM, 48)}`;
    case 'replicate-token':
      return `r8_${randomFrom(ALNUM, 37)}`;
    case 'together-key':
      return `tgp_v1_${randomFrom(BASE64URL, 43)}`;
    case 'fireworks-key':
      return `fw_Aa1${randomFrom(ALNUM, 21)}`;
  }
}

export const PROVIDER_KEY_RULES = [
  'anthropic-key',
  'anthropic-admin-key',
  'google-api-key',
  'groq-key',
  'xai-key',
  'huggingface-token',
  'perplexity-key',
  'replicate-token',
  'together-key',
  'fireworks-key',
] as const;

export type ProviderKeyRule = (typeof PROVIDER_KEY_RULES)[number];
