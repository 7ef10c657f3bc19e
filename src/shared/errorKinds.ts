/**
 * The one error language of Keyward: every failure of a service call is one of
 * these kinds. The extension, the webview and the CLI all speak it, and other
 * tools read it from `keyward ask --json`, so the names never change; new kinds
 * are only ever added.
 */
export const ERROR_KINDS = [
  'auth',
  'permission',
  'insufficient_credits',
  'key_limit',
  'in_flight_budget',
  'free_limit_minute',
  'free_limit_day',
  'rate_limit',
  'credit_exhausted',
  'spend_limit',
  'usage_limit',
  'bad_request',
  'server',
  'network',
  'timeout',
  'stream_interrupted',
  'cancelled',
  'insecure_url',
  /** A provider's moderation flagged the prompt (routing service 403). */
  'moderation',
  /** The service is not offered where the request came from (direct service 403). */
  'region',
  /** The service answered with a redirect; Keyward never follows one with a key. */
  'redirected',
  /** A response line, event or body past Keyward's size caps. */
  'response_too_large',
  /**
   * The direct service does not know the stored response the conversation continued from (400
   * `previous_response_not_found`): it belongs to another key's organisation, or expired. Sending the visible
   * conversation instead works.
   */
  'response_chain_lost',
  /**
   * The host's TLS certificate was refused (an issuer this machine does not trust, expired, issued for another name):
   * the machine's trust store or the server must change, not the key; sending again as it is fails the same way.
   */
  'certificate',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The plain-data form of a service error, as it crosses to the webview or out of the CLI. */
export interface ServiceErrorData {
  kind: ErrorKind;
  status: number | null;
  code: string | null;
  message: string;
  action: string;
  retryAfterSeconds: number | null;
}
