// The prompt panel's browser code. It holds no key and makes no request: it
// speaks to the host only through postMessage, in the protocol of shared/.
// The chat's state lives in one store (store.ts); the views around it (header, message list, composer)
// draw from it, and this file wires them to the host's messages.
import type { ChatTurn, HostMessage, WebviewMessage } from '../shared/protocol.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { createAnnouncer } from './announcer.ts';
import { ApplyStatuses, applyStateText, applyStatusLine, blockKey } from './applyStatus.ts';
import { createClearedNotice } from './clearedNotice.ts';
import { createComposer } from './composer.ts';
import { byId } from './dom.ts';
import { wireFocusTrap } from './focusTrap.ts';
import { wireLastAnswerKey } from './promptKeys.ts';
import { createHeader } from './header.ts';
import { grammarWarmups } from './highlight.ts';
import { ChunkBatcher } from './chunkBatcher.ts';
import { createMessageList } from './messageList.ts';
import { spendCapCard } from './spendCapCard.ts';
import { ChatStore } from './store.ts';
import type { Action, ViewState } from './viewState.ts';

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
};

const vscode = acquireVsCodeApi();
const store = new ChatStore(vscode);
const post = (message: WebviewMessage) => vscode.postMessage(message);

const announcer = createAnnouncer();
document.body.append(announcer.node);
const header = createHeader(store, post);
const composer = createComposer(store, {
  post,
  currentModel: () => header.currentModel(),
  popupOpen: () => header.pickerOpen,
  announce: (text) => announcer.say(text),
});
const applies = new ApplyStatuses();

/** Regenerate, Retry and "Resend to the paid model": the answer is asked again in its place (composer.ts). */
function resend(turn: ChatTurn, model: string): void {
  composer.regenerate(turn, model);
}

/** Picks a model in the header as the person would (service and model), and tells the host. */
function pickModel(service: ServiceId, model: string): void {
  store.dispatch({ type: 'service/local', service });
  post({ type: 'service/select', service });
  store.dispatch({ type: 'model/local', model });
  post({ type: 'model/select', service, model });
}

const messages = createMessageList(store, {
  post,
  resend,
  tryFree() {
    const free = store.state.services.find((choice) => choice.freeModel !== undefined);
    if (!free?.freeModel) return;
    pickModel(free.id, free.freeModel);
    composer.focus();
  },
  edit(turn) {
    // The box takes the message; sending it replaces the message and every turn after it (the banner says so).
    store.dispatch({ type: 'edit/begin', turn });
    composer.render();
    composer.renderAttachments();
    composer.focus();
    // The banner above the box takes height from the conversation: the message being edited stays in view.
    messages.revealEditing();
  },
  announce: (text) => announcer.say(text),
  undoEdit: () => post({ type: 'history/undoEdit' }),
  applies,
});

/** The host says where an Apply stands: the line under its block changes, and a screen reader hears it. */
function showApplyState(message: Extract<HostMessage, { type: 'code/applyState' }>): void {
  const entry = { state: message.state, file: message.file, ...(message.text ? { text: message.text } : {}) };
  applies.set(message.applyId, entry);
  for (const block of Array.from(document.querySelectorAll<HTMLElement>('.code-block'))) {
    if (applies.forBlock(blockKey(block))?.id !== message.applyId) continue;
    const line = applyStatusLine(message.applyId, entry, store.s, post);
    const old = block.querySelector('.apply-status');
    if (old) old.replaceWith(line);
    else block.append(line);
  }
  announcer.say(applyStateText(entry, store.s));
}

/**
 * The moments a screen reader is told of: an answer starts and ends (its text is read from the list), and a
 * queued prompt that was not sent because the answer did not end well (it is back in the box).
 */
function announceAction(before: ViewState, action: Action): void {
  const { s } = store;
  const wasQueued = action.type === 'chat/blocked' ? before.pending?.queued !== undefined : before.queued !== null;
  const unqueued =
    wasQueued && store.state.queued === null && store.state.pending === null
      ? ` ${s('queuedBack', 'Your queued prompt is back in the box, not sent.')}`
      : '';
  if (action.type === 'chat/started') announcer.say(s('answerStarted', 'Answer started.'));
  else if (action.type === 'chat/done') announcer.say(s('answerDone', 'Answer finished.'));
  else if (action.type === 'chat/blocked' && unqueued) announcer.say(unqueued.trim());
  else if (action.type === 'chat/error')
    announcer.say(
      (action.turn.status === 'cancelled'
        ? s('answerStopped', 'Answer stopped.')
        : `${s('answerFailed', 'The answer failed:')} ${action.turn.error ? s(`kind.${action.turn.error.kind}`, action.turn.error.kind) : ''}`.trim()) +
        unqueued,
    );
}

/** The spend cap's card above the prompt box, while the cap holds the prompt back. */
function renderSpendCap(): void {
  const slot = byId('spend-cap');
  const notice = store.state.spendCap;
  // The card takes its height from the conversation: a reader at the end stays at the end (the last answer is what
  // the card's amounts follow from), one who scrolled up stays where they were.
  const conversation = byId('conversation');
  const atEnd = conversation.scrollHeight - conversation.scrollTop - conversation.clientHeight < 40;
  slot.hidden = notice === null;
  if (notice === null) {
    slot.replaceChildren();
    return;
  }
  slot.replaceChildren(
    spendCapCard(notice, {
      s: store.s,
      sendAnyway: () => composer.sendAnyway(),
      useFree(free) {
        // The picker shows the free model from now on: the next prompts cost nothing too, and the person sees why.
        pickModel(free.service, free.model);
        composer.send(store.state.draft, free.model);
      },
      changeCap: () => post({ type: 'action/run', action: 'changeSpendCap', service: store.state.service }),
      dismiss() {
        store.dispatch({ type: 'spendCap/dismiss' });
        composer.focus();
      },
    }),
  );
  if (atEnd) conversation.scrollTop = conversation.scrollHeight;
}

function renderHeader(): void {
  header.render();
  messages.renderEmpty();
}

/** What each action redraws: the stream's chunks and the draft redraw nothing here (they have their own path). */
function update(before: ViewState, action: Action): void {
  switch (action.type) {
    case 'chat/chunk':
      return;
    case 'draft/set':
      return;
    case 'model/filter':
    case 'models/list':
    case 'service/local':
    case 'model/local':
    case 'keys/changed':
    case 'settings/changed':
    case 'services/changed':
      renderHeader();
      return;
    case 'attachment/add':
    case 'attachment/remove':
      composer.renderAttachments();
      return;
    case 'chat/retrying':
      composer.render();
      return;
    case 'chat/done':
      if (!messages.finishStreamed(action.turn)) messages.renderTurn(action.turn.id);
      composer.render();
      // The answer ended well: a prompt queued behind it goes now.
      if (before.pending?.requestId === action.requestId) composer.sendQueued();
      return;
    case 'chat/error':
      messages.renderTurn(action.turn.id);
      composer.render();
      composer.renderAttachments();
      return;
    case 'chat/blocked':
      composer.render();
      composer.renderAttachments();
      return;
    default:
      if (before.spendCap !== store.state.spendCap) renderSpendCap();
      if (before.turns !== store.state.turns) messages.renderConversation();
      renderHeader();
      composer.renderAttachments();
      composer.render();
  }
}
store.subscribe(update);
store.subscribe(announceAction);
// Clear's Undo sits above the Clear button.
const clearedNotice = createClearedNotice(store, post);
document.querySelector('footer.composer .buttons')?.before(clearedNotice.node);
store.subscribe((_before, action) => clearedNotice.update(action));

// Chunks are applied once per animation frame, so a fast stream never floods the DOM.
const chunks = new ChunkBatcher((requestId, text) => {
  store.dispatch({ type: 'chat/chunk', requestId, text });
  const { pending } = store.state;
  if (pending) messages.renderStreaming(pending.assistantId);
});

/** Whether the frame's focus rests on no element of its own (the page itself). */
function nothingFocused(): boolean {
  return !document.activeElement || document.activeElement === document.body;
}

function wire(): void {
  header.wire();
  composer.wire();
  messages.wire();
  byId('clear').addEventListener('click', () => post({ type: 'history/clear' }));
  byId('export').addEventListener('click', () => post({ type: 'history/export' }));
  // After the composer's and the pickers' keys: Escape leaves the chat only when nothing here took it.
  wireFocusTrap(post);
  wireLastAnswerKey(post);
  // The workbench focuses the view's frame (clicking its header, its Focus command) without choosing an element:
  // the prompt box takes it then, as the host's `prompt/focus` may have reached the frame before it could.
  // Not when the focus comes with a click: the person may be selecting an answer's text.
  let pointerAt = 0;
  window.addEventListener('pointerdown', () => (pointerAt = Date.now()), true);
  // Only while the frame still holds the focus when the timer runs: a chat that has lost it since (to the other open
  // chat) must not take it back, or the two frames take it from each other without end (a real-host run stalled on
  // it: each one's timer, run after the other took the focus, pulled it back).
  window.addEventListener('focus', () =>
    setTimeout(() => {
      if (Date.now() - pointerAt < 500) return;
      if (document.hasFocus() && nothingFocused()) composer.focus();
    }, 0),
  );
  // Whether this frame holds the keyboard focus: the host keeps `keyward.chatFocus` for the chat's keybindings
  // (Alt+F2), since the workbench's `focusedView` does not follow the focus into a webview's frame.
  window.addEventListener('focus', () => post({ type: 'focus/changed', focused: true }));
  window.addEventListener('blur', () => post({ type: 'focus/changed', focused: false }));
  if (document.hasFocus()) post({ type: 'focus/changed', focused: true });
  window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || typeof message.type !== 'string') return;
    if (message.type === 'chat/chunk') chunks.add(message.requestId, message.text);
    else if (message.type === 'prompt/focus') composer.focus();
    else if (message.type === 'code/applyState') showApplyState(message);
    else if (message.type === 'composer/note') composer.note(message.text);
    else {
      if (message.type === 'chat/done' || message.type === 'chat/error') chunks.flush();
      store.dispatch(message);
      // A new state (the chat opened, another conversation shown) puts the caret in the prompt box of a chat that has
      // the focus, never pulling it from elsewhere: every open chat gets the state, and with the chat both in the side
      // bar and in an editor the two frames took the focus from each other (and from the editor the person typed in)
      // as fast as the window could draw. The host's `prompt/focus` is what brings the focus here.
      if (message.type === 'panel/state' && document.hasFocus()) composer.focus();
    }
  });
}

wire();
renderHeader();
composer.renderAttachments();
composer.render();
post({ type: 'webview/ready' });
// The first answer should not pay for compiling: while the panel is idle (someone typing), the grammars
// compile one at a time, then a sample answer is drawn off screen a few times so that the drawing code is
// optimised before an answer needs it. One step per idle moment.
const WARM_SAMPLE = ['Some **bold** text and `code`:\n', '- a list item\n', '```ts\nconst a: number = f(1);\n```\n'];
const warmups = [
  ...grammarWarmups(),
  ...Array.from({ length: 3 }, () => () => void messages.answerDrawing.blocks(WARM_SAMPLE)),
];
const warmNext = () => {
  warmups.shift()?.();
  if (warmups.length > 0) requestIdleCallback(warmNext, { timeout: 2000 });
};
requestIdleCallback(warmNext, { timeout: 2000 });
