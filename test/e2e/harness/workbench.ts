// What a person does in the workbench, in a few lines a step: run a command by
// its title, read a status-bar item, reach into a webview, see notifications,
// take a screenshot.
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from './playwright.ts';

/**
 * The ceiling of every wait: waits follow state (they end as soon as what they
 * wait for is there), and on a busy 2-core machine that can take minutes.
 */
export const PATIENCE = 300_000;
/**
 * A hover or tooltip on screen. The workbench keeps hidden, empty hover widgets in the page once an editor
 * has shown one, so the first match of the classes alone can be one of those (seen in a full UI run).
 */
export const VISIBLE_HOVER = '.monaco-hover:visible, .workbench-hover:visible';

/** Polls `probe` until it gives a value, for at most `ceilingMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ceilingMs = PATIENCE,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `gave up after ${Math.round(ceilingMs / 1000)} s waiting for ${what}${last ? ` (${(last as Error).message.split('\n')[0]})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export class Workbench {
  readonly page: Page;
  private readonly resultsDir: string;
  private shots = 0;

  constructor(page: Page, resultsDir: string) {
    this.page = page;
    this.resultsDir = resultsDir;
    // Every click, fill and wait without its own limit follows state up to the
    // same ceiling: Playwright's 30 s default fails on a busy 2-core machine.
    page.setDefaultTimeout(PATIENCE);
  }

  async open(url: string, folder: string): Promise<void> {
    await this.page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, { timeout: PATIENCE });
    await this.page.locator('.monaco-workbench').waitFor({ timeout: PATIENCE });
    await this.page.evaluate(() =>
      (window as unknown as { driver: { whenWorkbenchRestored(): Promise<void> } }).driver.whenWorkbenchRestored(),
    );
  }

  /**
   * Runs a command from the palette by its full title, e.g. "Keyward: Show Log".
   * Early in a session the palette may not list an extension's commands yet: try again.
   */
  async runCommand(title: string, timeoutMs = PATIENCE): Promise<void> {
    const input = this.page.locator('.quick-input-widget input.input');
    const row = this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(`>${title}`, { timeout: 5_000 });
        await row.waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        await this.page.keyboard.press('Escape');
        if (Date.now() > deadline) throw error;
        // Longer each time: a chat that takes the focus as it shows something closes a palette opened meanwhile,
        // and the Escape above can set off such a focus again; a fixed short pause stayed in step with it.
        await this.page.waitForTimeout(Math.min(500 * 2 ** attempt, 4_000));
      }
    }
    await this.page.keyboard.press('Enter');
  }

  /**
   * Reloads the window from the palette and waits for the new workbench. It follows the document (a mark set
   * on the old one is gone) rather than a load event: a run once waited 5 min for a "load" it had missed. A
   * palette that swallowed the command leaves the old document, so the command is given again.
   */
  async reloadWindow(): Promise<void> {
    const marked = () =>
      this.page.evaluate(() => (window as unknown as { keywardOldDocument?: boolean }).keywardOldDocument === true);
    await this.page.evaluate(() => {
      (window as unknown as { keywardOldDocument?: boolean }).keywardOldDocument = true;
    });
    const deadline = Date.now() + PATIENCE;
    let asked = 0;
    for (;;) {
      // While the page navigates there is no context to ask (undefined): neither old nor new yet.
      const old = await marked().catch(() => undefined);
      if (old === false) break;
      // Asked again only while the old document is surely still there, never into a page that is loading.
      if (old === true && Date.now() - asked > 30_000) {
        await this.runCommand('Developer: Reload Window', 20_000).catch(() => undefined);
        asked = Date.now();
      }
      if (Date.now() > deadline) throw new Error('the window did not reload');
      await this.page.waitForTimeout(200);
    }
    await this.page.locator('.monaco-workbench').waitFor({ timeout: PATIENCE });
  }

  /** Types into the open quick input (an input box or a quick pick) and accepts. */
  async answerQuickInput(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input.input');
    // Right after runCommand the palette itself may still be showing its ">command" text: typing the answer
    // there sent a key to the palette (seen once, and the command's own input box never got it).
    const deadline = Date.now() + PATIENCE;
    for (;;) {
      await input.waitFor({ state: 'visible', timeout: PATIENCE });
      const value = await input.inputValue({ timeout: 5_000 }).catch(() => '>');
      if (!value.startsWith('>')) break;
      if (Date.now() > deadline)
        throw new Error(`the command palette did not give way to an input (it shows ${value})`);
      await this.page.waitForTimeout(100);
    }
    await input.fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file through Quick Open, as a person would. */
  async openFile(name: string): Promise<void> {
    const base = name.split('/').pop()!;
    const input = this.page.locator('.quick-input-widget input.input');
    // The focused row, the one Enter opens: the list first shows recent editors and is replaced as the search runs.
    const row = this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: base });
    const tab = this.page.locator('.tab.active', { hasText: base });
    // Quick Open may not open while a webview holds the focus, or close as one takes it back: open it again.
    const deadline = Date.now() + PATIENCE;
    for (;;) {
      await this.page.keyboard.press('Control+P');
      try {
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(name, { timeout: 5_000 });
        await row.waitFor({ timeout: 15_000 });
        await this.page.keyboard.press('Enter');
        await tab.waitFor({ timeout: 15_000 });
        return;
      } catch (error) {
        if (await tab.isVisible().catch(() => false)) return;
        await this.page.keyboard.press('Escape');
        if (Date.now() > deadline) throw error;
      }
    }
  }

  /**
   * Closes every editor. A file an earlier step changed and left unsaved (Apply keeps its change unsaved, and the run
   * has auto save off, as desktop VS Code has) makes VS Code ask in a modal dialog, which would block every click
   * after it: the change is not saved, as the step that made it did not save it.
   */
  async closeAllEditors(): Promise<void> {
    await this.runCommand('View: Close All Editors');
    const dontSave = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" });
    await until('every editor closed', async () => {
      if (await dontSave.isVisible().catch(() => false)) await dontSave.click().catch(() => undefined);
      const open = await this.page.locator('.editor-group-container .tab').count();
      const asking = await this.page
        .locator('.monaco-dialog-box')
        .isVisible()
        .catch(() => false);
      return open === 0 && !asking ? true : undefined;
    });
  }

  /** The text of the active editor, as the view shows it. */
  async editorText(): Promise<string> {
    // The active group's editor: with the chat or a diff in another group, the first editor on the page may not be it.
    const active = this.page.locator('.editor-group-container.active .editor-instance .monaco-editor .view-lines');
    const lines =
      (await active.count()) > 0 ? active : this.page.locator('.editor-instance .monaco-editor .view-lines');
    return (await lines.first().innerText()).replace(/\u00a0/g, ' ');
  }

  statusItem(id: string): Locator {
    return this.page.locator(`[id="keyward.keyward.${id}"]`);
  }

  /** Keyward's chat on screen, in the side bar or in an editor tab, where only one of them is. */
  webview(): FrameLocator {
    return this.chat();
  }

  /**
   * Keyward's chat in the editor tab or in the side bar, or (no place) the one on screen. Both can be open at once,
   * and other webviews (the Welcome page's media) too, so a step where both show names the one it means: a view's
   * frame says `purpose=webviewView` in its address, a panel's does not, and each says which extension it is of.
   */
  chat(place?: 'tab' | 'side'): FrameLocator {
    const ours = 'iframe.webview.ready[src*="extensionId=keyward.keyward"]';
    const view = '[src*="purpose=webviewView"]';
    const frame = place === 'side' ? `${ours}${view}` : place === 'tab' ? `${ours}:not(${view})` : `${ours}:visible`;
    return this.page.frameLocator(frame).frameLocator('iframe#active-frame');
  }

  async notifications(): Promise<string> {
    const center = await this.showNotificationCentre();
    const text = await center.innerText();
    await this.page.keyboard.press('Escape');
    return text;
  }

  /**
   * Opens the notification centre. The command is given again when the centre has not shown after a while: a CI run
   * waited 300 s for a centre that one command never opened.
   */
  async showNotificationCentre(): Promise<Locator> {
    const center = this.page.locator('.notifications-center');
    await until('the notification centre', async () => {
      await this.runCommand('Notifications: Show Notifications');
      await center.waitFor({ timeout: 15_000 });
      return true;
    });
    return center;
  }

  /** A screenshot of the workbench, or of another page of the browser (a page the workbench opened). */
  async screenshot(name: string, page: Page = this.page): Promise<string> {
    this.shots += 1;
    const path = join(this.resultsDir, `${String(this.shots).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '-')}.png`);
    await page.screenshot({ path });
    return path;
  }

  /**
   * A picture of only what `selectors` cover (their joint bounding box, with a margin), saved as readme-<name>.png
   * next to the screenshots: the README's images are chosen from these (media/readme/).
   */
  async readmeShot(name: string, selectors: string[], margin = 8): Promise<string> {
    const boxes = await Promise.all(
      selectors.map((selector) =>
        this.page
          .locator(selector)
          .first()
          .evaluate((el) => {
            const r = el.getBoundingClientRect();
            return { x: r.left, y: r.top, right: r.right, bottom: r.bottom };
          }),
      ),
    );
    const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
    const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
    const right = Math.max(...boxes.map((b) => b.right)) + margin;
    const bottom = Math.max(...boxes.map((b) => b.bottom)) + margin;
    const path = join(this.resultsDir, `readme-${name}.png`);
    await this.page.screenshot({ path, clip: { x, y, width: right - x, height: bottom - y } });
    return path;
  }
}
