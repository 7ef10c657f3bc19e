// The prompt box's `#` completion: typing `#` (at the start or after a space) opens a list of the references the
// prompt can point at (shared/contextRefs.ts); arrows move, Enter or Tab chooses, Escape closes, a click chooses.
// The chosen `#word` leaves the text and the host sends the reference back as a chip (context/attach). The box
// keeps the focus throughout: the list is its aria-activedescendant, as VS Code's own suggest widget does.
import { type ContextRefName, matchingRefs, refQueryAt } from '../shared/contextRefs.ts';
import type { WebviewMessage } from '../shared/protocol.ts';
import type { UiKey } from '../shared/uiStrings.ts';
import { codicon, element } from './dom.ts';
import type { Codicon } from './codicons.ts';
import type { ChatStore } from './store.ts';

const ICONS: Record<ContextRefName, Codicon> = {
  file: 'file',
  selection: 'selection',
  problems: 'warning',
  changes: 'git-compare',
  terminal: 'terminal',
};

const WORDS: Record<ContextRefName, [UiKey, string]> = {
  file: ['context.file', 'The whole file in the editor'],
  selection: ['context.selection', 'The selection in the editor'],
  problems: ['context.problems', 'The problems of the file, or of the selected lines'],
  changes: ['context.changes', 'The changes in the working tree (git diff)'],
  terminal: ['context.terminal', 'The selection in the active terminal'],
};

/** One option: the `#name`, its icon and what it sends; a press keeps the focus in the box. */
function optionNode(name: ContextRefName, active: boolean, what: string, choose: (name: ContextRefName) => void) {
  const option = element(
    'div',
    { id: `context-option-${name}`, className: active ? 'option active' : 'option' },
    codicon(ICONS[name]),
    element('span', { className: 'context-name' }, `#${name}`),
    element('span', { className: 'context-what' }, what),
  );
  option.setAttribute('role', 'option');
  option.setAttribute('aria-selected', String(active));
  option.addEventListener('mousedown', (e) => e.preventDefault());
  option.addEventListener('click', () => choose(name));
  return option;
}

/** Takes a key from everything after it: the box's own keys (Enter sends) and the panel's Escape (stop). */
function take(e: KeyboardEvent, action: () => void): void {
  e.preventDefault();
  e.stopImmediatePropagation();
  action();
}

export interface ContextCompletion {
  readonly list: HTMLElement;
  isOpen(): boolean;
  /** Call before the box's other key handlers: true when the key was the list's. */
  wire(): void;
}

export function createContextCompletion(
  store: ChatStore,
  box: HTMLTextAreaElement,
  hooks: { post(message: WebviewMessage): void; announce(text: string): void },
): ContextCompletion {
  const { s } = store;
  const list = element('div', { id: 'context-list', className: 'menu context-list', hidden: true });
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', s('context.listLabel', 'Context to send'));
  let shown: ContextRefName[] = [];
  let active = 0;
  let at: { start: number; query: string } | undefined;

  function close(): void {
    list.hidden = true;
    shown = [];
    at = undefined;
    box.removeAttribute('aria-activedescendant');
  }

  function draw(): void {
    list.replaceChildren(...shown.map((name, i) => optionNode(name, i === active, s(...WORDS[name]), choose)));
    box.setAttribute('aria-activedescendant', `context-option-${shown[active]}`);
  }

  function update(): void {
    at = box.selectionStart === box.selectionEnd ? refQueryAt(box.value, box.selectionStart) : undefined;
    shown = at ? matchingRefs(at.query) : [];
    if (shown.length === 0) return close();
    active = Math.min(active, shown.length - 1);
    list.hidden = false;
    draw();
  }

  function choose(name: ContextRefName): void {
    if (!at) return;
    const end = at.start + 1 + at.query.length;
    const text = box.value.slice(0, at.start) + box.value.slice(end).replace(/^ /, '');
    box.value = text;
    box.setSelectionRange(at.start, at.start);
    store.dispatch({ type: 'draft/set', text });
    close();
    hooks.post({ type: 'context/attach', name });
    hooks.announce(s('context.attaching', 'Attaching {0}…').replace('{0}', `#${name}`));
    box.focus();
  }

  function onKey(e: KeyboardEvent): void {
    if (list.hidden || e.isComposing) return;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: shown.length - 1 };
    if (e.key in moves) active = (active + moves[e.key]!) % shown.length;
    else if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) return take(e, () => choose(shown[active]!));
    else if (e.key === 'Escape') return take(e, close);
    else return;
    take(e, draw);
  }

  return {
    list,
    isOpen: () => !list.hidden,
    wire() {
      box.setAttribute('aria-autocomplete', 'list');
      box.setAttribute('aria-controls', 'context-list');
      box.addEventListener('keydown', onKey);
      box.addEventListener('input', () => {
        active = 0;
        update();
      });
      box.addEventListener('click', update);
      box.addEventListener('blur', close);
    },
  };
}
