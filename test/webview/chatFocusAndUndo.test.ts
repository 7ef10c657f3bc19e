// @vitest-environment jsdom
// The chat's keyboard bounds and Clear's way back, on the real page (host/panelHtml.ts) and script
// (webview/main.ts): Tab wraps inside the view and Escape hands the focus back to the editor (the prompt box says
// so), and after Clear the view itself offers Undo in a live region, reachable by the keyboard.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../src/shared/protocol.ts';
import { tabbables } from '../../src/webview/focusTrap.ts';
import { $, openPanelPage, posted, send, turn, withRouterKey } from './panelPage.ts';

const press = (key: string, shiftKey = false) =>
  (document.activeElement ?? document.body).dispatchEvent(
    new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true }),
  );

const state = (turns: ChatTurn[], conversationId: string) => withRouterKey({ turns, conversationId });
const TURNS = [
  turn({ id: 'u1', role: 'user', text: 'Why is the sky blue?' }),
  turn({ id: 'a1', role: 'assistant', text: 'Rayleigh scattering.' }),
];

beforeAll(async () => {
  await openPanelPage();
  send({ type: 'panel/state', state: state(TURNS, 'c1') });
});

describe('Tab stays within the chat', () => {
  it('goes header, messages, composer, in the order of the page', () => {
    const order = tabbables().map((el) => el.id || el.className);
    const at = (id: string) => order.indexOf(id);
    expect(at('model-picker')).toBeGreaterThanOrEqual(0);
    expect(at('model-picker')).toBeLessThan(at('conversation'));
    expect(at('conversation')).toBeLessThan(at('prompt'));
    expect(at('prompt')).toBeLessThan(at('clear'));
    // Nothing hidden is in the order (the closed model list, the Stop button while idle).
    expect(order).not.toContain('stop');
    expect(order).not.toContain('model-filter');
  });

  it('wraps from the last control to the first, and back with Shift+Tab', () => {
    const list = tabbables();
    const first = list[0]!;
    const last = list[list.length - 1]!;
    last.focus();
    expect(press('Tab')).toBe(false);
    expect(document.activeElement).toBe(first);
    expect(press('Tab', true)).toBe(false);
    expect(document.activeElement).toBe(last);
    // In the middle the browser moves the focus itself.
    $('#prompt')!.focus();
    expect(press('Tab')).toBe(true);
  });

  it('says the way out on the prompt box, and Escape with nothing to stop takes it', () => {
    const help = $('#' + $('#prompt')!.getAttribute('aria-describedby'))!;
    expect(help.textContent).toMatch(/Tab and Shift\+Tab move within the chat\. Escape goes back to the editor; F6/);
    posted.length = 0;
    $('#prompt')!.focus();
    expect(press('Escape')).toBe(false);
    expect(posted).toContainEqual({ type: 'focus/editor' });
  });

  it('lets Escape stop an answer that is coming, without leaving', () => {
    send({
      type: 'chat/started',
      requestId: 'r1',
      user: turn({ id: 'u2', role: 'user', text: 'More?' }),
      assistant: turn({ id: 'a2', role: 'assistant', status: 'streaming' }),
    });
    posted.length = 0;
    $('#prompt')!.focus();
    press('Escape');
    expect(posted).toContainEqual({ type: 'chat/stop', requestId: 'r1' });
    expect(posted).not.toContainEqual({ type: 'focus/editor' });
    send({
      type: 'chat/error',
      requestId: 'r1',
      turn: turn({ id: 'a2', role: 'assistant', status: 'cancelled' }),
      prompt: 'More?',
    });
  });
});

describe('a new state and the focus', () => {
  it('puts the caret in the prompt box of a chat that has the focus, and never pulls the focus into one that has not', () => {
    // Every open chat gets the state: with the chat in the side bar and in an editor, two frames that each took the
    // focus on it took it from each other without end (a real-host run stalled on it, the window drawing focus).
    $('#clear')!.focus();
    const hasFocus = document.hasFocus;
    try {
      document.hasFocus = () => false;
      send({ type: 'panel/state', state: state(TURNS, 'c1') });
      expect(document.activeElement).toBe($('#clear'));
      document.hasFocus = () => true;
      send({ type: 'panel/state', state: state(TURNS, 'c1') });
      expect(document.activeElement).toBe($('#prompt'));
    } finally {
      document.hasFocus = hasFocus;
    }
  });

  it('a frame that lost the focus before its focus timer ran does not take it back', async () => {
    // The workbench focuses the frame; before the timer that puts the caret in the prompt box runs, the other open
    // chat takes the focus. Taking it back here started the endless exchange that stalled a real-host run.
    (document.activeElement as HTMLElement | null)?.blur();
    const hasFocus = document.hasFocus;
    try {
      document.hasFocus = () => false;
      window.dispatchEvent(new FocusEvent('focus'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(document.activeElement).toBe(document.body);
      document.hasFocus = () => true;
      window.dispatchEvent(new FocusEvent('focus'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(document.activeElement).toBe($('#prompt'));
    } finally {
      document.hasFocus = hasFocus;
    }
  });
});

describe('Alt+F2 in the chat', () => {
  it('asks the host for the last answer from the prompt box or the conversation, and keeps the key from the workbench', () => {
    // VS Code's frame script forwards a key to the workbench from a listener on the window; the workbench's Alt+F2
    // reads a context key the host sets a message round trip after the focus arrives, so a quick press was lost.
    const forwarded: string[] = [];
    const forward = (e: KeyboardEvent) => forwarded.push(e.key);
    window.addEventListener('keydown', forward);
    try {
      for (const where of ['#prompt', '#conversation']) {
        posted.length = 0;
        $(where)!.focus();
        const altF2 = new KeyboardEvent('keydown', { key: 'F2', altKey: true, bubbles: true, cancelable: true });
        expect(document.activeElement!.dispatchEvent(altF2)).toBe(false);
        expect(posted).toEqual([{ type: 'answer/showLast' }]);
      }
      // F2 alone, or with another modifier, is not it, and goes on to the workbench.
      posted.length = 0;
      press('F2');
      press('F2', true);
      expect(posted).toEqual([]);
      expect(forwarded).toEqual(['F2', 'F2']);
    } finally {
      window.removeEventListener('keydown', forward);
    }
  });
});

describe("Clear's Undo, in the view", () => {
  it('offers Undo in a live region after Clear, the next stop after Send', () => {
    const notice = $('#cleared-notice')!;
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.hidden).toBe(true);
    $('#clear')!.focus();
    $('#clear')!.click();
    expect(posted).toContainEqual({ type: 'history/clear' });
    // The host shows the fresh conversation, then offers the way back.
    send({ type: 'panel/state', state: state([], 'c2') });
    send({ type: 'history/undoable', title: 'Why is the sky blue?' });
    expect(notice.hidden).toBe(false);
    expect(notice.textContent).toContain('Conversation cleared.');
    const undo = $<HTMLButtonElement>('#undo-clear')!;
    expect(undo.getAttribute('aria-label')).toBe('Undo: Why is the sky blue?');
    // The fresh conversation has the focus in its prompt box; Undo follows the composer's own controls (Send, then
    // the "Show what is sent" disclosure under the box).
    expect(document.activeElement).toBe($('#prompt'));
    const order = tabbables();
    expect(order.indexOf($('#sent-text summary')!)).toBe(order.indexOf($('#send')!) + 1);
    expect(order.indexOf(undo)).toBe(order.indexOf($('#sent-text summary')!) + 1);
    expect(order.indexOf(undo)).toBeLessThan(order.indexOf($('#clear')!));
  });

  it('asks the host to bring the conversation back, and goes when it is shown', () => {
    posted.length = 0;
    $<HTMLButtonElement>('#undo-clear')!.click();
    expect(posted).toEqual([{ type: 'history/undoClear' }]);
    send({ type: 'panel/state', state: state(TURNS, 'c1') });
    expect($('#cleared-notice')!.hidden).toBe(true);
    expect($('#conversation')!.textContent).toContain('Rayleigh scattering.');
  });

  it('can be dismissed, and goes when a prompt is sent', () => {
    send({ type: 'history/undoable', title: 'Why is the sky blue?' });
    $<HTMLButtonElement>('#cleared-notice .dismiss')!.click();
    expect($('#cleared-notice')!.hidden).toBe(true);
    send({ type: 'history/undoable', title: 'Why is the sky blue?' });
    send({
      type: 'chat/started',
      requestId: 'r2',
      user: turn({ id: 'u3', role: 'user', text: 'New one' }),
      assistant: turn({ id: 'a3', role: 'assistant', status: 'streaming' }),
    });
    expect($('#cleared-notice')!.hidden).toBe(true);
  });
});
