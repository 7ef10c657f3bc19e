// The composer's `+` menu: a button and a short menu of what to attach, driven by arrows, Enter and Escape.
import { ATTACH_SOURCES, type WebviewMessage } from '../shared/protocol.ts';
import { byId } from './dom.ts';

export function wireAttachMenu(
  attachMenu: HTMLElement,
  prompt: () => HTMLTextAreaElement,
  post: (message: WebviewMessage) => void,
): void {
  const button = byId<HTMLButtonElement>('attach');
  const items = () => Array.from(attachMenu.querySelectorAll<HTMLButtonElement>('[role="menuitem"]'));
  const close = (focus: HTMLElement | null) => {
    attachMenu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    focus?.focus();
  };
  const open = () => {
    attachMenu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    items()[0]?.focus();
  };
  button.addEventListener('click', () => (attachMenu.hidden ? open() : close(button)));
  for (const item of items()) {
    item.addEventListener('click', () => {
      const source = ATTACH_SOURCES.find((x) => x === item.dataset.source);
      close(prompt());
      if (source) post({ type: 'attach/request', source });
    });
  }
  attachMenu.addEventListener('keydown', (e) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close(button);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(index + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus();
    } else if (e.key === 'Tab') close(null);
  });
  document.addEventListener('mousedown', (e) => {
    if (!attachMenu.hidden && !attachMenu.contains(e.target as Node) && !button.contains(e.target as Node)) close(null);
  });
}
