// The note where an edited message was sent again.
import { codicon, element } from './dom.ts';
import type { Strings } from './turnNotes.ts';

/**
 * Where an edited message was sent again: the turns it replaced are gone from the view, and this note says so
 * with an Undo that brings them back (Copilot Chat continues from an edited message the same way).
 */
export function replacedNote(count: number, s: Strings, undoEdit: () => void): HTMLElement {
  // `count` holds the edited message itself and every turn after it.
  const text =
    count <= 1
      ? s('replacedOne', 'Your edit replaced the earlier message.')
      : count === 2
        ? s('replacedAnswer', 'Your edit replaced the earlier message and its answer.')
        : s('replacedMany', 'Your edit replaced the earlier message and the {0} after it.').replace(
            '{0}',
            String(count - 1),
          );
  const undo = element('button', {
    type: 'button',
    className: 'text-button',
    id: 'undo-edit',
    textContent: s('undo', 'Undo'),
  });
  undo.setAttribute('aria-label', s('undoEdit', 'Undo the edit: bring back the replaced messages'));
  undo.addEventListener('click', () => undoEdit());
  const note = element(
    'div',
    { className: 'replaced-note' },
    codicon('edit'),
    element('span', { textContent: text }),
    undo,
  );
  note.setAttribute('role', 'note');
  return note;
}
