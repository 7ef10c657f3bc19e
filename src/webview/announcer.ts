// A visually hidden live region: what a sighted person sees happen (an answer starts, ends, a copy is made)
// is said to assistive technology once, without reading the streamed text chunk by chunk.
// Copilot Chat announces the same moments (microsoft/vscode src/vs/workbench/contrib/chat/browser/chatAccessibilityService.ts).
import { element } from './dom.ts';

export interface Announcer {
  readonly node: HTMLElement;
  say(text: string): void;
}

export function createAnnouncer(): Announcer {
  const node = element('div', { className: 'visually-hidden', id: 'announcer' });
  node.setAttribute('role', 'status');
  node.setAttribute('aria-live', 'polite');
  node.setAttribute('aria-atomic', 'true');
  return {
    node,
    say(text) {
      // The same words twice (two copies) are announced twice only if the region changes between them.
      node.textContent = node.textContent === text ? `${text}\u00a0` : text;
    },
  };
}
