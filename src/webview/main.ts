// The prompt panel's browser code. It holds no key and makes no request: it
// speaks to the host only through postMessage, in the protocol of shared/.
import {
  ATTACH_SOURCES,
  type Attachment,
  type ChatTurn,
  type HostMessage,
  type WebviewMessage,
} from '../shared/protocol.ts';
import { decorateCodeBlocks } from './codeBlocks.ts';
import { composerIntent, lastPrompt } from './composerKeys.ts';
import { codicon, element, iconButton } from './dom.ts';
import { emptyState } from './emptyState.ts';
import { errorCard } from './errorCard.ts';
import { grammarWarmups } from './highlight.ts';
import { createBlockRenderer, createRenderer } from './markdown.ts';
import { createModelPicker } from './picker.ts';
import { type AnswerDrawing, StreamedAnswer } from './streamedAnswer.ts';
import { finishNote, metaLine } from './turnNotes.ts';
import { drawServiceSwitch, markService, serviceSwitchKey } from './serviceSwitch.ts';
import { type Action, type ViewState, initialState, persistedView, reduce, restoredView } from './viewState.ts';
import { type ServiceId, isServiceId } from '../shared/serviceIds.ts';

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
};

const vscode = acquireVsCodeApi();
const render = createRenderer();
const renderBlocks = createBlockRenderer();
let state: ViewState = { ...initialState(), ...restoredView(vscode.getState()), turns: [], pending: null };
// What an older version saved (attachment text, a key in the draft) is replaced at once.
vscode.setState(persistedView(state));

const post = (message: WebviewMessage) => vscode.postMessage(message);
const s = (key: string, fallback: string) => state.strings[key] ?? fallback;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const picker = createModelPicker(
  s,
  (text) => dispatch({ type: 'model/filter', text }),
  (model) => {
    // The search is for finding one model; once found, the next opening shows the whole list.
    dispatch({ type: 'model/filter', text: '' });
    dispatch({ type: 'model/local', model });
    post({ type: 'model/select', service: state.service, model });
  },
);

const SVG = 'http://www.w3.org/2000/svg';

/** A small line icon drawn with currentColor, so it follows the theme (the CSP allows no image loads). */
function icon(name: 'declined' | 'length' | 'content_filter' | 'lock'): SVGSVGElement {
  const paths: Record<typeof name, string[]> = {
    declined: ['M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13z', 'M3.4 12.6l9.2-9.2'],
    length: ['M2 8h7', 'M11 5.5v5', 'M13.5 5.5v5'],
    content_filter: ['M2 3h12l-4.5 5.5V13l-3 1.5V8.5z'],
    lock: ['M4.5 7V5a3.5 3.5 0 0 1 7 0v2', 'M3.5 7h9v7h-9z'],
  };
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('icon');
  for (const d of paths[name]) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

function newId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function dispatch(action: Action): void {
  const before = state;
  state = reduce(state, action);
  // VS Code writes webview state to disk: it gets references and masked text only.
  vscode.setState(persistedView(state));
  update(before, action);
}

// ---- rendering -------------------------------------------------------------

/** The service switch (built again only when the list of services changes). */
let renderedServices = '';
function renderServices(): void {
  const group = $('services');
  const key = JSON.stringify(state.services.map((x) => [x.id, x.name, x.shortName]));
  if (key !== renderedServices) {
    renderedServices = key;
    drawServiceSwitch(group, state.services);
  }
  markService(group, state.service);
}

const serviceChoice = (service: ServiceId) => state.services.find((x) => x.id === service);

function renderHeader(): void {
  renderServices();
  const canList = state.canListModels[state.service];
  $('model-list-row').hidden = !canList;
  $('model-id-row').hidden = canList;
  const idInput = $<HTMLInputElement>('model-id');
  if (document.activeElement !== idInput) idInput.value = state.selectedModel[state.service];
  picker.render({
    service: state.service,
    pricedModels: serviceChoice(state.service)?.pricedModels ?? false,
    models: state.models[state.service],
    selected: state.selectedModel[state.service],
    recent: state.recentModels[state.service],
    filter: state.modelFilter,
  });
  $('no-key').hidden = state.hasKey[state.service];
  renderEmpty();
  const enterSends = state.enterSends !== false;
  $<HTMLTextAreaElement>('prompt').placeholder = enterSends
    ? s('placeholder.enter', 'Ask… (Enter to send, Shift+Enter for a new line)')
    : s('placeholder.shiftEnter', 'Ask… (Shift+Enter to send, Enter for a new line)');
}

/** What a chip shows on hover: where the code comes from and its first lines. */
function chipPreview(a: Attachment): string {
  const head = `${a.fileName}:${a.startLine}-${a.endLine}`;
  if (!a.text) return head;
  const lines = a.text.split('\n');
  const shown = lines.slice(0, 12).map((line) => (line.length > 100 ? `${line.slice(0, 100)}…` : line));
  return [head, '', ...shown, ...(lines.length > 12 ? ['…'] : [])].join('\n');
}

function renderAttachments(): void {
  $('attachments').replaceChildren(
    ...state.attachments.map((a) => {
      const label = `${a.fileName.split(/[\\/]/).pop()}:${a.startLine}-${a.endLine}`;
      const remove = iconButton('close', `${s('removeAttachment', 'Remove')} ${a.fileName}`, () => {
        dispatch({ type: 'attachment/remove', id: a.id });
        $('prompt').focus();
      });
      remove.classList.add('chip-remove');
      const chip = element('span', { className: 'chip', title: chipPreview(a) }, codicon('file'), label, remove);
      chip.setAttribute('aria-label', `${label} (${a.languageId})`);
      return chip;
    }),
  );
}

function resend(turn: ChatTurn, model: string): void {
  const index = state.turns.findIndex((t) => t.id === turn.id);
  const user = [...state.turns.slice(0, index)].reverse().find((t) => t.role === 'user');
  if (!user) return;
  send(user.text, model, user.attachments ?? []);
}

const cardHooks = {
  s,
  post,
  resend,
  lockIcon: () => icon('lock'),
  hasCredits: (service: ServiceId) => serviceChoice(service)?.hasCredits ?? false,
};

/** A refusal is the answer, in its own style and marked as one; its text is the model's, shown as plain text. */
function refusalBlock(text: string): HTMLElement {
  const block = element('div', { className: 'refusal' });
  block.setAttribute('role', 'note');
  block.append(element('div', { className: 'refusal-label' }, icon('declined'), s('declined', 'The model declined')));
  block.append(element('div', { className: 'refusal-text', textContent: text }));
  return block;
}

/** What comes under the answer text: the refusal, the note on how it ended, the footer. */
function answerExtras(turn: ChatTurn): HTMLElement[] {
  const extras: HTMLElement[] = [];
  if (turn.refusal) extras.push(refusalBlock(turn.refusal));
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

function turnNode(turn: ChatTurn): HTMLElement {
  const node = element('article', { className: `turn ${turn.role} ${turn.status}` });
  node.dataset.turnId = turn.id;
  if (turn.role === 'user') {
    node.append(element('div', { className: 'who', textContent: s('you', 'You') }));
    node.append(element('div', { className: 'user-text', textContent: turn.text }));
    for (const a of turn.attachments ?? [])
      node.append(
        element('span', {
          className: 'chip',
          textContent: `${a.fileName.split(/[\\/]/).pop()}:${a.startLine}-${a.endLine}`,
        }),
      );
    return node;
  }
  node.append(element('div', { className: 'who', textContent: turn.model }));
  const body = element('div', { className: 'answer' });
  body.innerHTML = render(turn.text);
  decorateCodeBlocks(body, s, post);
  // A declined answer has no text of its own: no empty box above the refusal.
  if (turn.text !== '' || !turn.refusal) node.append(body);
  if (turn.status === 'interrupted')
    node.append(
      element('div', {
        className: 'interrupted',
        textContent: s('interrupted', 'The answer broke off here; what arrived is kept.'),
      }),
    );
  if (turn.status === 'cancelled')
    node.append(element('div', { className: 'interrupted', textContent: s('stopped', 'Stopped.') }));
  if (turn.refusal) node.classList.add('declined');
  node.append(...answerExtras(turn));
  if (turn.error && turn.status === 'error') node.append(errorCard(turn, cardHooks));
  else if (turn.error && turn.status === 'interrupted')
    node.append(element('div', { className: 'meta', textContent: turn.error.message }));
  return node;
}

/** One turn that cannot be drawn must not take the conversation with it. */
function safeTurnNode(turn: ChatTurn): HTMLElement {
  try {
    return turnNode(turn);
  } catch (error) {
    console.error('Keyward: could not render a turn', error);
    return element('article', { className: `turn ${turn.role}`, textContent: turn.text });
  }
}

function renderConversation(): void {
  $('conversation').replaceChildren(...state.turns.map(safeTurnNode));
  renderEmpty();
  scrollDown();
}

/** The first screen: keys to set or import, a free model to try, what the secret guard does. */
function renderEmpty(): void {
  const empty = $('empty');
  empty.hidden = state.turns.length > 0;
  // The first screen takes the conversation's place instead of sitting under an empty log.
  $('conversation').hidden = !empty.hidden;
  if (empty.hidden) return;
  empty.replaceChildren(
    emptyState({
      services: state.services,
      hasKey: state.hasKey,
      s,
      run: (action, service) => post({ type: 'action/run', action, service }),
      tryFree: () => {
        const free = state.services.find((choice) => choice.freeModel !== undefined);
        if (!free?.freeModel) return;
        dispatch({ type: 'service/local', service: free.id });
        post({ type: 'service/select', service: free.id });
        dispatch({ type: 'model/local', model: free.freeModel });
        post({ type: 'model/select', service: free.id, model: free.freeModel });
        $('prompt').focus();
      },
    }),
  );
}

function renderTurn(id: string): void {
  const turn = state.turns.find((t) => t.id === id);
  const old = document.querySelector(`[data-turn-id="${id}"]`);
  if (!turn) return;
  const node = safeTurnNode(turn);
  if (old) old.replaceWith(node);
  else $('conversation').append(node);
  scrollDown();
}

/** The answer being streamed, drawn block by block as it grows. */
let streamed: StreamedAnswer | undefined;

const answerDrawing: AnswerDrawing = {
  blocks(texts) {
    const holder = document.createElement('div');
    holder.innerHTML = renderBlocks(texts);
    decorateCodeBlocks(holder, s, post);
    return Array.from(holder.children) as HTMLElement[];
  },
  tail: (text) => render(text, { highlight: false }),
  changing(change) {
    const stick = nearBottom();
    change();
    if (stick) scrollDown();
  },
};

/**
 * While an answer streams, finished blocks are rendered once and only the
 * growing tail again, so each frame costs the same however long the answer is.
 */
function renderStreaming(id: string): void {
  const turn = state.turns.find((t) => t.id === id);
  if (!turn) return;
  let node = document.querySelector<HTMLElement>(`[data-turn-id="${id}"]`);
  if (!node) {
    node = safeTurnNode({ ...turn, text: '' });
    $('conversation').append(node);
  }
  if (streamed?.id !== id || !streamed.attached) {
    streamed?.dispose();
    const tail = element('div', { className: 'tail' });
    node.querySelector<HTMLElement>('.answer')!.replaceChildren(tail);
    streamed = new StreamedAnswer(id, tail, answerDrawing);
  }
  streamed.update(turn.text);
}

/** A streamed answer is finished in place: its blocks stay, the rest of the text and the extras are added. */
function finishStreamed(turn: ChatTurn): boolean {
  const node = document.querySelector<HTMLElement>(`[data-turn-id="${turn.id}"]`);
  const answer = streamed;
  streamed = undefined;
  // A refusal or an early end changes more than the tail: draw the turn again.
  const inPlace =
    node &&
    answer?.id === turn.id &&
    answer.attached &&
    turn.status === 'done' &&
    !turn.refusal &&
    !finishNote(turn, s);
  if (
    inPlace &&
    answer.finish(turn.text, (tail, rest) => {
      tail.className = 'block';
      tail.innerHTML = render(rest);
      decorateCodeBlocks(tail, s, post);
      node.classList.replace('streaming', 'done');
      node.append(...answerExtras(turn));
      const who = node.querySelector('.who');
      if (who) who.textContent = turn.model;
    })
  )
    return true;
  answer?.dispose();
  return false;
}

/** Whether the conversation shows its end: a stream follows it there, and leaves alone a reader who scrolled up. */
function nearBottom(): boolean {
  const box = $('conversation');
  return box.scrollHeight - box.scrollTop - box.clientHeight < 40;
}

function scrollDown(): void {
  const box = $('conversation');
  box.scrollTop = box.scrollHeight;
}

let countdown: number | undefined;

function renderComposer(): void {
  const prompt = $<HTMLTextAreaElement>('prompt');
  if (prompt.value !== state.draft) prompt.value = state.draft;
  const busy = state.pending !== null;
  $<HTMLButtonElement>('send').hidden = busy;
  $<HTMLButtonElement>('stop').hidden = !busy;
  const retry = $('retry');
  clearInterval(countdown);
  if (state.pending?.retryUntil) {
    const tick = () => {
      const left = Math.max(0, Math.ceil(((state.pending?.retryUntil ?? 0) - Date.now()) / 1000));
      retry.textContent = `${s(`wait.${state.pending?.retryKind ?? ''}`, s('waiting', 'The service asked to wait;'))} ${s('retryingIn', 'trying again in')} ${left} s`;
    };
    tick();
    countdown = window.setInterval(tick, 250);
    retry.hidden = false;
  } else retry.hidden = true;
}

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
      renderAttachments();
      return;
    case 'chat/retrying':
      renderComposer();
      return;
    case 'chat/done':
      if (!finishStreamed(action.turn)) renderTurn(action.turn.id);
      renderComposer();
      return;
    case 'chat/error':
      renderTurn(action.turn.id);
      renderComposer();
      return;
    default:
      if (before.turns !== state.turns) renderConversation();
      renderHeader();
      renderAttachments();
      renderComposer();
  }
}

// Chunks are applied once per animation frame, so a fast stream never floods the DOM.
let chunkBuffer: { requestId: string; text: string } | null = null;
let frame = 0;

function queueChunk(requestId: string, text: string): void {
  if (chunkBuffer && chunkBuffer.requestId !== requestId) flushChunks();
  chunkBuffer = chunkBuffer ? { requestId, text: chunkBuffer.text + text } : { requestId, text };
  if (!frame) frame = requestAnimationFrame(flushChunks);
}

function flushChunks(): void {
  cancelAnimationFrame(frame);
  frame = 0;
  if (!chunkBuffer) return;
  const { requestId, text } = chunkBuffer;
  chunkBuffer = null;
  dispatch({ type: 'chat/chunk', requestId, text });
  if (state.pending) renderStreaming(state.pending.assistantId);
}

// ---- input -----------------------------------------------------------------

function currentModel(): string {
  return state.canListModels[state.service]
    ? state.selectedModel[state.service]
    : $<HTMLInputElement>('model-id').value.trim();
}

function send(prompt: string, model = currentModel(), attachments = state.attachments): void {
  if (state.pending || prompt.trim() === '' || model === '') return;
  const requestId = newId();
  dispatch({ type: 'send/begin', requestId });
  renderComposer();
  post({ type: 'chat/send', requestId, service: state.service, model, prompt, attachments });
}

function stop(): void {
  if (state.pending) post({ type: 'chat/stop', requestId: state.pending.requestId });
  $('prompt').focus();
}

const attachMenu = $('attach-menu');

/** The `+` menu: a button and a short menu of what to attach, driven by arrows, Enter and Escape. */
function wireAttachMenu(): void {
  const button = $<HTMLButtonElement>('attach');
  const items = () => Array.from(attachMenu.querySelectorAll<HTMLButtonElement>('[role="menuitem"]'));
  const close = (focus: HTMLElement | null) => {
    attachMenu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    focus?.focus();
  };
  const open = () => {
    attachMenu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    items()[0]?.focus();
  };
  button.addEventListener('click', () => (attachMenu.hidden ? open() : close(button)));
  for (const item of items()) {
    item.addEventListener('click', () => {
      const source = ATTACH_SOURCES.find((x) => x === item.dataset.source);
      close($('prompt'));
      if (source) post({ type: 'attach/request', source });
    });
  }
  attachMenu.addEventListener('keydown', (e) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close(button);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(index + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus();
    } else if (e.key === 'Tab') close(null);
  });
  document.addEventListener('mousedown', (e) => {
    if (!attachMenu.hidden && !attachMenu.contains(e.target as Node) && !button.contains(e.target as Node)) close(null);
  });
}

function wire(): void {
  $('services').addEventListener('keydown', (event) => {
    if (serviceSwitchKey($('services'), event)) event.preventDefault();
  });
  $('services').addEventListener('click', (event) => {
    const service = (event.target as HTMLElement).closest('button')?.dataset.service;
    if (!isServiceId(service)) return;
    dispatch({ type: 'service/local', service });
    post({ type: 'service/select', service });
  });
  $<HTMLInputElement>('model-id').addEventListener('change', (e) => {
    const model = (e.target as HTMLInputElement).value.trim();
    if (!model) return;
    dispatch({ type: 'model/local', model });
    post({ type: 'model/select', service: state.service, model });
  });
  const prompt = $<HTMLTextAreaElement>('prompt');
  prompt.addEventListener('input', () => dispatch({ type: 'draft/set', text: prompt.value }));
  prompt.addEventListener('keydown', (e) => {
    const intent = composerIntent(e, {
      enterSends: state.enterSends !== false,
      streaming: state.pending !== null,
      empty: prompt.value.trim() === '',
    });
    // Escape is handled once, by the document, which also stops when the focus is elsewhere.
    if (intent === 'none' || intent === 'stop') return;
    e.preventDefault();
    if (intent === 'send') send(prompt.value);
    else if (intent === 'recall') {
      const last = lastPrompt(state.turns);
      if (last === undefined) return;
      dispatch({ type: 'draft/set', text: last });
      prompt.value = last;
      prompt.setSelectionRange(last.length, last.length);
    }
  });
  $('send').addEventListener('click', () => send(prompt.value));
  $('stop').addEventListener('click', stop);
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || picker.isOpen || !attachMenu.hidden) return;
    if (state.pending) {
      e.preventDefault();
      stop();
    }
  });
  wireAttachMenu();
  $('clear').addEventListener('click', () => post({ type: 'history/clear' }));
  $('export').addEventListener('click', () => post({ type: 'history/export' }));
  $('set-key').addEventListener('click', () => post({ type: 'action/run', action: 'setKey', service: state.service }));
  $('refresh-models').addEventListener('click', () => post({ type: 'models/refresh', service: state.service }));
  $('model-settings').addEventListener('click', () =>
    post({ type: 'models/editSettings', service: state.service, model: state.selectedModel[state.service] }),
  );
  // Links in answers open through the host, and only when they are https.
  $('conversation').addEventListener('click', (e) => {
    const link = (e.target as HTMLElement).closest('a');
    if (!link) return;
    e.preventDefault();
    const href = link.getAttribute('href') ?? '';
    if (/^https:\/\//i.test(href)) post({ type: 'link/open', url: href });
  });
  // The workbench focuses the view's frame (clicking its header, its Focus command) without choosing an element:
  // the prompt box takes it then, as the host's `prompt/focus` may have reached the frame before it could.
  // Not when the focus comes with a click: the person may be selecting an answer's text.
  let pointerAt = 0;
  window.addEventListener('pointerdown', () => (pointerAt = Date.now()), true);
  window.addEventListener('focus', () =>
    setTimeout(() => {
      if (Date.now() - pointerAt < 500) return;
      if (!document.activeElement || document.activeElement === document.body) $('prompt').focus();
    }, 0),
  );
  window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || typeof message.type !== 'string') return;
    if (message.type === 'chat/chunk') queueChunk(message.requestId, message.text);
    else if (message.type === 'prompt/focus') $('prompt').focus();
    else {
      if (message.type === 'chat/done' || message.type === 'chat/error') flushChunks();
      dispatch(message);
      // Opening the chat puts the caret in the prompt box.
      if (message.type === 'panel/state') $('prompt').focus();
    }
  });
}

wire();
renderHeader();
renderAttachments();
renderComposer();
post({ type: 'webview/ready' });
// The first answer should not pay for compiling: while the panel is idle (someone typing), the grammars
// compile one at a time, then a sample answer is drawn off screen a few times so that the drawing code is
// optimised before an answer needs it. One step per idle moment.
const WARM_SAMPLE = ['Some **bold** text and `code`:\n', '- a list item\n', '```ts\nconst a: number = f(1);\n```\n'];
const warmups = [...grammarWarmups(), ...Array.from({ length: 3 }, () => () => void answerDrawing.blocks(WARM_SAMPLE))];
const warmNext = () => {
  warmups.shift()?.();
  if (warmups.length > 0) requestIdleCallback(warmNext, { timeout: 2000 });
};
requestIdleCallback(warmNext, { timeout: 2000 });
