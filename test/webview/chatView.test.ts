// @vitest-environment jsdom
// The chat view as the person meets it: the real page (host/panelHtml.ts) and the real webview script
// (webview/main.ts), driven by the host's messages, as VS Code delivers them, and by clicks and keys.
// Copilot Chat is the reference for the moments checked here (microsoft/vscode
// src/vs/workbench/contrib/chat/browser/chatListRenderer.ts: the progress line before the first token;
// chatAccessibilityService.ts: an answer's start and end announced; actions/chatCopyActions.ts: Copy).
import { beforeAll, describe, expect, it } from 'vitest';
import type { HostMessage, WebviewMessage } from '../../src/shared/protocol.ts';
import { $, announced, openPanelPage, posted, send, turn, withRouterKey } from './panelPage.ts';

beforeAll(async () => {
  await openPanelPage();
  send({ type: 'panel/state', state: withRouterKey() });
});

describe('an answer, moment by moment', () => {
  const user = turn({ id: 'u1', role: 'user', text: 'Why is the sky blue?' });
  const streaming = turn({ id: 'a1', role: 'assistant', status: 'streaming' });

  it('shows and announces work before the first token, and marks the answer busy', () => {
    send({ type: 'chat/started', requestId: 'r1', user, assistant: streaming });
    const answer = $('[data-turn-id="a1"]')!;
    const working = answer.querySelector('.working');
    expect(working?.getAttribute('role')).toBe('status');
    expect(working?.textContent).toBe('Working…');
    expect(working?.querySelector('.codicon-loading')).not.toBeNull();
    expect(answer.getAttribute('aria-busy')).toBe('true');
    expect(announced()).toBe('Answer started.');
  });

  it('drops the progress line at the first token and says when the answer ends', () => {
    send({ type: 'chat/chunk', requestId: 'r1', text: 'Rayleigh **scattering**.' });
    expect($('[data-turn-id="a1"] .working')).toBeNull();
    send({
      type: 'chat/done',
      requestId: 'r1',
      turn: { ...streaming, status: 'done', text: 'Rayleigh **scattering**.' },
    });
    expect($('[data-turn-id="a1"]')!.hasAttribute('aria-busy')).toBe(false);
    expect(announced()).toBe('Answer finished.');
  });

  it('copies the whole answer as Markdown and says so, in words a screen reader hears', () => {
    const copy = $<HTMLButtonElement>('[data-turn-id="a1"] .message-actions button[aria-label="Copy the answer"]')!;
    expect(copy.title).toBe('Copy the answer');
    copy.click();
    expect(posted.at(-1)).toEqual({ type: 'code/copy', code: 'Rayleigh **scattering**.' });
    expect(copy.getAttribute('aria-label')).toBe('Copied');
    expect(announced()).toBe('Copied');
  });

  it('regenerates the last answer in its place: the host asks that answer again, the prompt is not sent anew', () => {
    const regenerate = $<HTMLButtonElement>('[data-turn-id="a1"] button[aria-label="Regenerate"]')!;
    regenerate.click();
    expect(posted.at(-1)).toMatchObject({
      type: 'chat/regenerate',
      turnId: 'a1',
      service: 'router',
      model: 'openrouter/free',
    });
  });

  it('queues a prompt written while an answer is coming, says so, and sends it when the answer ends well', () => {
    // The regenerate above is pending: nothing was sent back yet.
    const box = $<HTMLTextAreaElement>('#prompt')!;
    const regenerate = posted.at(-1) as { requestId: string };
    box.value = 'and at sunset?';
    box.dispatchEvent(new Event('input'));
    const before = posted.length;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    expect(posted.length).toBe(before);
    expect(box.value).toBe('');
    const queued = $('#queued')!;
    expect(queued.hidden).toBe(false);
    expect(queued.textContent).toContain('Queued — sends when this answer ends');
    expect(queued.textContent).toContain('and at sunset?');
    expect($('#queued-cancel')!.textContent).toBe('Cancel');
    expect($('#queued-edit')!.textContent).toBe('Edit');
    expect($('#announcer')!.getAttribute('role')).toBe('status');
    expect(announced()).toBe('Queued: your prompt is sent when this answer ends.');
    const answer = turn({ id: 'a9', role: 'assistant', status: 'streaming' });
    const user = turn({ id: 'u9', role: 'user', text: 'Why is the sky blue?' });
    send({ type: 'chat/started', requestId: regenerate.requestId, user, assistant: answer });
    send({ type: 'chat/done', requestId: regenerate.requestId, turn: { ...answer, status: 'done', text: 'Blue.' } });
    expect(posted.at(-1)).toMatchObject({ type: 'chat/send', prompt: 'and at sunset?', model: 'openrouter/free' });
    expect(posted.length).toBe(before + 1);
    expect(queued.hidden).toBe(true);
  });

  it('keeps a queued prompt in the box, not sent, when the answer is stopped; Cancel drops one, Edit brings it back', () => {
    const box = $<HTMLTextAreaElement>('#prompt')!;
    const enter = () =>
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    const running = posted.at(-1) as { requestId: string };
    box.value = 'one more';
    enter();
    const before = posted.length;
    const answer = turn({ id: 'a10', role: 'assistant', status: 'streaming' });
    const user = turn({ id: 'u10', role: 'user', text: 'and at sunset?' });
    send({ type: 'chat/started', requestId: running.requestId, user, assistant: answer });
    send({
      type: 'chat/error',
      requestId: running.requestId,
      turn: { ...answer, status: 'cancelled', text: 'Red' },
      prompt: 'and at sunset?',
    });
    expect(posted.length).toBe(before);
    expect(box.value).toBe('one more');
    expect($('#queued')!.hidden).toBe(true);
    expect(announced()).toBe('Answer stopped. Your queued prompt is back in the box, not sent.');
    // Queued again behind a new answer: Cancel drops it, Edit puts it back in the box.
    enter();
    const go = posted.at(-1) as { requestId: string };
    box.value = 'queued';
    enter();
    expect($('#queued')!.hidden).toBe(false);
    $<HTMLButtonElement>('#queued-cancel')!.click();
    expect($('#queued')!.hidden).toBe(true);
    expect(box.value).toBe('');
    box.value = 'again';
    enter();
    $<HTMLButtonElement>('#queued-edit')!.click();
    expect(box.value).toBe('again');
    expect($('#queued')!.hidden).toBe(true);
    send({ type: 'chat/blocked', requestId: go.requestId, prompt: '' } as HostMessage);
    box.value = '';
    box.dispatchEvent(new Event('input'));
  });

  it('edits a sent message in the box: the banner says what sending replaces, and the send names the message', () => {
    // jsdom lays nothing out: what matters is which message the chat brings into view (issue 31 item 21).
    const revealed: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      revealed.push(this);
    };
    $<HTMLButtonElement>('[data-turn-id="u1"] button[aria-label="Edit and send again"]')!.click();
    expect(revealed.at(-1)).toBe($('[data-turn-id="u1"]'));
    const box = $<HTMLTextAreaElement>('#prompt')!;
    expect(box.value).toBe('Why is the sky blue?');
    expect(document.activeElement?.id).toBe('prompt');
    const banner = $('#editing')!;
    expect(banner.hidden).toBe(false);
    expect(banner.textContent).toMatch(/sending replaces it and the \d+ messages after it/);
    expect($('[data-turn-id="u1"]')!.classList.contains('editing')).toBe(true);
    box.value = 'Why is the sea blue?';
    box.dispatchEvent(new Event('input'));
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    const sent = posted.at(-1) as { requestId: string };
    expect(sent).toMatchObject({ type: 'chat/send', prompt: 'Why is the sea blue?', replaceFrom: 'u1' });
    const count = document.querySelectorAll('#conversation .turn').length;
    send({
      type: 'chat/started',
      requestId: sent.requestId,
      user: turn({ id: 'u1b', role: 'user', text: 'Why is the sea blue?' }),
      assistant: turn({ id: 'a1b', role: 'assistant', status: 'streaming' }),
      replaced: { fromTurnId: 'u1', count },
    });
    // The conversation continues from the edited message; the note offers Undo where the old turns were.
    const shown = Array.from(document.querySelectorAll<HTMLElement>('#conversation .turn')).map(
      (n) => n.dataset.turnId,
    );
    expect(shown).toEqual(['u1b', 'a1b']);
    expect($('.replaced-note')!.textContent).toContain(
      `Your edit replaced the earlier message and the ${count - 1} after it.`,
    );
    expect($('#editing')!.hidden).toBe(true);
    $<HTMLButtonElement>('#undo-edit')!.click();
    expect(posted.at(-1)).toEqual({ type: 'history/undoEdit' });
    send({ type: 'chat/done', requestId: sent.requestId, turn: turn({ id: 'a1b', role: 'assistant', text: 'Salt.' }) });
  });

  it('Cancel edit puts the box back as it was', () => {
    const box = $<HTMLTextAreaElement>('#prompt')!;
    box.value = 'half a thought';
    box.dispatchEvent(new Event('input'));
    $<HTMLButtonElement>('[data-turn-id="u1b"] button[aria-label="Edit and send again"]')!.click();
    expect(box.value).toBe('Why is the sea blue?');
    expect($('#editing')!.textContent).toContain('Editing your message: sending replaces it and the answer after it.');
    $<HTMLButtonElement>('#edit-cancel')!.click();
    expect(box.value).toBe('half a thought');
    expect($('#editing')!.hidden).toBe(true);
    box.value = '';
    box.dispatchEvent(new Event('input'));
  });

  it('offers Retry under an answer that broke off, and keeps its note in the text colour with a coloured icon', () => {
    const broken = turn({ id: 'a2', role: 'assistant', status: 'interrupted', text: 'Partly' });
    send({
      type: 'chat/started',
      requestId: 'r2',
      user: turn({ id: 'u2', role: 'user', text: 'More' }),
      assistant: { ...broken, status: 'streaming', text: '' },
    });
    send({ type: 'chat/error', requestId: 'r2', turn: broken, prompt: 'More' });
    const note = $('[data-turn-id="a2"] .interrupted')!;
    expect(note.querySelector('.codicon-warning')).not.toBeNull();
    $<HTMLButtonElement>('[data-turn-id="a2"] button[aria-label="Retry the answer"]')!.click();
    expect(posted.at(-1)).toMatchObject({ type: 'chat/regenerate', turnId: 'a2' });
    const retry = posted.at(-1) as { requestId: string };
    // The host answers in place: the broken answer's place takes the new one, the prompt is not repeated.
    send({
      type: 'chat/started',
      requestId: retry.requestId,
      user: turn({ id: 'u2', role: 'user', text: 'More' }),
      assistant: turn({ id: 'a3', role: 'assistant', status: 'streaming' }),
      regenerates: 'a2',
    });
    const ids = () =>
      Array.from(document.querySelectorAll<HTMLElement>('#conversation .turn')).map((n) => n.dataset.turnId);
    expect(ids().slice(-2)).toEqual(['u2', 'a3']);
    send({
      type: 'chat/done',
      requestId: retry.requestId,
      turn: turn({ id: 'a3', role: 'assistant', text: 'More, whole.', versions: [broken], versionIndex: 1 }),
    });
    expect(ids().slice(-2)).toEqual(['u2', 'a3']);
  });

  // Issue 31 item 4: the replaced answer stays reachable, as Copilot Chat pages through the responses to one request.
  it('shows a regenerated answer as "2 of 2" with previous and next, and pages through its versions', () => {
    const group = $('[data-turn-id="a3"] .answer-versions')!;
    expect(group.getAttribute('role')).toBe('group');
    expect(group.getAttribute('aria-label')).toBe('Answer versions');
    expect(group.textContent).toContain('2 of 2');
    const previous = group.querySelector<HTMLButtonElement>('button[aria-label="Previous version"]')!;
    expect(group.querySelector<HTMLButtonElement>('button[aria-label="Next version"]')!.disabled).toBe(true);
    previous.click();
    expect(posted.at(-1)).toEqual({ type: 'chat/showVersion', turnId: 'a3', index: 0 });
    const shown = turn({
      id: 'a3',
      role: 'assistant',
      status: 'interrupted',
      text: 'Partly',
      versions: [turn({ id: 'a3x', role: 'assistant', text: 'More, whole.' })],
      versionIndex: 0,
    });
    send({ type: 'chat/turn', turn: shown });
    expect($('[data-turn-id="a3"] .answer')!.textContent).toContain('Partly');
    expect($('[data-turn-id="a3"] .answer-versions')!.textContent).toContain('1 of 2');
  });

  it('sends a regenerate the spend cap held back past it on "Send anyway", not what the box holds', () => {
    const box = $<HTMLTextAreaElement>('#prompt')!;
    box.value = 'a draft';
    box.dispatchEvent(new Event('input'));
    $<HTMLButtonElement>(
      '[data-turn-id="a3"] button[aria-label="Retry the answer"], [data-turn-id="a3"] button[aria-label="Regenerate"]',
    )!.click();
    const held = posted.at(-1) as { requestId: string };
    expect(held).toMatchObject({ type: 'chat/regenerate', turnId: 'a3' });
    send({ type: 'chat/spendCap', requestId: held.requestId, spent: '$5.00', cap: '$5.00' });
    Array.from(document.querySelectorAll<HTMLButtonElement>('#spend-cap button'))
      .find((b) => b.textContent === 'Send anyway')!
      .click();
    expect(posted.at(-1)).toMatchObject({ type: 'chat/regenerate', turnId: 'a3', overCap: true });
    expect(box.value).toBe('a draft');
    send({ type: 'chat/blocked', requestId: (posted.at(-1) as { requestId: string }).requestId, prompt: '' });
    box.value = '';
    box.dispatchEvent(new Event('input'));
  });
});

// Issue 21 item 8: Apply sends the file the fence names, and Keep / Undo are words under the block.
describe('Apply from a code block', () => {
  it('sends the named file with the block, shows Keep and Undo in words, and says where it stands', () => {
    const answer = turn({ id: 'a20', role: 'assistant', status: 'streaming' });
    send({
      type: 'chat/started',
      requestId: 'r20',
      user: turn({ id: 'u20', role: 'user', text: 'fix it' }),
      assistant: answer,
    });
    const text = 'Here:\n\n```js src/app.js\nfunction f() {}\n```\n';
    send({ type: 'chat/done', requestId: 'r20', turn: { ...answer, status: 'done', text } });
    const block = $('[data-turn-id="a20"] .code-block')!;
    expect(block.querySelector('.code-file')?.textContent).toBe('src/app.js');
    block.querySelector<HTMLButtonElement>('button[aria-label^="Apply"]')!.click();
    const apply = posted.at(-1) as Extract<WebviewMessage, { type: 'code/apply' }>;
    expect(apply).toMatchObject({ type: 'code/apply', languageId: 'js src/app.js', turnId: 'a20' });
    expect(apply.code).toBe('function f() {}\n');
    send({ type: 'code/applyState', applyId: apply.applyId!, state: 'pending', file: 'src/app.js' });
    const status = $('[data-turn-id="a20"] .apply-status')!;
    expect(status.textContent).toContain('Applied to src/app.js. Keep the change or undo it:');
    const buttons = Array.from(status.querySelectorAll('button'));
    expect(buttons.map((b) => [b.textContent, b.getAttribute('aria-label')])).toEqual([
      ['Keep', 'Keep the change in src/app.js'],
      ['Undo', 'Undo the change in src/app.js'],
    ]);
    expect(announced()).toBe('Applied to src/app.js. Keep the change or undo it:');
    buttons[1]!.click();
    expect(posted.at(-1)).toEqual({ type: 'code/applyResolve', applyId: apply.applyId, keep: false });
    send({ type: 'code/applyState', applyId: apply.applyId!, state: 'undone', file: 'src/app.js' });
    expect($('[data-turn-id="a20"] .apply-status')!.textContent).toContain('Undone: src/app.js is as it was.');
    expect($('[data-turn-id="a20"] .apply-status button')).toBeNull();
  });
});

describe('the page', () => {
  it('has one main landmark holding the conversation log, a level-one heading, and a named group for chips', () => {
    expect(document.querySelectorAll('main')).toHaveLength(1);
    expect($('main')!.getAttribute('role')).toBeNull();
    expect($('main #conversation')!.getAttribute('role')).toBe('log');
    // The message list is reached by Tab and scrolled by the arrow keys, as Copilot Chat's list is.
    expect($('#conversation')!.tabIndex).toBe(0);
    expect($('h1')?.textContent).toBe('Keyward');
    expect($('#attachments')!.getAttribute('role')).toBe('group');
  });

  it("tells the host when its frame gains and loses the focus, for the chat's keybindings (Alt+F2)", () => {
    window.dispatchEvent(new Event('focus'));
    expect(posted.at(-1)).toEqual({ type: 'focus/changed', focused: true });
    window.dispatchEvent(new Event('blur'));
    expect(posted.at(-1)).toEqual({ type: 'focus/changed', focused: false });
  });
});
