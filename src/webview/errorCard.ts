// The card a failed answer shows: a human title for the kind, what happened,
// what to do, the buttons that do it, and Retry where trying again can help.
import type { ErrorKind, ServiceErrorData } from '../shared/errorKinds.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { type ChatTurn, type WebviewMessage, paidTwin } from '../shared/protocol.ts';
import { errorKindRule } from '../shared/errorKindRules.ts';
import { codicon, element } from './dom.ts';
import { type Strings, localMoment, missingScopes, resetText, untilText } from './turnNotes.ts';

/** Where trying the same request again can help: the error-kind table says (shared/errorKindRules.ts). */
export function canRetry(kind: ErrorKind): boolean {
  return errorKindRule(kind).buttons.some((b) => b.action === 'retry');
}

const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * What the card says under its title, each thing once: the service's text unless it only repeats the title,
 * and the remedy unless the service's text already says it (or the other way round).
 */
export function cardLines(title: string, message: string, action: string): { message: string; action: string } {
  const m = plain(message);
  const a = plain(action);
  const keepMessage = m !== '' && m !== plain(title) && !(a !== '' && a.includes(m));
  const keepAction = a !== '' && !(m !== '' && m.includes(a));
  return { message: keepMessage ? message : '', action: keepAction ? action : '' };
}

export interface ErrorCardHooks {
  s: Strings;
  post: (message: WebviewMessage) => void;
  /** Sends the prompt that led to this turn again, to this model. */
  resend: (turn: ChatTurn, model: string) => void;
  lockIcon: () => Element;
  /** The service sells credits (an "Add credits" button) rather than showing a billing page. */
  hasCredits: (service: ServiceId) => boolean;
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
  const lines = cardLines(s(`kind.${error.kind}`, error.kind), error.message, error.action);
  if (lines.message) card.append(element('div', { className: 'error-message', textContent: lines.message }));
  if (lines.action) card.append(element('div', { className: 'error-action', textContent: lines.action }));

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
  // The kind's other buttons come from the one error-kind table; the first one leads.
  errorKindRule(error.kind)
    .buttons.filter((b) => b.action !== 'retry')
    .forEach(({ action, label, text }, index) => {
      const name =
        label === 'creditsPage'
          ? hooks.hasCredits(service)
            ? s('addCredits', 'Add credits')
            : s('openBilling', text)
          : s(label, text);
      if (action !== 'retry') button(name, () => post({ type: 'action/run', action, service }), index === 0);
    });
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
