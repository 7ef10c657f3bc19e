// The warning before a prompt that would overflow the selected model's context window: the prompt stays in the box,
// and the card above it offers the way out, "Start a new conversation with a summary" (the conversation is set
// aside in the history as Clear does, and the new one's prompt box holds a summary built from it, then the prompt:
// shared/conversationSummary.ts says why it is built here and not asked of a model), or "Send anyway", since a
// service may cut or compress the conversation itself, or refuse it with its own error.
import { conversationSummary } from '../shared/conversationSummary.ts';
import type { WebviewMessage } from '../shared/protocol.ts';
import { meterFigures, selectedOption, tokensText } from './contextMeter.ts';
import { codicon, element, iconButton } from './dom.ts';
import type { ChatStore } from './store.ts';

/** The summary takes at most this share of the window (and never more than SUMMARY_MAX tokens). */
const SUMMARY_SHARE = 0.25;
const SUMMARY_MAX = 2000;

export interface OverflowHooks {
  post(message: WebviewMessage): void;
  currentModel(): string;
  /** Sends the box's prompt past the warning. */
  sendAnyway(text: string): void;
  announce(text: string): void;
  /** Draws the composer again and puts the focus in the prompt box. */
  render(): void;
}

/** The summary a new conversation starts with, within a share of the model's window. */
function summaryOf(store: ChatStore, model: string): string {
  const { s } = store;
  const window = selectedOption(store, model)?.contextLength ?? SUMMARY_MAX * 4;
  return conversationSummary(
    store.state.turns,
    {
      heading: s('summary.heading', 'A summary of our earlier conversation (Keyward kept the start of each message):'),
      asked: s('summary.asked', 'I asked:'),
      answered: s('summary.answered', 'You answered:'),
      leftOut: s('summary.leftOut', '({0} earlier exchanges are left out.)'),
    },
    model,
    Math.min(SUMMARY_MAX, Math.floor(window * SUMMARY_SHARE)),
  );
}

interface CardActions {
  dismiss(): void;
  summarize(): void;
  sendAnyway(): void;
}

/** The card: what the conversation comes to with the prompt, that it was not sent, and the ways on. */
function overflowCard(store: ChatStore, model: string, actions: CardActions): HTMLElement {
  const { s } = store;
  const card = element('div', { className: 'overflow-card' });
  card.setAttribute('role', 'alert');
  const head = element(
    'div',
    { className: 'spend-cap-head' },
    codicon('warning'),
    element('span', {
      className: 'spend-cap-title',
      textContent: s('overflow.title', 'This prompt may not fit the model’s context window'),
    }),
    element('span', { className: 'spacer' }),
    iconButton('close', s('overflow.dismiss', 'Close'), actions.dismiss, 'overflow-close'),
  );
  const detail = s(
    'overflow.detail',
    'With it the conversation comes to {0}. The service may refuse it or leave out the oldest part. Your prompt was not sent; it is still in the box.',
  ).replace('{0}', tokensText(store, meterFigures(store, model)));
  const buttons = element('div', { className: 'error-buttons' });
  const button = (label: string, action: string, primary: boolean, onClick: () => void) => {
    const b = element('button', { type: 'button', textContent: label, className: primary ? 'primary' : '' });
    b.dataset.action = action;
    b.addEventListener('click', onClick);
    buttons.append(b);
  };
  // An empty conversation has nothing to summarise: the prompt alone is too long, and only sending it is left.
  const empty = store.state.turns.length === 0;
  if (!empty)
    button(s('overflow.summary', 'Start a new conversation with a summary'), 'summary', true, actions.summarize);
  button(s('overflow.sendAnyway', 'Send anyway'), 'send', empty, actions.sendAnyway);
  card.append(head, element('div', { className: 'spend-cap-note', textContent: detail }), buttons);
  return card;
}

/** The composer's way to send from the box: through the warning, which "Send anyway" passes. */
export function boxSending(store: ChatStore, hooks: Omit<OverflowHooks, 'sendAnyway'>, send: (text: string) => void) {
  const overflow = createOverflowWarning(store, { ...hooks, sendAnyway: send });
  const sendFromBox = (text: string) => {
    if (!overflow.holdBack(text)) send(text);
  };
  return { overflow, sendFromBox };
}

export function createOverflowWarning(store: ChatStore, hooks: OverflowHooks) {
  const { s } = store;
  const slot = element('div', { className: 'overflow-slot', id: 'overflow' });
  slot.hidden = true;
  /** The summary and prompt waiting for the new conversation the host is starting. */
  let carry: { text: string; from: string | undefined } | undefined;

  const overflows = (draft: string) => {
    const model = hooks.currentModel();
    if (model === '') return false;
    const f = meterFigures(store, model, draft);
    return f.window !== null && f.conversation + f.draft > f.window;
  };

  function summarize(): void {
    carry = {
      text: `${summaryOf(store, hooks.currentModel())}\n\n${store.state.draft}`,
      from: store.state.conversationId,
    };
    // The prompt moves with the summary: the conversation set aside keeps no draft of it.
    store.dispatch({ type: 'draft/set', text: '' });
    hide();
    hooks.post({ type: 'history/clear' });
  }

  /** The host shows the new conversation: its box takes the summary and the prompt, not sent. */
  function arrived(): void {
    if (!carry || store.state.conversationId === carry.from || store.state.turns.length > 0) return;
    const { text } = carry;
    carry = undefined;
    store.dispatch({ type: 'draft/set', text });
    hooks.render();
    hooks.announce(
      s(
        'overflow.started',
        'A new conversation started; the summary and your prompt are in the box, not sent. The old one is in the history.',
      ),
    );
  }

  function hide(): void {
    slot.hidden = true;
    slot.replaceChildren();
  }

  function show(): void {
    const card = overflowCard(store, hooks.currentModel(), {
      dismiss: () => (hide(), hooks.render()),
      summarize,
      sendAnyway() {
        const text = store.state.draft;
        hide();
        hooks.sendAnyway(text);
      },
    });
    slot.replaceChildren(card);
    slot.hidden = false;
  }

  /** Before a prompt from the box goes: true when it would overflow, and the warning is shown instead. */
  function holdBack(text: string): boolean {
    if (!overflows(text)) return false;
    show();
    return true;
  }

  /** A prompt that fits now (shortened, another model) needs no warning; a new conversation brings its summary. */
  function update(): void {
    arrived();
    if (!slot.hidden && !overflows(store.state.draft)) hide();
  }

  return { slot, holdBack, update };
}
