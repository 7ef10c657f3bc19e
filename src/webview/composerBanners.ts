// The two lines above the prompt box: a prompt queued while an answer streams, and the banner of a sent message
// being edited. Built once; the composer draws them from the store.
import type { ViewState } from './viewTypes.ts';
import { codicon, element } from './dom.ts';
import type { Strings } from './turnNotes.ts';

/**
 * A prompt written while an answer streams waits above the box (issue 21 item 14): it is sent when the answer
 * ends well, and goes back into the box if the answer fails or is stopped. Edit and Cancel are words, not icons.
 */
export function createQueuedBox(s: Strings) {
  const box = element('div', { className: 'queued', id: 'queued' });
  box.hidden = true;
  const label = element('div', { className: 'queued-label' }, codicon('clock'));
  const text = element('div', { className: 'queued-text' });
  const edit = element('button', { type: 'button', className: 'text-button', id: 'queued-edit' });
  const cancel = element('button', { type: 'button', className: 'text-button', id: 'queued-cancel' });
  box.append(label, text, element('div', { className: 'queued-actions' }, edit, cancel));

  function render({ queued }: ViewState): void {
    box.hidden = queued === null;
    if (!queued) return;
    label.replaceChildren(codicon('clock'), s('queued', 'Queued — sends when this answer ends'));
    text.textContent = queued.text;
    edit.textContent = s('queuedEdit', 'Edit');
    cancel.textContent = s('queuedCancel', 'Cancel');
    edit.setAttribute('aria-label', s('queuedEditLabel', 'Edit the queued prompt'));
    cancel.setAttribute('aria-label', s('queuedCancelLabel', 'Cancel the queued prompt'));
  }

  return { box, edit, cancel, render };
}

/** While a sent message is edited: what sending will do, and a way out that puts the box back as it was. */
export function createEditBanner(s: Strings) {
  const banner = element('div', { className: 'editing-banner', id: 'editing' });
  banner.hidden = true;
  const text = element('span', { className: 'editing-text' });
  const cancel = element('button', { type: 'button', className: 'text-button', id: 'edit-cancel' });
  banner.append(codicon('edit'), text, cancel);

  function render({ editing, turns }: ViewState): void {
    banner.hidden = editing === null;
    document.querySelectorAll('.turn.editing').forEach((node) => node.classList.remove('editing'));
    if (!editing) return;
    const index = turns.findIndex((t) => t.id === editing.turnId);
    const after = index < 0 ? 0 : turns.length - index - 1;
    text.textContent =
      after === 0
        ? s('editingLast', 'Editing your message: sending replaces it.')
        : after === 1
          ? s('editingOne', 'Editing your message: sending replaces it and the answer after it.')
          : s('editingMany', 'Editing your message: sending replaces it and the {0} messages after it.').replace(
              '{0}',
              String(after),
            );
    cancel.textContent = s('editCancel', 'Cancel edit');
    document.querySelector(`[data-turn-id="${editing.turnId}"]`)?.classList.add('editing');
  }

  return { banner, cancel, render };
}
