// The service switch: a segmented control, one toggle button per service the
// host offers. A narrow side bar fits it on one line, so each button shows the
// short name and keeps the full one as its tooltip; the accessible name is the
// full one, which contains the short one (what a voice user says is found).
// Arrow keys move between the segments, as in a toolbar.
import type { ServiceChoice } from '../shared/protocol.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { element } from './dom.ts';

/** Builds the buttons afresh; call again only when the list of services changes. */
export function drawServiceSwitch(group: HTMLElement, services: readonly ServiceChoice[]): void {
  group.replaceChildren(
    ...services.map((x) => {
      const button = element('button', {
        id: `service-${x.id}`,
        type: 'button',
        className: 'segment',
        textContent: x.shortName ?? x.name,
        title: x.name,
      });
      button.setAttribute('aria-label', x.name);
      button.dataset.service = x.id;
      return button;
    }),
  );
}

/** Marks the chosen service; only it is in the tab order, the arrows reach the others. */
export function markService(group: HTMLElement, service: ServiceId): void {
  const buttons = [...group.querySelectorAll<HTMLButtonElement>('button[data-service]')];
  const chosen = buttons.some((b) => b.dataset.service === service);
  for (const [i, button] of buttons.entries()) {
    const pressed = button.dataset.service === service;
    button.setAttribute('aria-pressed', String(pressed));
    button.tabIndex = pressed || (!chosen && i === 0) ? 0 : -1;
  }
}

/** Left/Right/Home/End among the segments: focus moves, the choice waits for Enter or Space (or a click). */
export function serviceSwitchKey(group: HTMLElement, event: KeyboardEvent): boolean {
  const buttons = [...group.querySelectorAll<HTMLButtonElement>('button[data-service]')];
  const at = buttons.indexOf(event.target as HTMLButtonElement);
  if (at < 0 || buttons.length === 0) return false;
  const next =
    event.key === 'ArrowRight'
      ? (at + 1) % buttons.length
      : event.key === 'ArrowLeft'
        ? (at - 1 + buttons.length) % buttons.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? buttons.length - 1
            : -1;
  if (next < 0) return false;
  for (const [i, button] of buttons.entries()) button.tabIndex = i === next ? 0 : -1;
  buttons[next]!.focus();
  return true;
}
