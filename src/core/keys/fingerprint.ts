// The one fingerprint: recognises a key elsewhere (in a file, in state, after a rotation)
// without holding it. Short on purpose: it names a key, it does not protect one.
import { loadBuiltin } from '../builtin.ts';
import { lazy } from '../lazy.ts';

type Crypto = typeof import('node:crypto');
const crypto = lazy(() => loadBuiltin<Crypto>('node:crypto'));

/** The first 16 hex characters of the SHA-256 of the key, surrounding whitespace ignored. */
export function fingerprint(key: string): string {
  const hashes = crypto();
  // crypto.hash (Node 20.12+) hashes in one native call; a Hash object per key cost twice as much in a
  // scan that reports hundreds of keys.
  const hex =
    typeof hashes.hash === 'function'
      ? hashes.hash('sha256', key.trim(), 'hex')
      : hashes.createHash('sha256').update(key.trim()).digest('hex');
  return hex.slice(0, 16);
}
