// The chips of the code attached to the next prompt, each with its preview on hover and a Remove button.
import type { Attachment } from '../shared/protocol.ts';
import { byId, codicon, element, iconButton } from './dom.ts';
import type { ChatStore } from './store.ts';
import type { Codicon } from './codicons.ts';
import type { ContextRefName } from '../shared/contextRefs.ts';

const CHIP_ICONS: Record<ContextRefName, Codicon> = {
  file: 'file',
  selection: 'selection',
  problems: 'warning',
  changes: 'git-compare',
  terminal: 'terminal',
};

/** What a chip shows on hover: where the code comes from and its first lines. */
function chipPreview(a: Attachment): string {
  const head = `${a.fileName}:${a.startLine}-${a.endLine}`;
  if (!a.text) return head;
  const lines = a.text.split('\n');
  const shown = lines.slice(0, 12).map((line) => (line.length > 100 ? `${line.slice(0, 100)}…` : line));
  return [head, '', ...shown, ...(lines.length > 12 ? ['…'] : [])].join('\n');
}

/**
 * What a chip says, in the box and in the sent prompt alike. A `#` reference's chip says which one it is: #changes,
 * #terminal name, #problems file:lines; code says file:lines.
 */
export function chipLabel(a: Attachment): string {
  const base = a.fileName.split(/[\\/]/).pop();
  if (a.context === 'changes') return '#changes';
  if (a.context === 'terminal') return `#terminal ${base}`;
  return `${a.context ? `#${a.context} ` : ''}${base}:${a.startLine}-${a.endLine}`;
}

/** Draws the chips; removing one gives the focus back to the prompt box. */
export function renderAttachments(store: ChatStore, prompt: () => HTMLTextAreaElement): void {
  const { s } = store;
  byId('attachments').replaceChildren(
    ...store.state.attachments.map((a) => {
      const label = chipLabel(a);
      const remove = iconButton('close', `${s('removeAttachment', 'Remove')} ${a.fileName}`, () => {
        store.dispatch({ type: 'attachment/remove', id: a.id });
        prompt().focus();
      });
      remove.classList.add('chip-remove');
      const chip = element(
        'span',
        { className: 'chip', title: chipPreview(a) },
        codicon(a.context ? CHIP_ICONS[a.context] : 'file'),
        label,
        remove,
      );
      chip.setAttribute('aria-label', `${label} (${a.languageId})`);
      return chip;
    }),
  );
}
