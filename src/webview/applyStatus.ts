// Where each Apply from the chat stands, drawn under its code block: written into the file and waiting for Keep or
// Undo, kept, undone, or refused, in words with labelled buttons, as Copilot's "Apply in Editor" offers Keep and
// Undo beside the change (the editor shows the same two above the change). The state outlives a redraw of the
// conversation and belongs to the block applied, named by its answer and its place in it (`blockKey`), never to its
// text: the same code in an earlier or a regenerated answer stays unapplied (issue 31 item 3).
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

/** A code block's name: its answer's turn id and its place among that answer's blocks ('' when not in a turn). */
export function blockKey(block: Element): string {
  const turn = block.closest<HTMLElement>('[data-turn-id]');
  if (!turn?.dataset.turnId) return '';
  return `${turn.dataset.turnId}#${Array.from(turn.querySelectorAll('.code-block')).indexOf(block)}`;
}

export class ApplyStatuses {
  private readonly byBlock = new Map<string, string>();
  private readonly entries = new Map<string, ApplyEntry>();

  /** A new Apply of the block `key` (blockKey): its id, for the host's answers. */
  start(key: string): string {
    const id = newId();
    if (key) this.byBlock.set(key, id);
    this.entries.set(id, { state: 'working', file: '' });
    return id;
  }

  set(id: string, entry: ApplyEntry): void {
    if (this.entries.has(id)) this.entries.set(id, entry);
  }

  forBlock(key: string): { id: string; entry: ApplyEntry } | undefined {
    const id = key ? this.byBlock.get(key) : undefined;
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
      // The host says where the block went and what the file runs; the plain line is for an older host.
      return entry.text ?? s('applyPending', 'Applied to {0}. Keep the change or undo it:').replace('{0}', file);
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

/** Draws the state of each applied block under `root` (an answer drawn again keeps the line under its own block). */
export function drawApplyLines(
  root: Element,
  applies: ApplyStatuses,
  s: Strings,
  post: (message: WebviewMessage) => void,
): void {
  for (const block of Array.from(root.querySelectorAll('.code-block'))) {
    const known = applies.forBlock(blockKey(block));
    block.querySelector('.apply-status')?.remove();
    if (known && known.entry.state !== 'working') block.append(applyStatusLine(known.id, known.entry, s, post));
  }
}
