// The composer: the prompt box with its draft, the attached-code chips, the `+` menu, Send and Stop,
// and the line that counts down while the service asked to wait.
import { ATTACH_SOURCES, type Attachment, type ChatTurn, type WebviewMessage } from '../shared/protocol.ts';
import { composerIntent, lastPrompt } from './composerKeys.ts';
import { byId, codicon, element, iconButton } from './dom.ts';
import type { UiKey } from '../shared/uiStrings.ts';
import type { ChatStore } from './store.ts';

export interface ComposerHooks {
  post(message: WebviewMessage): void;
  currentModel(): string;
  /** Whether another popup (the model picker) takes Escape first. */
  popupOpen(): boolean;
  /** Says something to assistive technology (announcer.ts, a role=status region). */
  announce(text: string): void;
}

/** Where a prompt comes from: the box (it may be queued or replace an edited message), the queue, or an action. */
export type SendFrom = 'box' | 'queue' | 'action';

function newId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What a chip shows on hover: where the code comes from and its first lines. */
function chipPreview(a: Attachment): string {
  const head = `${a.fileName}:${a.startLine}-${a.endLine}`;
  if (!a.text) return head;
  const lines = a.text.split('\n');
  const shown = lines.slice(0, 12).map((line) => (line.length > 100 ? `${line.slice(0, 100)}…` : line));
  return [head, '', ...shown, ...(lines.length > 12 ? ['…'] : [])].join('\n');
}

export function createComposer(store: ChatStore, hooks: ComposerHooks) {
  const { s } = store;
  const { post } = hooks;
  const prompt = () => byId<HTMLTextAreaElement>('prompt');
  const attachMenu = byId('attach-menu');

  function renderAttachments(): void {
    byId('attachments').replaceChildren(
      ...store.state.attachments.map((a) => {
        const label = `${a.fileName.split(/[\\/]/).pop()}:${a.startLine}-${a.endLine}`;
        const remove = iconButton('close', `${s('removeAttachment', 'Remove')} ${a.fileName}`, () => {
          store.dispatch({ type: 'attachment/remove', id: a.id });
          prompt().focus();
        });
        remove.classList.add('chip-remove');
        const chip = element('span', { className: 'chip', title: chipPreview(a) }, codicon('file'), label, remove);
        chip.setAttribute('aria-label', `${label} (${a.languageId})`);
        return chip;
      }),
    );
  }

  let countdown: number | undefined;
  /** The last Regenerate, until a prompt is sent: what the spend cap's "Send anyway" sends again. */
  let lastRegenerate: { turn: ChatTurn; model: string } | undefined;

  function render(): void {
    const { state } = store;
    const box = prompt();
    if (box.value !== state.draft) box.value = state.draft;
    const busy = state.pending !== null;
    renderQueued();
    renderEditing();
    byId<HTMLButtonElement>('send').hidden = busy;
    byId<HTMLButtonElement>('stop').hidden = !busy;
    const retry = byId('retry');
    clearInterval(countdown);
    if (state.pending?.retryUntil) {
      const tick = () => {
        const pending = store.state.pending;
        const left = Math.max(0, Math.ceil(((pending?.retryUntil ?? 0) - Date.now()) / 1000));
        // The wait's own wording by its error kind, else the general one.
        const wait = s(`wait.${pending?.retryKind ?? ''}` as UiKey, s('waiting', 'The service asked to wait;'));
        retry.textContent = `${wait} ${s('retryingIn', 'trying again in')} ${left} s`;
      };
      tick();
      countdown = window.setInterval(tick, 250);
      retry.hidden = false;
    } else retry.hidden = true;
  }

  /**
   * A prompt written while an answer streams waits above the box (issue 21 item 14): it is sent when the answer
   * ends well, and goes back into the box if the answer fails or is stopped. Edit and Cancel are words, not icons.
   */
  const queuedBox = element('div', { className: 'queued', id: 'queued' });
  queuedBox.hidden = true;
  const queuedLabel = element('div', { className: 'queued-label' }, codicon('clock'));
  const queuedText = element('div', { className: 'queued-text' });
  const queuedEdit = element('button', { type: 'button', className: 'text-button', id: 'queued-edit' });
  const queuedCancel = element('button', { type: 'button', className: 'text-button', id: 'queued-cancel' });
  queuedBox.append(queuedLabel, queuedText, element('div', { className: 'queued-actions' }, queuedEdit, queuedCancel));

  function renderQueued(): void {
    const { queued } = store.state;
    queuedBox.hidden = queued === null;
    if (!queued) return;
    queuedLabel.replaceChildren(codicon('clock'), s('queued', 'Queued — sends when this answer ends'));
    queuedText.textContent = queued.text;
    queuedEdit.textContent = s('queuedEdit', 'Edit');
    queuedCancel.textContent = s('queuedCancel', 'Cancel');
    queuedEdit.setAttribute('aria-label', s('queuedEditLabel', 'Edit the queued prompt'));
    queuedCancel.setAttribute('aria-label', s('queuedCancelLabel', 'Cancel the queued prompt'));
  }

  /** While a sent message is edited: what sending will do, and a way out that puts the box back as it was. */
  const editBanner = element('div', { className: 'editing-banner', id: 'editing' });
  editBanner.hidden = true;
  const editText = element('span', { className: 'editing-text' });
  const editCancel = element('button', { type: 'button', className: 'text-button', id: 'edit-cancel' });
  editBanner.append(codicon('edit'), editText, editCancel);

  function renderEditing(): void {
    const { editing, turns } = store.state;
    editBanner.hidden = editing === null;
    document.querySelectorAll('.turn.editing').forEach((node) => node.classList.remove('editing'));
    if (!editing) return;
    const index = turns.findIndex((t) => t.id === editing.turnId);
    const after = index < 0 ? 0 : turns.length - index - 1;
    editText.textContent =
      after === 0
        ? s('editingLast', 'Editing your message: sending replaces it.')
        : after === 1
          ? s('editingOne', 'Editing your message: sending replaces it and the answer after it.')
          : s('editingMany', 'Editing your message: sending replaces it and the {0} messages after it.').replace(
              '{0}',
              String(after),
            );
    editCancel.textContent = s('editCancel', 'Cancel edit');
    document.querySelector(`[data-turn-id="${editing.turnId}"]`)?.classList.add('editing');
  }

  function send(
    text: string,
    model = hooks.currentModel(),
    attachments = store.state.attachments,
    from: SendFrom = 'box',
    /** "Send anyway" on the spend cap's card: this prompt goes past the cap. */
    options: { overCap?: true } = {},
  ): void {
    if (text.trim() === '' || model === '') return;
    const { pending, editing } = store.state;
    if (pending) {
      // Regenerate and Retry are not offered while an answer streams; only the box queues.
      if (from !== 'box') return;
      store.dispatch({
        type: 'queue/add',
        queued: { text, attachments, model, ...(editing ? { replaceFrom: editing.turnId } : {}) },
      });
      prompt().value = '';
      render();
      renderAttachments();
      hooks.announce(s('queuedSaid', 'Queued: your prompt is sent when this answer ends.'));
      return;
    }
    lastRegenerate = undefined;
    const queued = from === 'queue' ? (store.state.queued ?? undefined) : undefined;
    const replaceFrom = from === 'box' ? editing?.turnId : queued?.replaceFrom;
    const requestId = newId();
    store.dispatch({ type: 'send/begin', requestId, ...(queued ? { queued } : {}) });
    render();
    post({
      type: 'chat/send',
      requestId,
      service: store.state.service,
      model,
      prompt: text,
      attachments,
      ...(replaceFrom ? { replaceFrom } : {}),
      ...options,
    });
  }

  /** Regenerate or Retry an answer: the host sends its prompt again from the turns before it, and puts the new one in its place. */
  function regenerate(turn: ChatTurn, model: string, options: { overCap?: true } = {}): void {
    // Not offered while an answer streams: the box queues, actions wait.
    if (store.state.pending || model === '') return;
    const requestId = newId();
    lastRegenerate = { turn, model };
    store.dispatch({ type: 'send/begin', requestId });
    render();
    // The answer's own service: the switch may show another one by now.
    post({ type: 'chat/regenerate', requestId, turnId: turn.id, service: turn.service, model, ...options });
  }

  /** The spend cap's "Send anyway": what it held back goes past the cap, a regenerate as one, else the box. */
  function sendAnyway(): void {
    const again = lastRegenerate;
    if (again) regenerate(again.turn, again.model, { overCap: true });
    else send(store.state.draft, undefined, undefined, 'box', { overCap: true });
  }

  /** The answer ended well: the queued prompt goes now. */
  function sendQueued(): void {
    const { queued } = store.state;
    if (!queued || store.state.pending) return;
    send(queued.text, queued.model, queued.attachments, 'queue');
  }

  function stop(): void {
    const { pending } = store.state;
    if (pending) post({ type: 'chat/stop', requestId: pending.requestId });
    prompt().focus();
  }

  /** The `+` menu: a button and a short menu of what to attach, driven by arrows, Enter and Escape. */
  function wireAttachMenu(): void {
    const button = byId<HTMLButtonElement>('attach');
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
        close(prompt());
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
      if (!attachMenu.hidden && !attachMenu.contains(e.target as Node) && !button.contains(e.target as Node))
        close(null);
    });
  }

  function wire(): void {
    const box = prompt();
    (box.closest('.input-box') ?? box).before(queuedBox, editBanner);
    queuedEdit.addEventListener('click', () => {
      store.dispatch({ type: 'queue/edit' });
      render();
      renderAttachments();
      box.focus();
    });
    queuedCancel.addEventListener('click', () => {
      store.dispatch({ type: 'queue/cancel' });
      render();
      hooks.announce(s('queuedCancelled', 'The queued prompt was cancelled.'));
      box.focus();
    });
    editCancel.addEventListener('click', () => {
      store.dispatch({ type: 'edit/cancel' });
      render();
      renderAttachments();
      box.focus();
    });
    box.addEventListener('input', () => store.dispatch({ type: 'draft/set', text: box.value }));
    box.addEventListener('keydown', (e) => {
      const intent = composerIntent(e, {
        enterSends: store.state.enterSends !== false,
        streaming: store.state.pending !== null,
        empty: box.value.trim() === '',
      });
      // Escape is handled once, by the document, which also stops when the focus is elsewhere.
      if (intent === 'none' || intent === 'stop') return;
      e.preventDefault();
      if (intent === 'send') send(box.value);
      else if (intent === 'recall') {
        const last = lastPrompt(store.state.turns);
        if (last === undefined) return;
        store.dispatch({ type: 'draft/set', text: last });
        box.value = last;
        box.setSelectionRange(last.length, last.length);
      }
    });
    byId('send').addEventListener('click', () => send(box.value));
    byId('stop').addEventListener('click', stop);
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || e.defaultPrevented || hooks.popupOpen() || !attachMenu.hidden) return;
      if (store.state.pending) {
        e.preventDefault();
        stop();
      }
    });
    wireAttachMenu();
  }

  return { render, renderAttachments, send, regenerate, sendAnyway, sendQueued, focus: () => prompt().focus(), wire };
}
