// What a liveness check of a found key says (verify.ts asks; the CLI report, SARIF and the editor read it).
/**
 * live: the key's owner accepted it; inactive: it refused it; unknown: nothing says either way, with the reason:
 * nothing to ask (no no-cost check, no host), or a check whose answer (a network failure, a timeout, an answer of
 * another shape) says nothing about the key. The JSON contract's three values: a new case gets a reason, not a value.
 */
export type VerificationStatus = 'live' | 'inactive' | 'unknown';

export interface Verification {
  status: VerificationStatus;
  /** Why, in words; never the key, and what the service said only redacted. */
  reason: string;
  /** The URL the key was sent to (`https://openrouter.ai/api/v1/key`); absent when it was sent nowhere. */
  checkedAt?: string;
}
