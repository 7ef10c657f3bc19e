// One turn of the conversation as a DOM node: a sent prompt with its chips, or an answer with its notes, error
// card, versions and actions.
import type { ChatTurn, WebviewMessage } from '../shared/protocol.ts';
import { answerExtras, versionSwitch, workingLine } from './answerParts.ts';
import { type ApplyStatuses, drawApplyLines } from './applyStatus.ts';
import { chipLabel } from './attachmentChips.ts';
import { codicon, element } from './dom.ts';
import { type ErrorCardHooks, errorCard } from './errorCard.ts';
import { type ActionHooks, answerActions, promptActions } from './messageActions.ts';
import type { Strings } from './turnNotes.ts';

export interface TurnDrawing {
  s: Strings;
  post(message: WebviewMessage): void;
  /** Markdown to HTML (markdown.ts). */
  render(text: string): string;
  /** Adds the code blocks' bars to rendered Markdown (codeBlocks.ts). */
  decorate(container: HTMLElement): void;
  cardHooks: ErrorCardHooks;
  actions: ActionHooks;
  applies: ApplyStatuses;
}

function userTurn(node: HTMLElement, turn: ChatTurn, d: TurnDrawing): HTMLElement {
  node.append(element('div', { className: 'who', textContent: d.s('you', 'You') }));
  node.append(element('div', { className: 'user-text', textContent: turn.text }));
  // Named as the chips in the box named them (the diff is "#changes", not "HEAD:1-9").
  for (const a of turn.attachments ?? [])
    node.append(element('span', { className: 'chip', textContent: chipLabel(a) }));
  node.append(promptActions(turn, d.actions));
  return node;
}

/** How an answer that did not finish says so: broken off or stopped. */
function endNote(turn: ChatTurn, s: Strings): HTMLElement | null {
  // The note is in the text colour; only its icon is coloured, so a broken-off answer stays readable.
  if (turn.status === 'interrupted')
    return element(
      'div',
      { className: 'interrupted' },
      codicon('warning'),
      s('interrupted', 'The answer broke off here; what arrived is kept.'),
    );
  if (turn.status === 'cancelled')
    return element('div', { className: 'interrupted stopped' }, codicon('debug-stop'), s('stopped', 'Stopped.'));
  return null;
}

/** Under a finished answer: its versions' switch when it was regenerated, then its actions. */
export function answerFooter(turn: ChatTurn, d: TurnDrawing): HTMLElement[] {
  const versions = versionSwitch(turn, d.s, d.post);
  return versions ? [versions, answerActions(turn, d.actions)] : [answerActions(turn, d.actions)];
}

function answerTurn(node: HTMLElement, turn: ChatTurn, d: TurnDrawing): HTMLElement {
  const { s } = d;
  node.append(element('div', { className: 'who', textContent: turn.model }));
  const body = element('div', { className: 'answer' });
  body.innerHTML = d.render(turn.text);
  d.decorate(body);
  // Before the first token: a sign of work that a screen reader hears, and the answer marked busy until it ends.
  if (turn.status === 'streaming') {
    node.setAttribute('aria-busy', 'true');
    if (turn.text === '') body.append(workingLine(s));
  }
  // A declined answer has no text of its own: no empty box above the refusal.
  if (turn.text !== '' || !turn.refusal) node.append(body);
  const ended = endNote(turn, s);
  if (ended) node.append(ended);
  if (turn.refusal) node.classList.add('declined');
  node.append(...answerExtras(turn, s));
  if (turn.error && turn.status === 'error') node.append(errorCard(turn, d.cardHooks));
  else if (turn.error && turn.status === 'interrupted')
    node.append(element('div', { className: 'meta', textContent: turn.error.message }));
  if (turn.status !== 'streaming') node.append(...answerFooter(turn, d));
  drawApplyLines(node, d.applies, s, d.post);
  return node;
}

export function turnNode(turn: ChatTurn, d: TurnDrawing): HTMLElement {
  const node = element('article', { className: `turn ${turn.role} ${turn.status}` });
  node.dataset.turnId = turn.id;
  return turn.role === 'user' ? userTurn(node, turn, d) : answerTurn(node, turn, d);
}

/** One turn that cannot be drawn must not take the conversation with it. */
export function safeTurnNode(turn: ChatTurn, d: TurnDrawing): HTMLElement {
  try {
    return turnNode(turn, d);
  } catch (error) {
    console.error('Keyward: could not render a turn', error);
    return element('article', { className: `turn ${turn.role}`, textContent: turn.text });
  }
}
