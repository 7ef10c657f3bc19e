// Where each Apply from the chat stands, drawn under its code block: written into the file and waiting for Keep or
// Undo, kept, undone, or refused, in words with labelled buttons, as Copilot's "Apply in Editor" offers Keep and
// Undo beside the change (the editor shows the same two above the change). The state outlives a redraw of the
// conversation: a block finds its Apply again by its code.
import type { ApplyState, WebviewMessage } from '../shared/protocol.ts';
import type { Codicon } from './codicons.ts';
import { codicon, element } from './dom.ts';
import type { Strings } from './turnNotes.ts';

export interface ApplyEntry {
  state: ApplyState | 'working';
  file: string;
  text?: string;
}

function newId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export class ApplyStatuses {
  private readonly byCode = new Map<string, string>();
  private readonly entries = new Map<string, ApplyEntry>();

  /** A new Apply of `code`: its id, for the host's answers. */
  start(code: string): string {
    const id = newId();
    this.byCode.set(code, id);
    this.entries.set(id, { state: 'working', file: '' });
    return id;
  }

  set(id: string, entry: ApplyEntry): void {
    if (this.entries.has(id)) this.entries.set(id, entry);
  }

  forCode(code: string): { id: string; entry: ApplyEntry } | undefined {
    const id = this.byCode.get(code);
    const entry = id === undefined ? undefined : this.entries.get(id);
    return id !== undefined && entry ? { id, entry } : undefined;
  }
}

/** What the person reads and hears for an Apply's state. */
export function applyStateText(entry: ApplyEntry, s: Strings): string {
  const file = entry.file;
  switch (entry.state) {
    case 'working':
      return s('applyWorking', 'Applying…');
    case 'pending':
      return s('applyPending', 'Applied to {0}. Keep the change or undo it:').replace('{0}', file);
    case 'kept':
      return s('applyKept', 'Kept in {0}.').replace('{0}', file);
    case 'undone':
      return s('applyUndone', 'Undone: {0} is as it was.').replace('{0}', file);
    case 'stale':
    case 'refused':
      return entry.text ?? file;
  }
}

const APPLY_ICONS = {
  working: 'loading',
  pending: 'git-compare',
  kept: 'check',
  undone: 'discard',
  refused: 'warning',
  stale: 'warning',
} as const satisfies Record<ApplyEntry['state'], Codicon>;

/** The line under a code block: the state in words, and Keep / Undo while the change waits. */
export function applyStatusLine(
  id: string,
  entry: ApplyEntry,
  s: Strings,
  post: (message: WebviewMessage) => void,
): HTMLElement {
  const line = element('div', { className: `apply-status ${entry.state}` });
  line.dataset.applyId = id;
  const words = element('span', { className: 'apply-status-text', textContent: applyStateText(entry, s) });
  line.append(codicon(APPLY_ICONS[entry.state]), words);
  if (entry.state === 'pending') {
    const keep = element('button', {
      type: 'button',
      className: 'text-button primary',
      textContent: s('keep', 'Keep'),
    });
    keep.setAttribute('aria-label', s('keepIn', 'Keep the change in {0}').replace('{0}', entry.file));
    keep.addEventListener('click', () => post({ type: 'code/applyResolve', applyId: id, keep: true }));
    const undo = element('button', { type: 'button', className: 'text-button', textContent: s('undo', 'Undo') });
    undo.setAttribute('aria-label', s('undoIn', 'Undo the change in {0}').replace('{0}', entry.file));
    undo.addEventListener('click', () => post({ type: 'code/applyResolve', applyId: id, keep: false }));
    line.append(element('span', { className: 'apply-actions' }, keep, undo));
  }
  return line;
}
