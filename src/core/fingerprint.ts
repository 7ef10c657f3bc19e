// The one fingerprint: recognises a key elsewhere (in a file, in state, after a rotation)
// without holding it. Short on purpose: it names a key, it does not protect one.
import { createHash } from 'node:crypto';

/** The first 16 hex characters of the SHA-256 of the key, surrounding whitespace ignored. */
export function fingerprint(key: string): string {
  return createHash('sha256').update(key.trim()).digest('hex').slice(0, 16);
}
