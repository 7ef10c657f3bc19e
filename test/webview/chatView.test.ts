// @vitest-environment jsdom
// The chat view as the person meets it: the real page (host/panelHtml.ts) and the real webview script
// (webview/main.ts), driven by the host's messages, as VS Code delivers them, and by clicks and keys.
// Copilot Chat is the reference for the moments checked here (microsoft/vscode
// src/vs/workbench/contrib/chat/browser/chatListRenderer.ts: the progress line before the first token;
// chatAccessibilityService.ts: an answer's start and end announced; actions/chatCopyActions.ts: Copy).
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPanelHtml } from '../../src/host/chat/panelHtml.ts';
import type { ChatTurn, HostMessage, WebviewMessage } from '../../src/shared/protocol.ts';
import { initialState } from '../../src/webview/viewState.ts';

const posted: WebviewMessage[] = [];
const send = (data: HostMessage) => window.dispatchEvent(new MessageEvent('message', { data }));
const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector);
const announced = () => $('#announcer')?.textContent?.trim();

const turn = (fields: Partial<ChatTurn> & Pick<ChatTurn, 'id' | 'role'>): ChatTurn => ({
  text: '',
  service: 'router',
  model: 'openrouter/free',
  status: 'done',
  ...fields,
});

beforeAll(async () => {
  const html = buildPanelHtml({
    cspSource: 'vscode-resource:',
    nonce: 'n',
    scriptUri: 'main.js',
    styleUri: 'panel.css',
    lang: 'en',
    strings: {},
  });
  document.documentElement.innerHTML = html.replace(/<!DOCTYPE html>|<script[^]*?<\/script>/g, '');
  Object.assign(globalThis, {
    acquireVsCodeApi: () => ({
      postMessage: (m: WebviewMessage) => posted.push(m),
      getState: () => undefined,
      setState() {},
    }),
    // A frame is drawn at once and idle work never comes: each message's effect is on the page when it returns.
    requestAnimationFrame: (draw: FrameRequestCallback) => (draw(0), 0),
    cancelAnimationFrame: () => undefined,
    requestIdleCallback: () => 0,
  });
  await import('../../src/webview/main.ts');
  send({ type: 'panel/state', state: { ...initialState(), hasKey: { ...initialState().hasKey, router: true } } });
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

  it('regenerates the last answer: the same prompt to the same model', () => {
    const regenerate = $<HTMLButtonElement>('[data-turn-id="a1"] button[aria-label="Regenerate"]')!;
    regenerate.click();
    expect(posted.at(-1)).toMatchObject({
      type: 'chat/send',
      prompt: 'Why is the sky blue?',
      model: 'openrouter/free',
    });
  });

  it('says what Enter does while an answer is coming, and keeps the prompt in the box', () => {
    // The regenerate above is pending: nothing was sent back yet.
    const box = $<HTMLTextAreaElement>('#prompt')!;
    box.value = 'and at sunset?';
    const before = posted.length;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    expect(posted.length).toBe(before);
    expect(box.value).toBe('and at sunset?');
    const hint = $('#composer-hint')!;
    expect(hint.hidden).toBe(false);
    expect(hint.getAttribute('role')).toBe('status');
    expect(hint.textContent).toContain('Escape');
    send({
      type: 'chat/blocked',
      requestId: (posted.at(-1) as { requestId: string }).requestId,
      prompt: '',
    } as HostMessage);
    expect(hint.hidden).toBe(true);
  });

  it('puts a sent prompt back in the box to edit and send again', () => {
    $<HTMLButtonElement>('[data-turn-id="u1"] button[aria-label="Edit and send again"]')!.click();
    expect($<HTMLTextAreaElement>('#prompt')!.value).toBe('Why is the sky blue?');
    expect(document.activeElement?.id).toBe('prompt');
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
    expect(posted.at(-1)).toMatchObject({ type: 'chat/send', prompt: 'More' });
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
});
