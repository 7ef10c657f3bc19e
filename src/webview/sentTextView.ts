// "Show what is sent": a disclosure under the prompt box with the exact text the service will receive for the
// prompt as it stands (shared/sentText.ts composes it for the host too), chips included, and the images by name.
import { composePrompt } from '../shared/sentText.ts';
import type { PromptImage } from '../shared/promptImages.ts';
import { element } from './dom.ts';
import type { ChatStore } from './store.ts';

export function createSentTextView(store: ChatStore, images: () => PromptImage[]) {
  const { s } = store;
  const body = element('pre', { id: 'sent-text-body', className: 'sent-text-body', tabIndex: -1 });
  body.setAttribute('aria-label', s('sentText.show', 'Show what is sent'));
  const summary = element('summary', {}, s('sentText.show', 'Show what is sent'));
  const node = element('details', { id: 'sent-text', className: 'sent-text' }, summary, body);

  function render(): void {
    // The text scrolls, so the keyboard reaches it, but only while it shows.
    body.tabIndex = node.open ? 0 : -1;
    if (!node.open) return;
    const { draft, attachments } = store.state;
    const held = images();
    const text = composePrompt(draft, attachments);
    const names = held.map((i) => i.name).join(', ');
    body.textContent =
      held.length === 0
        ? text
        : `${text}\n\n[${s('sentText.images', 'With {0} image(s): {1}').replace('{0}', String(held.length)).replace('{1}', names)}]`;
  }

  node.addEventListener('toggle', render);
  return { node, render };
}
