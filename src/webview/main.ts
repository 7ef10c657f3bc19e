// The prompt panel's browser code. It holds no key and makes no request: it
// speaks to the host only through postMessage, in the protocol of shared/.
import type { ServiceErrorData } from '../shared/errorKinds.ts';
import {
  type ChatTurn,
  type HostMessage,
  type ModelOption,
  type WebviewMessage,
  paidTwin,
} from '../shared/protocol.ts';
import { splitBlocks } from './blocks.ts';
import { createRenderer } from './markdown.ts';
import { finishNote, metaLine, missingScopes, resetText } from './turnNotes.ts';
import { type Action, type ViewState, initialState, persistedView, reduce, restoredView } from './viewState.ts';
import { isServiceId } from '../shared/serviceIds.ts';

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
};

const vscode = acquireVsCodeApi();
const render = createRenderer();
let state: ViewState = { ...initialState(), ...restoredView(vscode.getState()), turns: [], pending: null };
// What an older version saved (attachment text, a key in the draft) is replaced at once.
vscode.setState(persistedView(state));

const post = (message: WebviewMessage) => vscode.postMessage(message);
const s = (key: string, fallback: string) => state.strings[key] ?? fallback;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

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

function price(model: ModelOption): string {
  if (model.free) return s('free', 'free');
  // The direct service's list carries no prices; a router's "-1" means the price varies.
  if (model.inputPerMillion === null && model.outputPerMillion === null)
    return state.services.find((x) => x.id === state.service)?.pricedModels ? s('variablePrice', 'variable price') : '';
  if (model.inputPerMillion === null || model.outputPerMillion === null) return s('variablePrice', 'variable price');
  return `$${model.inputPerMillion.toFixed(2)} / $${model.outputPerMillion.toFixed(2)} ${s('perMillion', 'per M tokens')}`;
}

/** The service switch, one button per service the host offers (built again only when that list changes). */
let renderedServices = '';
function renderServices(): void {
  const group = $('services');
  const key = JSON.stringify(state.services.map((x) => [x.id, x.name]));
  if (key !== renderedServices) {
    renderedServices = key;
    group.replaceChildren(
      ...state.services.map((x) => {
        const button = element('button', { id: `service-${x.id}`, textContent: x.name });
        button.dataset.service = x.id;
        return button;
      }),
    );
  }
  for (const x of state.services)
    $<HTMLButtonElement>(`service-${x.id}`).setAttribute('aria-pressed', String(state.service === x.id));
}

function renderHeader(): void {
  renderServices();
  const models = state.models[state.service];
  const canList = state.canListModels[state.service];
  $('model-list-row').hidden = !canList;
  $('model-id-row').hidden = canList;
  const idInput = $<HTMLInputElement>('model-id');
  if (document.activeElement !== idInput) idInput.value = state.selectedModel[state.service];
  const filterInput = $<HTMLInputElement>('model-filter');
  if (document.activeElement !== filterInput && filterInput.value !== state.modelFilter)
    filterInput.value = state.modelFilter;
  const select = $<HTMLSelectElement>('model');
  const filter = state.modelFilter.toLowerCase();
  const list = (models ?? []).filter(
    (m) => !filter || m.id.toLowerCase().includes(filter) || m.name.toLowerCase().includes(filter),
  );
  select.replaceChildren(
    ...list.map((m) => {
      const cost = price(m);
      return element('option', {
        value: m.id,
        textContent: `${m.name}${m.name !== m.id ? ` (${m.id})` : ''}${cost ? ` · ${cost}` : ''}`,
        selected: m.id === state.selectedModel[state.service],
      });
    }),
  );
  if (models === null)
    select.replaceChildren(element('option', { textContent: s('loadingModels', 'Loading models…'), disabled: true }));
  // No model chosen yet (a new compatible server): nothing looks picked that is not.
  else if (list.length > 0 && !list.some((m) => m.id === state.selectedModel[state.service]))
    select.prepend(element('option', { textContent: s('pickModel', 'Pick a model'), disabled: true, selected: true }));
  const selected = (models ?? []).find((m) => m.id === state.selectedModel[state.service]);
  const badge = $('free-badge');
  badge.hidden = !selected?.free;
  $('no-key').hidden = state.hasKey[state.service];
}

function renderAttachments(): void {
  $('attachments').replaceChildren(
    ...state.attachments.map((a) => {
      const remove = element('button', {
        className: 'chip-remove',
        title: s('removeAttachment', 'Remove'),
        textContent: '×',
      });
      remove.setAttribute('aria-label', `${s('removeAttachment', 'Remove')} ${a.fileName}`);
      remove.addEventListener('click', () => dispatch({ type: 'attachment/remove', id: a.id }));
      return element(
        'span',
        { className: 'chip', title: a.fileName },
        `${a.fileName.split(/[\\/]/).pop()}:${a.startLine}-${a.endLine} (${a.languageId})`,
        remove,
      );
    }),
  );
}

function errorCard(turn: ChatTurn): HTMLElement {
  const error = turn.error as ServiceErrorData;
  const card = element('div', { className: 'error-card' });
  card.setAttribute('role', 'alert');
  card.append(
    element('div', {
      className: 'error-kind',
      textContent: `${s(`kind.${error.kind}`, error.kind.replace(/_/g, ' '))}${error.status ? ` (HTTP ${error.status})` : ''}`,
    }),
  );
  card.append(element('div', { className: 'error-message', textContent: error.message }));
  card.append(element('div', { className: 'error-action', textContent: error.action }));
  const actions = element('div', { className: 'error-buttons' });
  const button = (label: string, onClick: () => void) => {
    const b = element('button', { textContent: label });
    b.addEventListener('click', onClick);
    actions.append(b);
  };
  const service = turn.service;
  if (error.kind === 'auth')
    button(s('setKey', 'Set key'), () => post({ type: 'action/run', action: 'setKey', service }));
  if (error.kind === 'auth' || error.kind === 'permission')
    button(s('verifyKey', 'Verify key'), () => post({ type: 'action/run', action: 'verifyKey', service }));
  if (error.kind === 'insufficient_credits' || error.kind === 'credit_exhausted' || error.kind === 'usage_limit')
    button(
      state.services.find((x) => x.id === service)?.hasCredits
        ? s('addCredits', 'Add credits')
        : s('openBilling', 'Open billing'),
      () => post({ type: 'action/run', action: 'openCredits', service }),
    );
  if (error.kind === 'key_limit')
    button(s('raiseLimit', 'Raise the key limit'), () => post({ type: 'action/run', action: 'openKeys', service }));
  if (error.kind === 'spend_limit')
    button(s('openLimits', 'Open limits'), () => post({ type: 'action/run', action: 'openCredits', service }));
  const scopes = missingScopes(turn, s);
  if (scopes.length > 0) {
    const list = element('ul', { className: 'error-scopes', ariaLabel: s('missingScopes', 'This key lacks:') });
    for (const { scope, meaning } of scopes)
      list.append(element('li', {}, icon('lock'), element('code', { textContent: scope }), ` ${meaning}`));
    card.append(
      element('div', { className: 'error-scopes-title', textContent: s('missingScopes', 'This key lacks:') }),
      list,
    );
    button(s('openKeys', 'Open the keys page'), () => post({ type: 'action/run', action: 'openKeys', service }));
  }
  if (error.kind === 'free_limit_day') {
    const reset = resetText(turn, s);
    if (reset) card.append(element('div', { className: 'error-reset', textContent: reset }));
    const twin = paidTwin(turn.model);
    if (twin) button(`${s('resendPaid', 'Resend to the paid model')} ${twin}`, () => resend(turn, twin));
  }
  card.append(actions);
  return card;
}

function resend(turn: ChatTurn, model: string): void {
  const index = state.turns.findIndex((t) => t.id === turn.id);
  const user = [...state.turns.slice(0, index)].reverse().find((t) => t.role === 'user');
  if (!user) return;
  send(user.text, model, user.attachments ?? []);
}

function addCodeButtons(container: HTMLElement): void {
  for (const pre of Array.from(container.querySelectorAll('pre'))) {
    const code = pre.textContent ?? '';
    const bar = element('div', { className: 'code-actions' });
    const button = (label: string, message: WebviewMessage) => {
      const b = element('button', { textContent: label, className: 'code-button' });
      b.addEventListener('click', () => post(message));
      bar.append(b);
    };
    button(s('copy', 'Copy'), { type: 'code/copy', code });
    button(s('insert', 'Insert at cursor'), { type: 'code/insert', code, mode: 'cursor' });
    button(s('replace', 'Replace selection'), { type: 'code/insert', code, mode: 'replace' });
    button(s('below', 'Insert below selection'), { type: 'code/insert', code, mode: 'below' });
    pre.before(bar);
  }
}

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
  addCodeButtons(body);
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
  if (turn.error && turn.status === 'error') node.append(errorCard(turn));
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
  $('empty').hidden = state.turns.length > 0;
  scrollDown();
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
  const body = node.querySelector<HTMLElement>('.answer')!;
  let tail = body.querySelector<HTMLElement>(':scope > .tail');
  if (!tail) {
    body.replaceChildren();
    tail = element('div', { className: 'tail' });
    body.append(tail);
  }
  const { done, tail: rest } = splitBlocks(turn.text);
  const rendered = body.querySelectorAll(':scope > .block').length;
  for (let i = rendered; i < done.length; i++) {
    const block = element('div', { className: 'block' });
    block.innerHTML = render(done[i]!);
    tail.before(block);
  }
  tail.innerHTML = render(rest);
  scrollDown();
}

/** A streamed answer is finished in place: its blocks stay, the tail and the extras are added. */
function finishStreamed(turn: ChatTurn): boolean {
  const node = document.querySelector<HTMLElement>(`[data-turn-id="${turn.id}"]`);
  const tail = node?.querySelector<HTMLElement>('.answer > .tail');
  // A refusal or an early end changes more than the tail: draw the turn again.
  if (!node || !tail || turn.status !== 'done' || turn.refusal || finishNote(turn, s)) return false;
  const body = tail.parentElement!;
  const blocks = Array.from(body.querySelectorAll<HTMLElement>(':scope > .block'));
  const { done, tail: rest } = splitBlocks(turn.text);
  // Only when what is on screen is the final text; otherwise draw it again.
  if (blocks.length !== done.length) return false;
  tail.className = 'block';
  tail.innerHTML = render(rest);
  addCodeButtons(body);
  node.classList.replace('streaming', 'done');
  node.append(...answerExtras(turn));
  const who = node.querySelector('.who');
  if (who) who.textContent = turn.model;
  return true;
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

function wire(): void {
  $('services').addEventListener('click', (event) => {
    const service = (event.target as HTMLElement).closest('button')?.dataset.service;
    if (!isServiceId(service)) return;
    dispatch({ type: 'service/local', service });
    post({ type: 'service/select', service });
  });
  $<HTMLInputElement>('model-filter').addEventListener('input', (e) =>
    dispatch({ type: 'model/filter', text: (e.target as HTMLInputElement).value }),
  );
  $<HTMLSelectElement>('model').addEventListener('change', (e) => {
    const model = (e.target as HTMLSelectElement).value;
    dispatch({ type: 'model/local', model });
    post({ type: 'model/select', service: state.service, model });
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
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send(prompt.value);
    }
  });
  $('send').addEventListener('click', () => send(prompt.value));
  $('stop').addEventListener('click', () => {
    if (state.pending) post({ type: 'chat/stop', requestId: state.pending.requestId });
  });
  $('clear').addEventListener('click', () => post({ type: 'history/clear' }));
  $('export').addEventListener('click', () => post({ type: 'history/export' }));
  $('set-key').addEventListener('click', () => post({ type: 'action/run', action: 'setKey', service: state.service }));
  $('refresh-models').addEventListener('click', () => post({ type: 'models/refresh', service: state.service }));
  // Links in answers open through the host, and only when they are https.
  $('conversation').addEventListener('click', (e) => {
    const link = (e.target as HTMLElement).closest('a');
    if (!link) return;
    e.preventDefault();
    const href = link.getAttribute('href') ?? '';
    if (/^https:\/\//i.test(href)) post({ type: 'link/open', url: href });
  });
  window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || typeof message.type !== 'string') return;
    if (message.type === 'chat/chunk') queueChunk(message.requestId, message.text);
    else {
      if (message.type === 'chat/done' || message.type === 'chat/error') flushChunks();
      dispatch(message);
    }
  });
}

wire();
renderHeader();
renderAttachments();
renderComposer();
post({ type: 'webview/ready' });
