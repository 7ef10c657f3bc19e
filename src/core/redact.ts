// Masks anything key-shaped before text reaches a log, an error message or the
// webview. Servers echo keys back (the real ones do, in 401 messages), so every
// text from the network passes through here.

/** `sk-or-v1-…3fa9`: the prefix up to its last dash, an ellipsis, the last four characters. */
export function maskKey(key: string): string {
  const match = /^((?:sk|pk|rk)-(?:[a-z]+-){0,2}(?:v\d+-)?)/.exec(key);
  const head = match ? match[1]! : key.slice(0, 3);
  return `${head}…${key.slice(-4)}`;
}

// Any `sk-`/`rk-` token long enough to be a key, in the key alphabets of both services,
// plus whatever follows "Bearer " in an echoed header.
const KEYISH = /\b(?:sk|rk)-[A-Za-z0-9_-]{16,}/g;
const BEARER = /(\bBearer\s+)([^\s"',;]{8,})/gi;

export function redactSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) {
    if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  }
  return out
    .replace(KEYISH, (key) => maskKey(key))
    .replace(BEARER, (_all, prefix: string, token: string) => prefix + (token.includes('…') ? token : maskKey(token)));
}
