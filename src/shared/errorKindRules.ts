// What each error kind means to Keyward, one row per kind: whether it is sent
// again and how, whether it is transient, what it does to the status bar, its
// title, and the buttons on the panel's error card. A new kind is one row here;
// the `satisfies` below makes the compiler ask for it.
import type { PanelAction } from './protocol.ts';
import type { ErrorKind } from './errorKinds.ts';

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
  label: string;
  /** The English text, when the strings lack the key. */
  text: string;
}

export interface ErrorKindRule {
  retry: RetryRule;
  /** Waiting may fix it and it says nothing about the key or the account: a check keeps what it knew, and backs off. */
  transient: boolean;
  status: StatusEffect;
  /** The card's title in English; the host localises it. */
  title: string;
  buttons: readonly CardButton[];
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
    buttons: [setKey, verifyKey],
  },
  permission: { retry: serviceSays, transient: false, status: 'record', title: 'Not permitted', buttons: [verifyKey] },
  insufficient_credits: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Not enough credits',
    buttons: [creditsPage],
  },
  key_limit: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Key limit reached',
    buttons: [{ action: 'openKeys', label: 'raiseLimit', text: 'Raise the key limit' }],
  },
  in_flight_budget: {
    retry: { when: 'retryAfter', budget: 'inFlight', defaultSeconds: 2 },
    transient: false,
    status: 'record',
    title: 'Requests still running',
    buttons: [],
  },
  free_limit_minute: {
    retry: { when: 'retryAfter', budget: 'freeMinute', defaultSeconds: 60, clampSeconds: [1, 65] },
    transient: false,
    status: 'record',
    title: 'Free models: per-minute limit',
    buttons: [],
  },
  free_limit_day: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Free models: daily limit',
    buttons: [],
  },
  rate_limit: { retry: backoff, transient: true, status: 'record', title: 'Rate limited', buttons: [sendAgain] },
  credit_exhausted: {
    retry: serviceSays,
    transient: false,
    status: { state: 'credit exhausted', severity: 'warning' },
    title: 'Credit exhausted',
    buttons: [creditsPage],
  },
  spend_limit: {
    retry: serviceSays,
    transient: false,
    status: { state: 'spend limit reached', severity: 'warning' },
    title: 'Spend limit reached',
    buttons: [{ action: 'openCredits', label: 'openLimits', text: 'Open limits' }],
  },
  usage_limit: {
    retry: serviceSays,
    transient: false,
    status: { state: 'usage limit reached', severity: 'warning' },
    title: 'Usage limit reached',
    buttons: [creditsPage],
  },
  bad_request: { retry: serviceSays, transient: false, status: 'record', title: 'Request refused', buttons: [] },
  server: { retry: backoff, transient: true, status: 'record', title: 'Service error', buttons: [sendAgain] },
  network: { retry: backoff, transient: true, status: 'record', title: 'Network error', buttons: [sendAgain] },
  // Not sent again automatically (the request may still be running there), but the person may.
  timeout: { retry: serviceSays, transient: true, status: 'record', title: 'Timed out', buttons: [sendAgain] },
  stream_interrupted: { retry: never, transient: false, status: 'keep', title: 'Answer broke off', buttons: [] },
  cancelled: { retry: never, transient: false, status: 'keep', title: 'Stopped', buttons: [] },
  insecure_url: { retry: never, transient: false, status: 'record', title: 'Insecure base URL', buttons: [] },
  moderation: {
    retry: never,
    transient: false,
    status: 'record',
    title: 'Prompt flagged by moderation',
    buttons: [],
  },
  // The service's terms say use from elsewhere may get the account blocked.
  region: { retry: never, transient: false, status: 'record', title: 'Not offered in this region', buttons: [] },
  redirected: { retry: never, transient: false, status: 'record', title: 'Redirect not followed', buttons: [] },
  response_too_large: {
    retry: serviceSays,
    transient: false,
    status: 'record',
    title: 'Response too large',
    buttons: [],
  },
} as const satisfies Record<ErrorKind, ErrorKindRule>;

export function errorKindRule(kind: ErrorKind): ErrorKindRule {
  return ERROR_KIND_RULES[kind];
}
