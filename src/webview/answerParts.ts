// The pieces drawn around an answer's text: a refusal, the note on how it ended, its meta line, the "Working…"
// line before the first token, and the versions' switch of a regenerated answer.
import type { ChatTurn, WebviewMessage } from '../shared/protocol.ts';
import { versionPosition } from '../shared/answerVersions.ts';
import { codicon, element, iconButton } from './dom.ts';
import { icon } from './icons.ts';
import { type Strings, finishNote, metaLine } from './turnNotes.ts';

/** A refusal is the answer, in its own style and marked as one; its text is the model's, shown as plain text. */
function refusalBlock(text: string, s: Strings): HTMLElement {
  const block = element('div', { className: 'refusal' });
  block.setAttribute('role', 'note');
  block.append(element('div', { className: 'refusal-label' }, icon('declined'), s('declined', 'The model declined')));
  block.append(element('div', { className: 'refusal-text', textContent: text }));
  return block;
}

/** What comes under the answer text: the refusal, the note on how it ended, the footer. */
export function answerExtras(turn: ChatTurn, s: Strings): HTMLElement[] {
  const extras: HTMLElement[] = [];
  if (turn.refusal) extras.push(refusalBlock(turn.refusal, s));
  const note = finishNote(turn, s);
  if (note) {
    const line = element('div', { className: `finish-note ${note.kind}` }, icon(note.kind), note.text);
    line.setAttribute('role', 'note');
    extras.push(line);
  }
  const meta = metaLine(turn, s);
  if (meta) extras.push(element('div', { className: 'meta', textContent: meta }));
  return extras;
}

export function workingLine(s: Strings): HTMLElement {
  const line = element('div', { className: 'working' }, codicon('loading'), s('working', 'Working…'));
  line.setAttribute('role', 'status');
  return line;
}

/**
 * "2 of 2" with previous and next, as Copilot Chat pages through the responses to one request: a regenerated
 * answer's earlier versions stay reachable. Always shown (not only on hover): it says there is more to read.
 */
export function versionSwitch(turn: ChatTurn, s: Strings, post: (message: WebviewMessage) => void): HTMLElement | null {
  const { index, count } = versionPosition(turn);
  if (count < 2) return null;
  const go = (to: number) => () => post({ type: 'chat/showVersion', turnId: turn.id, index: to });
  const previous = iconButton('chevron-left', s('versionPrevious', 'Previous version'), go(index - 1));
  const next = iconButton('chevron-right', s('versionNext', 'Next version'), go(index + 1));
  previous.disabled = index === 0;
  next.disabled = index === count - 1;
  const where = s('versionOf', '{0} of {1}')
    .replace('{0}', String(index + 1))
    .replace('{1}', String(count));
  const group = element(
    'div',
    { className: 'answer-versions' },
    previous,
    element('span', { textContent: where }),
    next,
  );
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', s('versions', 'Answer versions'));
  return group;
}
