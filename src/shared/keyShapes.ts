// The one definition of what a key looks like. The Set Key check (core/keyFormats.ts),
// the scanner (core/scan/rules.ts), the redactor (core/redact.ts) and the panel's
// persist filter all derive from here; shared, so the browser code masks the same
// shapes as the host. The shapes follow the wire facts.

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

// Masking. Any `sk-`/`rk-` token long enough to be a key of either service, and whatever
// follows "Bearer " in an echoed header (unless it is masked already).
const KEY_SHAPED = /\b(?:sk|rk)-[A-Za-z0-9_-]{16,}/g;
const BEARER = /(\bBearer\s+)([^\s"',;]{8,})/gi;

// Only prefixes a service documents: a key's random body may itself hold dashes
// (`sk-proj-q-…`), and a generic "word-dash" pattern would show part of the secret.
const KNOWN_PREFIX = new RegExp(`^((?:sk|pk|rk)-(?:or-v\\d+-|(?:${DIRECT_PREFIXES.join('|')})-|ant-(?:api\\d+-)?)?)`);

/** `sk-or-v1-…3fa9`: the documented prefix, an ellipsis, the last four characters. */
export function maskKey(key: string): string {
  const match = KNOWN_PREFIX.exec(key);
  return `${match ? match[1]! : key.slice(0, 3)}…${key.slice(-4)}`;
}

/** Every key-shaped run in `text` masked; the redactor in core adds the keys it knows. */
export function maskKeyShapes(text: string): string {
  return text
    .replace(KEY_SHAPED, maskKey)
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
