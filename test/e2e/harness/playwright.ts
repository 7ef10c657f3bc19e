// playwright-core lives in the e2e cache, not in the project's dependencies;
// these are the few parts of its API the harness uses.
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface Locator {
  click(options?: { timeout?: number; button?: 'left' | 'right' }): Promise<void>;
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  press(key: string, options?: { timeout?: number }): Promise<void>;
  textContent(options?: { timeout?: number }): Promise<string | null>;
  innerText(options?: { timeout?: number }): Promise<string>;
  inputValue(options?: { timeout?: number }): Promise<string>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  count(): Promise<number>;
  first(): Locator;
  nth(index: number): Locator;
  last(): Locator;
  hover(options?: { timeout?: number }): Promise<void>;
  isVisible(): Promise<boolean>;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  filter(options: { hasText?: string | RegExp; hasNotText?: string | RegExp }): Locator;
  allInnerTexts(): Promise<string[]>;
  selectOption(value: string, options?: { timeout?: number }): Promise<string[]>;
  evaluate<T>(fn: (element: Element) => T): Promise<T>;
  evaluateAll<T>(fn: (elements: Element[]) => T): Promise<T>;
  pressSequentially(text: string, options?: { delay?: number; timeout?: number }): Promise<void>;
  focus(options?: { timeout?: number }): Promise<void>;
  scrollIntoViewIfNeeded(options?: { timeout?: number }): Promise<void>;
  elementHandle(options?: { timeout?: number }): Promise<ElementHandle>;
}

export interface ElementHandle {
  ownerFrame(): Promise<Frame | null>;
}

/** A frame, for code run in it: a string is evaluated as a script (as a debugger does, outside the page's CSP). */
export interface Frame {
  evaluate<T>(script: string | (() => T | Promise<T>)): Promise<T>;
}

export interface FrameLocator {
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
}

export interface Page {
  goto(url: string, options?: { timeout?: number; waitUntil?: 'load' | 'domcontentloaded' }): Promise<unknown>;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  mouse: { move(x: number, y: number): Promise<void> };
  screenshot(options: {
    path: string;
    fullPage?: boolean;
    clip?: { x: number; y: number; width: number; height: number };
  }): Promise<unknown>;
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
  exposeFunction(name: string, fn: (...args: any[]) => unknown): Promise<void>;
  waitForTimeout(ms: number): Promise<void>;
  setDefaultTimeout(ms: number): void;
  waitForEvent(event: 'load' | 'domcontentloaded', options?: { timeout?: number }): Promise<unknown>;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  close(): Promise<void>;
  /** The browser context: a page the workbench opens (env.openExternal) is a new page of it. */
  context(): BrowserContext;
  url(): string;
  waitForURL(url: string | RegExp | ((url: URL) => boolean), options?: { timeout?: number }): Promise<void>;
  isClosed(): boolean;
}

/** A Chrome DevTools Protocol session, for what Playwright does not wrap (a CPU profile of a stalled window). */
export interface CDPSession {
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  detach(): Promise<void>;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  waitForEvent(event: 'page', options?: { timeout?: number }): Promise<Page>;
  newCDPSession(page: Page): Promise<CDPSession>;
  pages(): Page[];
  close(): Promise<void>;
}

interface Chromium {
  launchPersistentContext(userDataDir: string, options: Record<string, unknown>): Promise<BrowserContext>;
}

export function loadChromium(playwrightCore: string): Chromium {
  const require = createRequire(join(playwrightCore, 'package.json'));
  return (require('playwright-core') as { chromium: Chromium }).chromium;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
