// What each error kind means to Keyward, one row per kind: whether it is sent
// again and how, whether it is transient, what it does to the status bar, its
// title, the advice a person reads, the panel's words while it waits, and the
// buttons on the panel's error card. A new kind is one row here; the
// `satisfies` below makes the compiler ask for it (test/shared/errorKindRecipe.test.ts
// proves nothing else in src/ needs to learn it but the classify rule).
import type { PanelAction } from './protocol.ts';
import type { ErrorKind } from './errorKinds.ts';
import type { FixedUiKey } from './uiStrings.ts';
import type { ServiceId } from './serviceIds.ts';

/**
 * When a failed request is sent again (the policy in core/retryPolicy.ts sets
 * the counts and the total wait). The service's `x-should-retry: false` stops
 * every rule but `never`, which no header can start.
 */
export type RetryRule =
  /** Never, whatever a header says. */
  | { when: 'never' }
  /** Only when the service says `x-should-retry: true`; then with backoff. */
  | { when: 'serviceSays' }
  /** Bounded exponential backoff with jitter (or the service's hint up to a minute), up to `maxRetries`. */
  | { when: 'backoff' }
  /** After the Retry-After the service gave (or `defaultSeconds`, clamped to `[min, max]`), counted in its own budget. */
  | { when: 'retryAfter'; budget: 'inFlight' | 'freeMinute'; defaultSeconds: number; clampSeconds?: [number, number] };

/** What a failed request or key check does to the service's status-bar item. */
export type StatusEffect =
  /** Nothing: the item keeps what it showed (the person stopped it, or the answer broke off). */
  | 'keep'
  /** Kept as the service's last error, which the tooltip reads. */
  | 'record'
  /** Recorded, and named as the account's state in the item itself. */
  | { state: string; severity: 'warning' | 'error' };

/** A button on the error card: a host action, or sending the prompt again. */
export interface CardButton {
  action: PanelAction | 'retry';
  /** Key of the panel's localised strings; `creditsPage` reads "Add credits" or "Open billing" by service. */
  label: FixedUiKey | 'creditsPage';
  /** The English text, when the strings lack the key. */
  text: string;
}

/** What the advice of a kind may name about the service that failed. */
export interface AdviceContext {
  id: ServiceId;
  /** Lower case, as it sits in a sentence: "the routing service". */
  name: string;
  /** The word in command titles: "Set Router Key". */
  commandWord: string;
  /** Restricted keys whose missing scopes errors name. */
  hasScopes: boolean;
}

/**
 * The LanguageModelError VS Code knows that a kind becomes when another extension asks through `vscode.lm`
 * (host/lm/lmRequests.ts), so that it can tell a refused key from a blocked prompt; `status` limits it to one HTTP
 * status. Without it the kind reaches the caller as a plain Error carrying its title and advice.
 */
export interface LanguageModelErrorRule {
  as: 'NoPermissions' | 'Blocked' | 'NotFound';
  status?: number;
}

export interface ErrorKindRule {
  retry: RetryRule;
  /** Waiting may fix it and it says nothing about the key or the account: a check keeps what it knew, and backs off. */
  transient: boolean;
  status: StatusEffect;
  /** The card's title in English; the host localises it. */
  title: string;
  /** What to do, in English: the `action` of an error that brings none of its own. */
  advice: (service: AdviceContext) => string;
  /** The panel's words while Keyward waits to send again (English, localised by the host); null: it never waits. */
  wait: string | null;
  buttons: readonly CardButton[];
  languageModelError?: LanguageModelErrorRule;
}

const never = { when: 'never' } as const;
const serviceSays = { when: 'serviceSays' } as const;
const backoff = { when: 'backoff' } as const;

const setKey: CardButton = { action: 'setKey', label: 'setKey', text: 'Set key' };
const verifyKey: CardButton = { action: 'verifyKey', label: 'verifyKey', text: 'Verify key' };
const creditsPage: CardButton = { action: 'openCredits', label: 'creditsPage', text: 'Open billing' };
const sendAgain: CardButton = { action: 'retry', label: 'sendAgain', text: 'Send again' };

export const ERROR_KIND_RULES = {
  auth: {
    retry: serviceSays,
    transient: false,
    status: { state: 'key invalid', severity: 'error' },
    title: 'Key not accepted',
    advice: (s) => `Check the ${s.name} key, or set a new one (Keyward: Set ${s.commandWord} Key).`,
    wait: null,
    buttons: [setKey, verifyKey],
    languageModelError: { as: 'NoPermissions' },
  },
  permission: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Not permitted',
    advice: (s) =>
      s.hasScopes
        ? 'Give the key the permission it lacks on the API keys page (Restricted keys need each scope), or use a key with All permissions.'
        : `The key or account is not allowed to do this; check the key's settings on the ${s.name}.`,
    wait: null,
    buttons: [verifyKey],
    languageModelError: { as: 'NoPermissions' },
  },
  insufficient_credits: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Not enough credits',
    advice: () =>
      "Add credits on the routing service's credits page. While the balance is below zero every call fails, free models included.",
    wait: null,
    buttons: [creditsPage],
  },
  key_limit: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Key limit reached',
    advice: () => "Raise this key's credit limit in the routing service's key settings, or use another key.",
    wait: null,
    buttons: [{ action: 'openKeys', label: 'raiseLimit', text: 'Raise the key limit' }],
  },
  in_flight_budget: {
    retry: { when: 'retryAfter', budget: 'inFlight', defaultSeconds: 2 },
    transient: false,
    status: 'record',
    title: 'Requests still running',
    advice: () =>
      'Wait for the requests still running to settle; Keyward retries after the time the service gave. Adding credits also helps.',
    wait: 'Requests still running use up the balance;',
    buttons: [],
  },
  free_limit_minute: {
    retry: { when: 'retryAfter', budget: 'freeMinute', defaultSeconds: 60, clampSeconds: [1, 65] },
    transient: false,
    status: 'record',
    title: 'Free models: per-minute limit',
    advice: () => 'Free models allow 20 requests a minute; Keyward waits for the window and sends again.',
    wait: 'Free models allow 20 requests a minute;',
    buttons: [],
  },
  free_limit_day: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Free models: daily limit',
    advice: () =>
      'The free-model allowance for today (UTC) is used up. Wait for the reset at UTC midnight, use the paid version of the model, or buy 10 credits to raise the allowance to 1,000 a day.',
    wait: null,
    buttons: [],
  },
  rate_limit: {
    retry: backoff,
    transient: true,
    status: 'record',
    title: 'Rate limited',
    advice: () => 'Too many requests for now; wait a moment and send again. Higher usage tiers have higher limits.',
    wait: 'Rate limited;',
    buttons: [sendAgain],
  },
  credit_exhausted: {
    retry: serviceSays,
    transient: false,
    status: { state: 'credit exhausted', severity: 'warning' },
    title: 'Credit exhausted',
    advice: () =>
      'The organisation has no prepaid credit left. Add credits (at least $5) on the billing page, or turn on auto-reload.',
    wait: null,
    buttons: [creditsPage],
  },
  spend_limit: {
    retry: serviceSays,
    transient: false,
    status: { state: 'spend limit reached', severity: 'warning' },
    title: 'Spend limit reached',
    advice: () =>
      "A spend limit set by the owner is reached. Raise the project's or organisation's limit in the limits settings.",
    wait: null,
    buttons: [{ action: 'openCredits', label: 'openLimits', text: 'Open limits' }],
  },
  usage_limit: {
    retry: serviceSays,
    transient: false,
    status: { state: 'usage limit reached', severity: 'warning' },
    title: 'Usage limit reached',
    advice: () =>
      "The monthly usage limit of the organisation's usage tier is reached. Buying credits moves the organisation to the next tier.",
    wait: null,
    buttons: [creditsPage],
  },
  bad_request: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Request refused',
    advice: () => 'The service refused the request as sent; check the model id and the prompt.',
    wait: null,
    buttons: [],
    languageModelError: { as: 'NotFound', status: 404 },
  },
  server: {
    retry: backoff,
    transient: true,
    status: 'record',
    title: 'Service error',
    advice: () => 'The service had a problem; try again in a moment.',
    wait: 'The service had a problem;',
    buttons: [sendAgain],
  },
  network: {
    retry: backoff,
    transient: true,
    status: 'record',
    title: 'Network error',
    advice: () => "Check the network connection and the service's base URL in the settings.",
    wait: 'The connection failed;',
    buttons: [sendAgain],
  },
  // Not sent again automatically (the request may still be running there), but the person may.
  timeout: {
    retry: serviceSays,
    transient: true,
    status: 'record',
    title: 'Timed out',
    advice: () =>
      'The service did not answer in time; try again. For answers that take long to start, raise keyward.network.requestTimeoutMs (CLI: --timeout); for streams that go quiet, keyward.network.idleTimeoutMs (--idle-timeout).',
    wait: null,
    buttons: [sendAgain],
  },
  stream_interrupted: {
    retry: never,
    transient: false,
    status: 'keep',
    title: 'Answer broke off',
    advice: () => 'The answer broke off; what arrived is kept. Send again to get a whole answer.',
    wait: null,
    buttons: [],
  },
  cancelled: {
    retry: never,
    transient: false,
    status: 'keep',
    title: 'Stopped',
    advice: () => 'Nothing to do: the request was stopped.',
    wait: null,
    buttons: [],
  },
  insecure_url: {
    retry: never,
    transient: false,
    status: 'record',
    title: 'Insecure base URL',
    advice: () =>
      'Use an https: base URL (http: is allowed only for localhost) so the key never travels in clear text.',
    wait: null,
    buttons: [],
  },
  moderation: {
    retry: never,
    transient: false,
    status: 'record',
    title: 'Prompt flagged by moderation',
    advice: () =>
      'Sending the same prompt again will be refused again: rephrase it, or pick a model whose provider does not moderate input this way.',
    wait: null,
    buttons: [],
    languageModelError: { as: 'Blocked' },
  },
  // The service's terms say use from elsewhere may get the account blocked.
  region: {
    retry: never,
    transient: false,
    status: 'record',
    title: 'Not offered in this region',
    advice: (s) =>
      `The ${s.name} is not offered in the country, region or territory this request came from, and its terms say use from elsewhere may get the account blocked. Keyward does not retry it; use the service from a supported location, or use the other service.`,
    wait: null,
    buttons: [],
    languageModelError: { as: 'Blocked' },
  },
  redirected: {
    retry: never,
    transient: false,
    status: 'record',
    title: 'Redirect not followed',
    advice: (s) =>
      `Keyward does not follow redirects with your key. If the ${s.name} really moved, check the new address yourself and set it as the base URL (keyward.${s.id}.baseUrl, or --base-url).`,
    wait: null,
    buttons: [],
  },
  response_too_large: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Response too large',
    advice: (s) =>
      `The ${s.name} sent more than Keyward reads in one piece, so it stopped reading to protect memory. Try again; if it persists, check the base URL points at the real service.`,
    wait: null,
    buttons: [],
  },
  response_chain_lost: {
    // Never retried as sent (the same chain fails again); Send again sends the visible history, which works.
    retry: never,
    // Waiting does not fix it; Send again does, because it sends something else (see its button).
    transient: false,
    status: 'record',
    title: 'Earlier answer not found',
    advice: (s) =>
      `The ${s.name} no longer finds the stored answer this conversation continued from: it was made with another key or organisation, or has expired. Send again to send the conversation as shown instead.`,
    wait: null,
    buttons: [sendAgain],
  },
  certificate: {
    // Never sent again: the same certificate fails the same way until the machine's store or the server changes.
    retry: never,
    // It says nothing about the key or the account: a check keeps what it knew, marked stale, and backs off.
    transient: true,
    status: 'record',
    title: 'Certificate not accepted',
    advice: () =>
      "Add the certificate authority that issued the host's certificate to the system's certificate store and reload the window (keep http.systemCertificates on); the CLI also takes its PEM file in NODE_EXTRA_CA_CERTS. An expired certificate, or one issued for another name, must be fixed on the server.",
    wait: null,
    buttons: [sendAgain],
  },
} as const satisfies Record<ErrorKind, ErrorKindRule>;

export function errorKindRule(kind: ErrorKind): ErrorKindRule {
  return ERROR_KIND_RULES[kind];
}

/** A failed key check of this kind says nothing new about the key: what was known stays, marked stale. */
export function keepsWhatWasKnown(kind: ErrorKind): boolean {
  const rule = ERROR_KIND_RULES[kind];
  return rule.transient || rule.status === 'keep';
}
