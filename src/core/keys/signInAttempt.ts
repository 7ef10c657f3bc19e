// One sign-in to the routing service, from the browser opening to the key: its verifier lives here, in memory, for
// this attempt only; the callback must carry this attempt's nonce (the service has no `state`); the attempt takes one
// code and exchanges it once; it ends by a key, a timeout, a cancel, a denial or a refusal, each named. `SignIns`
// holds the window's one attempt and routes every callback: one this window did not start, or one for an attempt that
// already ended, is refused without touching the attempt that waits.
import type { ServiceError } from '../errors.ts';
import { redactSecrets } from '../redact.ts';
import type { TransportOptions } from '../transport.ts';
import type { exchangeCode } from './codeExchange.ts';
import { authUrl, challengeOf, newNonce, newVerifier, signInPage } from './pkce.ts';
import type { SecretValue } from './secretValue.ts';

export const SIGN_IN_REASONS = [
  /** The callback carries no nonce of an attempt this window started. */
  'not_started_here',
  /** The callback's code was already received (a reload, a second click, a replay). */
  'code_reused',
  /** The attempt had already taken its callback, or ended, when this one came. */
  'ended',
  'timeout',
  'cancelled',
  /** The person chose Deny on the service's page. */
  'denied',
  /** The callback came back with neither a code nor an error. */
  'no_code',
  /** The service refused the exchange (or the page sent back an error other than a denial). */
  'refused',
  /** The service could not be reached for the exchange. */
  'network',
  /** The base URL gives no sign-in page (not https, or not ending in /api/v1). */
  'no_page',
] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

export class SignInError extends Error {
  readonly reason: SignInReason;
  /** The exchange's failure, redacted, when the service answered or could not be reached. */
  readonly serviceError: ServiceError | undefined;

  constructor(reason: SignInReason, message: string, serviceError?: ServiceError) {
    super(message);
    this.name = 'SignInError';
    this.reason = reason;
    this.serviceError = serviceError;
  }
}

/** Five minutes: time to log in and approve, not long enough for a forgotten tab to come back. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface SignInOptions extends TransportOptions {
  /** The routing service's base URL (…/api/v1): the page and the exchange follow it. */
  baseUrl: string;
  timeoutMs?: number;
  /**
   * The code exchange (codeExchange.ts). Passed in: the extension loads it with the wire clients, which hold the
   * transport, on the first exchange; tests pass it as they import it.
   */
  exchange: typeof exchangeCode;
}

const NETWORK_KINDS = new Set([
  'network',
  'timeout',
  'certificate',
  'insecure_url',
  'redirected',
  'response_too_large',
]);

export class SignInAttempt {
  readonly nonce = newNonce();
  readonly #verifier = newVerifier();
  readonly #options: SignInOptions;
  readonly #abort = new AbortController();
  readonly #timer: NodeJS.Timeout;
  /** The code this attempt took, once it took one. */
  #code: string | undefined;
  #ended = false;
  #resolve!: (key: SecretValue) => void;
  #reject!: (error: SignInError) => void;
  /** The key, or a SignInError saying why there is none. Settles once. */
  readonly result: Promise<SecretValue>;

  constructor(options: SignInOptions) {
    this.#options = options;
    this.result = new Promise<SecretValue>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Whoever awaits the result sees the failure; nobody awaiting must not make it an unhandled rejection.
    this.result.catch(() => undefined);
    this.#timer = setTimeout(
      () => this.#fail(new SignInError('timeout', 'No answer came back from the browser in time.')),
      options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
    );
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The address to open in the browser, whose callback comes back to `callbackUrl` (which carries the nonce). */
  authUrl(callbackUrl: string): string {
    const page = signInPage(this.#options.baseUrl);
    if (!page.ok) {
      const error = new SignInError(
        'no_page',
        page.reason === 'not_api_v1'
          ? `The routing service base URL ${this.#options.baseUrl} does not end in /api/v1, so its sign-in page is not known.`
          : `The routing service base URL ${this.#options.baseUrl} is not https (http is allowed only to this machine).`,
      );
      this.#fail(error);
      throw error;
    }
    return authUrl(page.url, callbackUrl, challengeOf(this.#verifier));
  }

  /** Whether this callback's code is the one this attempt already took. */
  tookCode(code: string | null): boolean {
    return code !== null && code === this.#code;
  }

  /** The callback for this attempt (its nonce checked by the caller): one code, exchanged once. */
  async receive(params: URLSearchParams): Promise<void> {
    if (this.#code !== undefined || this.#ended)
      throw this.tookCode(params.get('code'))
        ? new SignInError('code_reused', 'This sign-in code was already received.')
        : new SignInError('ended', 'This sign-in had already ended.');
    const code = params.get('code');
    const error = params.get('error');
    if (!code) {
      this.#code = '';
      this.#fail(
        error === 'access_denied'
          ? new SignInError('denied', 'The sign-in was denied on the routing service page.')
          : error
            ? new SignInError('refused', `The routing service page answered: ${redactSecrets(error.slice(0, 100))}.`)
            : new SignInError('no_code', 'The browser came back without a sign-in code.'),
      );
      return;
    }
    this.#code = code;
    try {
      const { exchange, timeoutMs: _wait, ...transport } = this.#options;
      const { key } = await exchange({
        ...transport,
        code,
        verifier: this.#verifier,
        signal: this.#abort.signal,
      });
      if (this.#ended) return;
      this.#ended = true;
      clearTimeout(this.#timer);
      this.#resolve(key);
    } catch (thrown) {
      const error = thrown as ServiceError;
      if (error.kind === 'cancelled') this.#fail(new SignInError('cancelled', 'The sign-in was cancelled.'));
      else if (NETWORK_KINDS.has(error.kind)) this.#fail(new SignInError('network', error.message, error));
      else this.#fail(new SignInError('refused', error.message, error));
    }
  }

  cancel(): void {
    this.#abort.abort();
    this.#fail(new SignInError('cancelled', 'The sign-in was cancelled.'));
  }

  #fail(error: SignInError): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    // The verifier is dropped with the attempt; an exchange under way stops.
    this.#abort.abort();
    this.#reject(error);
  }
}

/** How many ended attempts are remembered, to tell "already used" from "not started here". */
const REMEMBERED = 20;

/** The window's sign-ins: one attempt at a time, and where every callback goes. */
export class SignIns {
  #current: SignInAttempt | undefined;
  readonly #past: SignInAttempt[] = [];

  /** A new attempt; one still waiting is cancelled first (its browser tab can no longer sign in). */
  start(options: SignInOptions): SignInAttempt {
    this.cancel();
    const attempt = new SignInAttempt(options);
    this.#current = attempt;
    return attempt;
  }

  get current(): SignInAttempt | undefined {
    return this.#current && !this.#current.ended ? this.#current : undefined;
  }

  cancel(): void {
    if (!this.#current) return;
    this.#current.cancel();
    this.#remember(this.#current);
    this.#current = undefined;
  }

  /**
   * Routes a callback's query to the attempt whose nonce it carries. Refuses (throws a SignInError) a callback no
   * attempt of this window started, and one for an attempt that already took its callback or ended; the waiting
   * attempt goes on waiting. The attempt's own outcome comes through its `result`.
   */
  async callback(query: string): Promise<void> {
    const params = new URLSearchParams(query);
    const nonce = params.get('nonce');
    const attempt = [this.#current, ...this.#past].find((a) => a !== undefined && nonce !== null && a.nonce === nonce);
    if (!attempt)
      throw new SignInError('not_started_here', 'This sign-in answer is for a sign-in this window did not start.');
    if (attempt !== this.#current || attempt.ended) {
      throw attempt.tookCode(params.get('code'))
        ? new SignInError('code_reused', 'This sign-in code was already received.')
        : new SignInError('ended', 'This sign-in had already ended.');
    }
    const received = attempt.receive(params);
    this.#remember(attempt);
    this.#current = undefined;
    await received;
  }

  #remember(attempt: SignInAttempt): void {
    if (!this.#past.includes(attempt)) this.#past.unshift(attempt);
    this.#past.length = Math.min(this.#past.length, REMEMBERED);
  }
}
