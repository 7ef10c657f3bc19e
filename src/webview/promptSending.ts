// Sending from the composer: a prompt from the box (queued while an answer streams, or replacing an edited
// message), the queued prompt when an answer ends, Regenerate/Retry, and the spend cap's "Send anyway".
import type { Attachment, ChatTurn, WebviewMessage } from '../shared/protocol.ts';
import type { PromptImage } from '../shared/promptImages.ts';
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

export interface SendingParts {
  store: ChatStore;
  hooks: ComposerHooks;
  prompt(): HTMLTextAreaElement;
  /** Draws the composer again after the store changed. */
  render(): void;
  renderAttachments(): void;
  /** The images pasted or dropped into the box (imageTray.ts), sent with a prompt from the box. */
  tray?: { images(): PromptImage[]; refusal(): string | undefined };
  /** Says under the box why nothing was sent. */
  note?(text: string): void;
}

/**
 * The images to send with a prompt from the box, or undefined when they cannot go (said under the box): an image
 * goes only to a model that reads images, and only with a prompt sent now (a queued one carries none).
 */
function boxImages(
  streaming: boolean,
  { tray, note, s }: Pick<SendingParts, 'tray' | 'note'> & { s: ChatStore['s'] },
): PromptImage[] | undefined {
  const images = tray?.images() ?? [];
  if (images.length === 0) return images;
  const refused = streaming
    ? s('image.notQueued', 'An image goes with a prompt sent now, not a queued one: wait for the answer to end.')
    : tray?.refusal();
  if (!refused) return images;
  note?.(refused);
  return undefined;
}

/** While an answer streams the box queues its prompt, which is sent when the answer ends well. */
function queue(
  { store, hooks, prompt, render, renderAttachments }: SendingParts,
  prompted: { text: string; model: string; attachments: Attachment[] },
): void {
  const { editing } = store.state;
  store.dispatch({
    type: 'queue/add',
    queued: { ...prompted, ...(editing ? { replaceFrom: editing.turnId } : {}) },
  });
  prompt().value = '';
  render();
  renderAttachments();
  hooks.announce(store.s('queuedSaid', 'Queued: your prompt is sent when this answer ends.'));
}

export function createPromptSending({ store, hooks, prompt, render, renderAttachments, tray, note }: SendingParts) {
  const { s } = store;
  /** The last Regenerate, until a prompt is sent: what the spend cap's "Send anyway" sends again. */
  let lastRegenerate: { turn: ChatTurn; model: string } | undefined;

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
    const images = from === 'box' ? boxImages(pending !== null, { tray, note, s }) : [];
    if (!images) return;
    // Regenerate and Retry are not offered while an answer streams; only the box queues.
    if (pending) {
      if (from === 'box') queue({ store, hooks, prompt, render, renderAttachments }, { text, model, attachments });
      return;
    }
    lastRegenerate = undefined;
    const queued = from === 'queue' ? (store.state.queued ?? undefined) : undefined;
    const replaceFrom = from === 'box' ? editing?.turnId : queued?.replaceFrom;
    const requestId = newId();
    store.dispatch({ type: 'send/begin', requestId, ...(queued ? { queued } : {}) });
    render();
    hooks.post({
      type: 'chat/send',
      requestId,
      service: store.state.service,
      model,
      prompt: text,
      attachments,
      ...(replaceFrom ? { replaceFrom } : {}),
      ...(images.length > 0 ? { images } : {}),
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
    hooks.post({ type: 'chat/regenerate', requestId, turnId: turn.id, service: turn.service, model, ...options });
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

  return { send, regenerate, sendAnyway, sendQueued };
}
