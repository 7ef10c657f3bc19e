// What is written to disk (webview state, workspace and global state, the
// exported conversation) passes a filter built on these: every string in a
// value is rewritten, and anything key-shaped is masked. Shared, so the panel's
// browser code and the host mask the same shapes.

// Any `sk-`/`rk-` token long enough to be a key of either service, and whatever
// follows "Bearer ", as the redactor in core sees them.
const KEY_SHAPED = /\b(?:sk|rk)-[A-Za-z0-9_-]{16,}/g;
const BEARER = /(\bBearer\s+)([^\s"',;…]{8,})/gi;

/** `sk-or-v1-…3fa9`: the prefix up to its last dash, an ellipsis, the last four characters. */
export function maskShape(key: string): string {
  const match = /^((?:sk|rk)-(?:[a-z]+-){0,2}(?:v\d+-)?)/.exec(key);
  return `${match ? match[1]! : key.slice(0, 3)}…${key.slice(-4)}`;
}

export function maskKeyShapes(text: string): string {
  return text
    .replace(KEY_SHAPED, maskShape)
    .replace(BEARER, (_all, prefix: string, token: string) => prefix + maskShape(token));
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
