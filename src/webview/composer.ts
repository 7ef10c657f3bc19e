// The composer: the prompt box with its draft, the attached-code chips, the `+` menu, Send and Stop,
// and the line that counts down while the service asked to wait. Its parts: attachmentChips.ts, attachMenu.ts,
// composerBanners.ts (queued prompt, edit banner), retryCountdown.ts, promptSending.ts, promptKeys.ts, the meter
// under the box (contextMeter.ts) and the warning before a prompt that would overflow the window (overflowWarning.ts).
import { wireAttachMenu } from './attachMenu.ts';
import { renderAttachments as drawChips } from './attachmentChips.ts';
import { createEditBanner, createQueuedBox } from './composerBanners.ts';
import { createContextMeter } from './contextMeter.ts';
import { byId } from './dom.ts';
import { wirePromptKeys } from './promptKeys.ts';
import { type ComposerHooks, createPromptSending } from './promptSending.ts';
import { createRetryCountdown } from './retryCountdown.ts';
import { boxSending } from './overflowWarning.ts';
import { createComposerContext } from './composerContext.ts';
import type { ChatStore } from './store.ts';

export type { ComposerHooks, SendFrom } from './promptSending.ts';

export function createComposer(store: ChatStore, hooks: ComposerHooks) {
  const { s } = store;
  const prompt = () => byId<HTMLTextAreaElement>('prompt');
  const attachMenu = byId('attach-menu');
  const queued = createQueuedBox(s);
  const editBanner = createEditBanner(s);
  const renderRetry = createRetryCountdown(store);
  const context = createComposerContext(store, hooks, prompt);
  const { note, tray, completion } = context;
  const renderAttachments = () => {
    drawChips(store, prompt);
    context.sentText.render();
  };
  const meter = createContextMeter(store, hooks.currentModel);

  function render(): void {
    const { state } = store;
    const box = prompt();
    if (box.value !== state.draft) box.value = state.draft;
    const busy = state.pending !== null;
    queued.render(state);
    editBanner.render(state);
    byId<HTMLButtonElement>('send').hidden = busy;
    byId<HTMLButtonElement>('stop').hidden = !busy;
    renderRetry();
    overflow.update();
    meter.schedule();
  }

  const sending = createPromptSending({ store, hooks, prompt, render, renderAttachments, tray, note });
  const focusRender = () => (render(), prompt().focus());
  const { overflow, sendFromBox } = boxSending(store, { ...hooks, render: focusRender }, sending.send);

  function stop(): void {
    const { pending } = store.state;
    if (pending) hooks.post({ type: 'chat/stop', requestId: pending.requestId });
    prompt().focus();
  }

  /** A banner's button changes the store, and the focus goes back to the box. */
  function onClick(button: HTMLElement, action: () => void): void {
    button.addEventListener('click', () => {
      action();
      render();
      prompt().focus();
    });
  }

  function wire(): void {
    const box = prompt();
    const inputBox = box.closest('.input-box') ?? box;
    inputBox.before(queued.box, editBanner.banner, overflow.slot);
    context.wire();
    inputBox.after(meter.node);
    // Under the box, above the note and "Show what is sent"; it follows every change, once a frame.
    store.subscribe(() => meter.schedule());
    onClick(queued.edit, () => {
      store.dispatch({ type: 'queue/edit' });
      renderAttachments();
    });
    onClick(queued.cancel, () => {
      store.dispatch({ type: 'queue/cancel' });
      hooks.announce(s('queuedCancelled', 'The queued prompt was cancelled.'));
    });
    onClick(editBanner.cancel, () => {
      store.dispatch({ type: 'edit/cancel' });
      renderAttachments();
    });
    byId('send').addEventListener('click', () => sendFromBox(box.value));
    byId('stop').addEventListener('click', stop);
    wirePromptKeys(box, store, {
      send: sendFromBox,
      stop,
      popupOpen: () => hooks.popupOpen() || !attachMenu.hidden || completion.isOpen(),
    });
    wireAttachMenu(attachMenu, prompt, hooks.post);
  }

  return { render, renderAttachments, ...sending, note, focus: () => prompt().focus(), wire };
}
