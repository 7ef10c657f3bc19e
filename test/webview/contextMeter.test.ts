// @vitest-environment jsdom
// The meter under the prompt box and the warning before a prompt that overflows the window, on the real page
// (host/panelHtml.ts) and the real webview script (webview/main.ts), driven by the host's messages and by clicks.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatTurn, ModelOption, PanelState } from '../../src/shared/protocol.ts';
import { initialState } from '../../src/webview/viewState.ts';
import { $, openPanelPage, posted, send, turn as freeTurn, withRouterKey } from './panelPage.ts';

const meter = () => $('#context-meter')!.textContent!.replace(/\s+/g, ' ').trim();
const box = () => $<HTMLTextAreaElement>('#prompt')!;
const type = (text: string) => {
  box().value = text;
  box().dispatchEvent(new Event('input'));
};
const button = (text: string) =>
  Array.from(document.querySelectorAll<HTMLButtonElement>('#overflow button')).find((b) => b.textContent === text);

const mini: ModelOption = {
  id: 'openai/gpt-4o-mini',
  name: 'GPT-4o-mini',
  free: false,
  inputPerMillion: 0.15,
  outputPerMillion: 0.6,
  contextLength: 128_000,
};
const tiny: ModelOption = { ...mini, id: 'openai/gpt-4o-tiny', name: 'Tiny', contextLength: 400 };
const turn = (fields: Partial<ChatTurn> & Pick<ChatTurn, 'id' | 'role'>): ChatTurn =>
  freeTurn({ model: mini.id, ...fields });
const turns = [
  turn({ id: 'u1', role: 'user', text: 'Why is the sky blue?' }),
  turn({
    id: 'a1',
    role: 'assistant',
    text: 'Rayleigh scattering.',
    usage: { inputTokens: 1000, outputTokens: 234, totalTokens: 1234 },
    costUsd: 0.0021,
  }),
];

function state(model: string, fields: Partial<PanelState> = {}): PanelState {
  const base = initialState();
  return withRouterKey({
    models: { ...base.models, router: [mini, tiny] },
    selectedModel: { ...base.selectedModel, router: model },
    turns,
    conversationId: 'c1',
    ...fields,
  });
}

beforeAll(openPanelPage);

describe('the meter under the prompt box', () => {
  it('says the conversation’s tokens against the window and the reported cost, in words, under the box', () => {
    send({ type: 'panel/state', state: state(mini.id) });
    const node = $('#context-meter')!;
    expect(node.previousElementSibling?.classList.contains('input-box')).toBe(true);
    expect(meter()).toBe('Conversation size and cost: 1,234 of 128,000 tokens (1%) · cost $0.0021');
    expect(node.querySelector('.context-bar')!.getAttribute('aria-hidden')).toBe('true');
    expect(node.dataset.level).toBe('ok');
  });

  it('follows the draft as it is typed', () => {
    type('And at sunset, why is it red?');
    expect(meter()).toMatch(/^Conversation size and cost: 1,2(4|5)\d of 128,000 tokens/);
    type('');
  });

  it('says "window unknown" when the model list gives none, and "estimate" for a family with no known tokenizer', () => {
    const claude = { ...mini, id: 'anthropic/claude-sonnet-4', contextLength: null, inputPerMillion: null };
    send({
      type: 'panel/state',
      state: state(claude.id, {
        models: { ...initialState().models, router: [claude] },
        turns: [
          turn({ id: 'u9', role: 'user', text: 'Hello there' }),
          turn({ id: 'a9', role: 'assistant', text: 'Hi', model: claude.id }),
        ],
      }),
    });
    expect(meter()).toMatch(
      /^Conversation size and cost: \d+ tokens, window unknown \(estimate\) · cost unknown: the service reports none$/,
    );
    expect($('#context-meter .context-bar')!.hidden).toBe(true);
  });

  it('says "nearly full" in words when the conversation nears the window', () => {
    send({
      type: 'panel/state',
      state: state(tiny.id, {
        turns: [turns[0]!, { ...turns[1]!, usage: { inputTokens: 300, outputTokens: 30, totalTokens: 330 } }],
      }),
    });
    expect(meter()).toBe('Conversation size and cost: 330 of 400 tokens (83%), nearly full · cost $0.0021');
    expect($('#context-meter')!.dataset.level).toBe('high');
  });
});

describe('a prompt that would overflow the window', () => {
  const long = 'Please read all of this carefully. '.repeat(20);

  it('is held back with a warning that says why, the prompt still in the box', () => {
    send({
      type: 'panel/state',
      state: state(tiny.id, {
        turns: [turns[0]!, { ...turns[1]!, usage: { inputTokens: 300, outputTokens: 30, totalTokens: 330 } }],
      }),
    });
    posted.length = 0;
    type(long);
    $<HTMLButtonElement>('#send')!.click();
    expect(posted.filter((m) => m.type === 'chat/send')).toEqual([]);
    const card = $('#overflow .overflow-card')!;
    expect($('#overflow')!.hidden).toBe(false);
    expect(card.getAttribute('role')).toBe('alert');
    expect(card.textContent).toContain('This prompt may not fit the model’s context window');
    expect(card.textContent).toMatch(/comes to \d+ of 400 tokens \(\d+%\), over the window/);
    expect(box().value).toBe(long);
    expect(button('Start a new conversation with a summary')).toBeDefined();
    expect(meter()).toMatch(/over the window/);
  });

  it('goes on "Send anyway"', () => {
    button('Send anyway')!.click();
    expect(posted.at(-1)).toMatchObject({ type: 'chat/send', model: tiny.id, prompt: long });
    expect($('#overflow')!.hidden).toBe(true);
    send({ type: 'chat/blocked', requestId: (posted.at(-1) as { requestId: string }).requestId, prompt: long });
  });

  it('starts a new conversation with a summary: the old one set aside, the summary and prompt in the new box, unsent', () => {
    $<HTMLButtonElement>('#send')!.click();
    posted.length = 0;
    button('Start a new conversation with a summary')!.click();
    expect(posted).toEqual([{ type: 'history/clear' }]);
    // The host set the conversation aside and shows a new one.
    send({ type: 'panel/state', state: state(tiny.id, { turns: [], conversationId: 'c2' }) });
    expect(box().value).toMatch(
      /^A summary of our earlier conversation \(Keyward kept the start of each message\):\n- I asked: Why is the sky blue\?\n {2}You answered: Rayleigh scattering\.\n\nPlease read all of this carefully\./,
    );
    expect(posted.filter((m) => m.type === 'chat/send')).toEqual([]);
    expect($('#announcer')!.textContent).toContain('A new conversation started');
  });

  it('is not held back when it fits', () => {
    send({ type: 'panel/state', state: state(mini.id, { conversationId: 'c3' }) });
    posted.length = 0;
    type('A short question.');
    $<HTMLButtonElement>('#send')!.click();
    expect(posted.at(-1)).toMatchObject({ type: 'chat/send', prompt: 'A short question.' });
  });
});
