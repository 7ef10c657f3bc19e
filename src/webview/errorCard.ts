// The card a failed answer shows: a human title for the kind, what happened,
// what to do, the buttons that do it, and Retry where trying again can help.
import type { ErrorKind, ServiceErrorData } from '../shared/errorKinds.ts';
import { type ChatTurn, type WebviewMessage, paidTwin } from '../shared/protocol.ts';
import { codicon, element } from './dom.ts';
import { type Strings, localMoment, missingScopes, resetText, untilText } from './turnNotes.ts';

/** Kinds where the same request can succeed a moment later; the others need the person to change something first. */
const RETRYABLE: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'in_flight_budget',
  'free_limit_minute',
  'rate_limit',
  'server',
  'network',
  'timeout',
  'stream_interrupted',
  'response_too_large',
]);

export function canRetry(kind: ErrorKind): boolean {
  return RETRYABLE.has(kind);
}

export interface ErrorCardHooks {
  s: Strings;
  post: (message: WebviewMessage) => void;
  /** Sends the prompt that led to this turn again, to this model. */
  resend: (turn: ChatTurn, model: string) => void;
  lockIcon: () => Element;
  now?: number;
}

export function errorCard(turn: ChatTurn, hooks: ErrorCardHooks): HTMLElement {
  const { s, post } = hooks;
  const error = turn.error as ServiceErrorData;
  const service = turn.service;
  const card = element('div', { className: `error-card kind-${error.kind}` });
  card.setAttribute('role', 'alert');
  const head = element('div', { className: 'error-head' }, codicon(canRetry(error.kind) ? 'warning' : 'error'));
  head.append(element('span', { className: 'error-kind', textContent: s(`kind.${error.kind}`, error.kind) }));
  if (error.status)
    head.append(' ', element('span', { className: 'error-status', textContent: `(HTTP ${error.status})` }));
  card.append(head);
  card.append(element('div', { className: 'error-message', textContent: error.message }));
  if (error.action) card.append(element('div', { className: 'error-action', textContent: error.action }));

  const actions = element('div', { className: 'error-buttons' });
  const button = (label: string, onClick: () => void, primary = false) => {
    const b = element('button', { textContent: label, type: 'button', className: primary ? 'primary' : '' });
    b.addEventListener('click', onClick);
    actions.append(b);
    return b;
  };
  if (canRetry(error.kind)) {
    const retry = button(s('retry', 'Retry'), () => hooks.resend(turn, turn.model), true);
    retry.prepend(codicon('refresh'));
    retry.classList.add('retry-button');
  }
  if (error.kind === 'auth')
    button(s('setKey', 'Set key'), () => post({ type: 'action/run', action: 'setKey', service }), true);
  if (error.kind === 'auth' || error.kind === 'permission')
    button(s('verifyKey', 'Verify key'), () => post({ type: 'action/run', action: 'verifyKey', service }));
  if (error.kind === 'insufficient_credits' || error.kind === 'credit_exhausted' || error.kind === 'usage_limit')
    button(
      service === 'router' ? s('addCredits', 'Add credits') : s('openBilling', 'Open billing'),
      () => post({ type: 'action/run', action: 'openCredits', service }),
      true,
    );
  if (error.kind === 'key_limit')
    button(
      s('raiseLimit', 'Raise the key limit'),
      () => post({ type: 'action/run', action: 'openKeys', service }),
      true,
    );
  if (error.kind === 'spend_limit')
    button(s('openLimits', 'Open limits'), () => post({ type: 'action/run', action: 'openCredits', service }), true);
  const scopes = missingScopes(turn, s);
  if (scopes.length > 0) {
    const list = element('ul', { className: 'error-scopes', ariaLabel: s('missingScopes', 'This key lacks:') });
    for (const { scope, meaning } of scopes)
      list.append(element('li', {}, hooks.lockIcon(), element('code', { textContent: scope }), ` ${meaning}`));
    card.append(
      element('div', { className: 'error-scopes-title', textContent: s('missingScopes', 'This key lacks:') }),
      list,
    );
    button(s('openKeys', 'Open the keys page'), () => post({ type: 'action/run', action: 'openKeys', service }));
  }
  const at = turn.retryAt ? Date.parse(turn.retryAt) : NaN;
  const now = hooks.now ?? Date.now();
  if (error.kind === 'free_limit_day') {
    const reset = resetText(turn, s, (d) => localMoment(d));
    if (reset) {
      const line = element('div', { className: 'error-reset', textContent: reset });
      if (!Number.isNaN(at) && at > now) line.append(` (${untilText(at, now, s)})`);
      card.append(line);
    }
    const twin = paidTwin(turn.model);
    if (twin) button(`${s('resendPaid', 'Resend to the paid model')} ${twin}`, () => hooks.resend(turn, twin), true);
  } else if (!Number.isNaN(at) && at > now) {
    card.append(
      element('div', {
        className: 'error-reset',
        textContent: `${s('tryAfter', 'Try again after')} ${localMoment(new Date(at))} (${untilText(at, now, s)})`,
      }),
    );
  }
  if (actions.childElementCount > 0) card.append(actions);
  return card;
}
