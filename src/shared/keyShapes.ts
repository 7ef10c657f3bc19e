// The one definition of what a key looks like. The Set Key check (core/keys/keyFormats.ts),
// the scanner (core/scan/rules.ts), the redactor (core/redact.ts) and the panel's
// persist filter all derive from here; shared, so the browser code masks the same
// shapes as the host. The shapes follow the wire facts; other AI providers' keys
// (PROVIDER_KEY_SHAPES) follow their documentation and the peers' rules, cited in
// core/scan/providerRules.ts.
import type { ServiceId } from './serviceIds.ts';

/** Every routing service key starts with this, followed by 64 lowercase hex characters. */
export const ROUTER_PREFIX = 'sk-or-v1-';
export const ROUTER_KEY_LENGTH = ROUTER_PREFIX.length + 64;
export const ROUTER_KEY = new RegExp(`^${ROUTER_PREFIX}[0-9a-f]{64}$`);

/** Every direct service key carries this infix (base64 of "OpenAI") in its body. */
export const DIRECT_INFIX = 'T3BlbkFJ';
const SEGMENT = '(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})';
const BODY = '[A-Za-z0-9_-]+';

/** Project, service-account and admin keys of the documented lengths. */
export const DIRECT_KEY = new RegExp(`^sk-(?:proj|svcacct|admin)-${SEGMENT}${DIRECT_INFIX}${SEGMENT}$`);
/** Legacy user keys: 20 characters, the infix, 20 characters. */
export const DIRECT_LEGACY_KEY = new RegExp(`^sk-[A-Za-z0-9]{20}${DIRECT_INFIX}[A-Za-z0-9]{20}$`);

/** The prefixes a direct key can carry after `sk-` (`service-` is the older spelling of `svcacct-`). */
export type DirectPrefix = 'proj' | 'svcacct' | 'admin' | 'service';
export const DIRECT_PREFIXES: readonly DirectPrefix[] = ['proj', 'svcacct', 'admin', 'service'];

/**
 * Older or unusual direct shapes: one of `prefixes`, then the infix somewhere in the body;
 * with `bare`, also a prefix-less user key of any length. The Set Key check and the scanner
 * each take the tier they need (see their call sites): the check accepts admin keys so it
 * can refuse them by name, the scanner's medium tier takes bare user keys.
 */
export function looseDirectKey(prefixes: readonly DirectPrefix[], bare: boolean): RegExp {
  const prefixed = `(?:${prefixes.join('|')})-${BODY}`;
  const head = bare ? `(?:${prefixed}|[A-Za-z0-9]+)` : prefixed;
  return new RegExp(`^sk-${head}${DIRECT_INFIX}${BODY}$`);
}

/** `sk-proj-` for a project key, `sk-` for a legacy one: what precedes the random part. */
export const DIRECT_PREFIX_RE = new RegExp(`^sk-(?:${DIRECT_PREFIXES.join('-|')}-)?`);

/** The other AI providers whose keys the scanner and the redactor know (not services Keyward prompts). */
export type ProviderId =
  'anthropic' | 'google' | 'groq' | 'xai' | 'huggingface' | 'perplexity' | 'replicate' | 'together' | 'fireworks';

/** Whose key a finding is: one of Keyward's services, another provider's, or a team rule's (an owner Keyward does not know). */
export type KeyOwner = ServiceId | ProviderId | 'team';

/**
 * Whole-token shapes of other providers' keys, by rule id. Each starts with a prefix the
 * provider documents, so a prefix search finds every candidate; the token alphabet is the
 * scanner's [A-Za-z0-9_-], so a longer run never matches (exact boundaries).
 */
export const PROVIDER_KEY_SHAPES = {
  'anthropic-key': { prefix: 'sk-ant-api', shape: /^sk-ant-api0\d-[A-Za-z0-9_-]{93}AA$/ },
  'anthropic-admin-key': { prefix: 'sk-ant-admin', shape: /^sk-ant-admin01-[A-Za-z0-9_-]{93}AA$/ },
  'google-api-key': { prefix: 'AIza', shape: /^AIza[A-Za-z0-9_-]{35}$/ },
  'groq-key': { prefix: 'gsk_', shape: /^gsk_[A-Za-z0-9]{52}$/ },
  'xai-key': { prefix: 'xai-', shape: /^xai-[A-Za-z0-9_]{80}$/ },
  'huggingface-token': { prefix: 'hf_', shape: /^hf_[A-Za-z]{34}$/ },
  'perplexity-key': { prefix: 'pplx-', shape: /^pplx-[A-Za-z0-9]{48}$/ },
  'replicate-token': { prefix: 'r8_', shape: /^r8_[A-Za-z0-9_-]{37}$/ },
  'together-key': { prefix: 'tgp_v1_', shape: /^tgp_v1_[A-Za-z0-9_-]{43}$/ },
  'fireworks-key': { prefix: 'fw_', shape: /^fw_[A-Za-z0-9]{24}$/ },
} as const satisfies Record<string, { prefix: string; shape: RegExp }>;

export type ProviderRuleId = keyof typeof PROVIDER_KEY_SHAPES;

/** The prefixes that start no `sk-` token, each searched for on its own. */
export const OTHER_PREFIXES = ['AIza', 'gsk_', 'xai-', 'hf_', 'pplx-', 'r8_', 'tgp_v1_', 'fw_'] as const;

// Masking. Any `sk-`/`rk-` token long enough to be a key of either service, and whatever
// follows "Bearer " in an echoed header (unless it is masked already).
const KEY_SHAPED = /\b(?:sk|rk)-[A-Za-z0-9_-]{16,}/g;
const BEARER = /(\bBearer\s+)([^\s"',;]{8,})/gi;
// The other providers' prefixes with a run long enough to be a key (the shortest, fw_, has 24).
const OTHER_SHAPED = new RegExp(`(?<![A-Za-z0-9_-])(?:${OTHER_PREFIXES.join('|')})[A-Za-z0-9_-]{20,}`, 'g');

// Only prefixes a service documents: a key's random body may itself hold dashes
// (`sk-proj-q-…`), and a generic "word-dash" pattern would show part of the secret.
const KNOWN_PREFIX = new RegExp(
  `^((?:sk|pk|rk)-(?:or-v\\d+-|(?:${DIRECT_PREFIXES.join('|')})-|ant-(?:(?:api|admin)\\d+-)?)?|${OTHER_PREFIXES.join('|')})`,
);

/** `sk-or-v1-…3fa9`: the documented prefix, an ellipsis, the last four characters. */
export function maskKey(key: string): string {
  const match = KNOWN_PREFIX.exec(key);
  return `${match ? match[1]! : key.slice(0, 3)}…${key.slice(-4)}`;
}

/** Every key-shaped run in `text` masked; the redactor in core adds the keys it knows. */
export function maskKeyShapes(text: string): string {
  return text
    .replace(KEY_SHAPED, maskKey)
    .replace(OTHER_SHAPED, maskKey)
    .replace(BEARER, (_all, prefix: string, token: string) => prefix + (token.includes('…') ? token : maskKey(token)));
}

/**
 * What the webview may know of a key Keyward holds, so it can mask it in what it saves: the two ends its masked form
 * already shows (`prefix…suffix`) and its length. Never the key: a stored key may have any shape (an
 * OpenAI-compatible service's), so the shapes above cannot find it, and the webview holds no key.
 */
export interface KeyMask {
  prefix: string;
  suffix: string;
  length: number;
}

/** The mask of a key from its masked form (`maskKey`) and length; undefined when the form is not one. */
export function keyMaskOf(masked: string, length: number): KeyMask | undefined {
  const cut = masked.indexOf('…');
  if (cut < 0 || length <= 0) return undefined;
  return { prefix: masked.slice(0, cut), suffix: masked.slice(cut + 1), length };
}

/**
 * Every run of `length` characters between a mask's prefix and suffix replaced by the masked form. Without the key
 * nothing can confirm a run, so a stranger of the same ends and length is masked too: harmless, as masking more than
 * a key never leaks one (the scanner confirms the same descriptor by fingerprint for rotated-out keys).
 */
export function maskKnownKeys(text: string, masks: readonly KeyMask[]): string {
  let out = text;
  for (const { prefix, suffix, length } of masks) {
    // An empty end would match anywhere: such a descriptor masks nothing rather than everything.
    if (prefix.length === 0 || suffix.length === 0 || length < prefix.length + suffix.length) continue;
    const masked = `${prefix}…${suffix}`;
    let next = '';
    let last = 0;
    for (let at = out.indexOf(prefix); at !== -1; at = out.indexOf(prefix, at + 1)) {
      if (at < last) continue;
      const end = at + length;
      if (end > out.length || !out.startsWith(suffix, end - suffix.length)) continue;
      next += out.slice(last, at) + masked;
      last = end;
      at = end - 1;
    }
    out = next + out.slice(last);
  }
  return out;
}

/** A copy of a JSON-like value with every string (keys of objects too) passed through `map`. */
export function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, map)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [map(k), mapStrings(v, map)])) as T;
  }
  return value;
}
