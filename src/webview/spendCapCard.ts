// The card the daily spend cap shows above the prompt box when it held a paid prompt back: today's spend against
// the cap, and the three ways on. Not a modal: the person can still read the conversation, edit the prompt or pick
// another model, and the card goes once a prompt is sent or it is closed. A free model leads (it costs nothing);
// "Send anyway" sends this one prompt past the cap; "Change cap" opens the setting.
import type { SpendCapNotice } from '../shared/protocol.ts';
import { codicon, element, iconButton } from './dom.ts';
import type { Strings } from './turnNotes.ts';

export interface SpendCapHooks {
  s: Strings;
  sendAnyway(): void;
  useFree(free: NonNullable<SpendCapNotice['free']>): void;
  changeCap(): void;
  dismiss(): void;
}

export function spendCapCard(notice: SpendCapNotice, hooks: SpendCapHooks): HTMLElement {
  const { s } = hooks;
  const card = element('div', { className: 'spend-cap-card' });
  card.setAttribute('role', 'alert');
  const head = element(
    'div',
    { className: 'spend-cap-head' },
    codicon('warning'),
    element('span', { className: 'spend-cap-title', textContent: s('spendCap.title', 'Daily spend cap reached') }),
    element('span', { className: 'spacer' }),
  );
  head.append(iconButton('close', s('spendCap.dismiss', 'Close'), hooks.dismiss, 'spend-cap-close'));
  card.append(
    head,
    element('div', {
      className: 'spend-cap-amounts',
      textContent: `${s('spendCap.spent', 'Spent today in this workspace:')} ${notice.spent} · ${s('spendCap.cap', 'daily cap:')} ${notice.cap}`,
    }),
    element('div', {
      className: 'spend-cap-note',
      textContent: s('spendCap.notSent', 'Your prompt was not sent; it is still in the box.'),
    }),
  );
  const buttons = element('div', { className: 'error-buttons' });
  const button = (label: string, onClick: () => void, primary: boolean, name: string) => {
    const b = element('button', { textContent: label, type: 'button', className: primary ? 'primary' : '' });
    b.dataset.action = name;
    b.addEventListener('click', onClick);
    buttons.append(b);
    return b;
  };
  const { free } = notice;
  if (free) {
    const b = button(s('spendCap.useFree', 'Use a free model'), () => hooks.useFree(free), true, 'free');
    b.title = free.model;
  }
  button(s('spendCap.sendAnyway', 'Send anyway'), hooks.sendAnyway, !free, 'send');
  button(s('spendCap.changeCap', 'Change cap'), hooks.changeCap, false, 'cap');
  card.append(buttons);
  return card;
}
