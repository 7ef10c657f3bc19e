// The chat's real page (host/panelHtml.ts) with its real script (webview/main.ts), loaded into a test file's jsdom:
// the host's messages go in as VS Code delivers them (send), and what the page posts to the host is kept (posted).
// Each test file has a jsdom of its own, so each opens the page once, in its beforeAll.
import { buildPanelHtml } from '../../src/host/chat/panelHtml.ts';
import type { ChatTurn, HostMessage, PanelState, WebviewMessage } from '../../src/shared/protocol.ts';
import { initialState } from '../../src/webview/viewState.ts';

/** What the page posted to the host, oldest first. */
export const posted: WebviewMessage[] = [];

/** A message from the host, delivered as VS Code delivers it. */
export const send = (data: HostMessage) => window.dispatchEvent(new MessageEvent('message', { data }));

export const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector);
export const $$ = (selector: string) => Array.from(document.querySelectorAll<HTMLElement>(selector));

/** The text the live region last announced. */
export const announced = () => $('#announcer')?.textContent?.trim();

/** A finished turn on the routing service's free router, with the fields given. */
export const turn = (fields: Partial<ChatTurn> & Pick<ChatTurn, 'id' | 'role'>): ChatTurn => ({
  text: '',
  service: 'router',
  model: 'openrouter/free',
  status: 'done',
  ...fields,
});

/** The panel's first state with a stored router key, and the fields given. */
export function withRouterKey(fields: Partial<PanelState> = {}): PanelState {
  const base = initialState();
  return { ...base, hasKey: { ...base.hasKey, router: true }, ...fields };
}

/**
 * Builds the page (its script tags left out: the script is imported below, once) and runs the webview script
 * against it. A frame is drawn at once and idle work never comes, so each message's effect is on the page when
 * `send` returns; jsdom lays nothing out, so scrolling into view does nothing.
 */
export async function openPanelPage(): Promise<void> {
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
    requestAnimationFrame: (draw: FrameRequestCallback) => (draw(0), 0),
    cancelAnimationFrame: () => undefined,
    requestIdleCallback: () => 0,
  });
  Element.prototype.scrollIntoView = () => undefined;
  await import('../../src/webview/main.ts');
}
