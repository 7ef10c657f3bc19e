// What the composer gained for pointing at context: the `#` completion (contextCompletion.ts), the images pasted or
// dropped (imageTray.ts), "Show what is sent" (sentTextView.ts), and the note under the box that says why
// something could not go.
import { createContextCompletion } from './contextCompletion.ts';
import { byId, element } from './dom.ts';
import { createImageTray } from './imageTray.ts';
import type { ComposerHooks } from './promptSending.ts';
import { createSentTextView } from './sentTextView.ts';
import type { ChatStore } from './store.ts';

export function createComposerContext(store: ChatStore, hooks: ComposerHooks, prompt: () => HTMLTextAreaElement) {
  // The next keystroke clears the note; it is said to assistive technology as it appears.
  const noteNode = element('div', { id: 'composer-note', className: 'composer-note', hidden: true });
  noteNode.setAttribute('role', 'status');
  const note = (text: string) => {
    noteNode.textContent = text;
    noteNode.hidden = false;
    hooks.announce(text);
  };
  const tray = createImageTray(store, {
    currentModel: hooks.currentModel,
    note,
    announce: hooks.announce,
    focus: () => prompt().focus(),
  });
  const sentText = createSentTextView(store, () => tray.images());
  const completion = createContextCompletion(store, prompt(), hooks);

  function wire(): void {
    const box = prompt();
    const inputBox = box.closest<HTMLElement>('.input-box') ?? box;
    inputBox.after(noteNode, sentText.node);
    byId('attachments').after(tray.node);
    box.before(completion.list);
    // Before the box's own keys: with the list open, Enter and Tab choose and Escape closes it.
    completion.wire();
    tray.wire(box, inputBox);
    box.addEventListener('input', () => {
      noteNode.hidden = true;
      sentText.render();
    });
    // The images go once the host took the prompt; a prompt held back (the guard, the cap) keeps them.
    store.subscribe((_before, action) => {
      if (action.type === 'chat/started') tray.clear();
    });
  }

  return { note, tray, sentText, completion, wire };
}
