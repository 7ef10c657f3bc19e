// Drives `npm start` the way a person does: start it, open the printed URL,
// accept the key imports, and prompt both sandbox services from the panel.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { answerText } from '../emulator/answers.ts';
import { CACHE, CHROMIUM } from './harness/install.ts';
import { CHROMIUM_ARGS, type BrowserContext, loadChromium } from './harness/playwright.ts';
import { PATIENCE, Workbench, until } from './harness/workbench.ts';

const IMPORT_OFFER = /is set in the environment\. Import it into VS Code's secret storage for Keyward\?/;

/** The messages of the toasts showing now that are not the key import offer. */
async function otherToasts(page: Workbench['page']): Promise<string[]> {
  const messages = await page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
  return messages.map((text) => text.replace(/\s+/g, ' ').trim()).filter((text) => !IMPORT_OFFER.test(text));
}

/** No toast and nothing in the notification centre but the import offers (each one taken up is gone). */
async function nothingElseSaid(wb: Workbench, when: string): Promise<void> {
  const toasts = await otherToasts(wb.page);
  await wb.runCommand('Notifications: Show Notifications');
  const centre = wb.page.locator('.notifications-center');
  await centre.waitFor({ timeout: PATIENCE });
  const listed = (await centre.locator('.notification-list-item-message').allInnerTexts())
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .filter((text) => !IMPORT_OFFER.test(text));
  await wb.page.keyboard.press('Escape');
  const said = [...new Set([...toasts, ...listed])];
  if (said.length) throw new Error(`Keyward said more than the import offer ${when}: ${said.join(' | ')}`);
}

export async function driveSandbox(playwrightCore: string, results: string): Promise<void> {
  const child = spawn('npm', ['start'], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch {
      /* gone */
    }
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start printed no URL in ${PATIENCE / 1000} s`)), PATIENCE);
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /^\{"sandbox":"([^"]+)"/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    const chromium = loadChromium(playwrightCore);
    const profile = mkdtempSync(join(CACHE, 'sandbox-chromium-'));
    const browser: BrowserContext = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
    });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      const wb = new Workbench(page, results);
      await page.goto(url, { timeout: PATIENCE });
      await page.locator('.monaco-workbench').waitFor({ timeout: PATIENCE });
      // The sandbox runs without the test driver, so the import offer pops up as a toast, as it does for a
      // person; it arrives once the extension host has started, which on a busy machine takes what it takes.
      const toast = page.locator('.notification-toast .monaco-button', { hasText: 'Import' }).first();
      await toast.waitFor({ timeout: PATIENCE });
      await wb.screenshot('sandbox-import-offer-toast');
      // A fresh profile: the import offer is the only thing Keyward says (no warning about a setting nobody set).
      const first = await otherToasts(page);
      if (first.length) throw new Error(`a fresh profile showed more than the import offer: ${first.join(' | ')}`);
      await toast.click();
      // The second offer, from a toast or, once toasts have gone, the notification centre.
      const inCentre = page.locator('.notifications-center .monaco-button', { hasText: 'Import' }).first();
      await until(
        'import offer 2 of 2',
        async () => {
          if (await toast.isVisible()) {
            await toast.click();
            return true;
          }
          await wb.runCommand('Notifications: Show Notifications');
          if (!(await inCentre.isVisible())) {
            await page.keyboard.press('Escape');
            return undefined;
          }
          await inCentre.click();
          return true;
        },
        PATIENCE,
        1000,
      );
      // Before a key is stored each item offers "set key"; after the import it shows the service's state.
      for (const id of ['router', 'direct'])
        await until(
          `the ${id} item to show the imported key`,
          async () => ((await wb.statusItem(id).innerText()).includes('set key') ? undefined : true),
          PATIENCE,
          1000,
        );
      await wb.screenshot('sandbox-keys-imported');
      // (The imports' own notices answer what the person asked for.) After a reload, activation reads the settings
      // anew, and a false warning came back every time: now nothing at all is said.
      await wb.reloadWindow();
      await page.locator('.monaco-workbench').waitFor({ timeout: PATIENCE });
      for (const id of ['router', 'direct'])
        await until(
          `the ${id} item to come back after the reload`,
          async () => ((await wb.statusItem(id).count()) > 0 ? true : undefined),
          PATIENCE,
          500,
        );
      await nothingElseSaid(wb, 'after a reload');
      await wb.runCommand('Keyward: Open Chat in Editor');
      const view = wb.webview();
      await view.locator('#prompt').waitFor({ timeout: PATIENCE });
      for (const [service, prompt] of [
        ['router', 'sandbox router'],
        ['direct', 'sandbox direct'],
      ] as const) {
        await view.locator(`#service-${service}`).click();
        await view.locator('#prompt').fill(prompt);
        await view.locator('#prompt').press('Control+Enter');
        const expected = answerText(prompt, { tokens: 40 });
        let text = '';
        try {
          await until(`the ${service} sandbox answer`, async () => {
            text = await view
              .locator('.turn.assistant.done .answer')
              .last()
              .innerText()
              .catch(() => '');
            return text.includes(expected) ? true : undefined;
          });
        } catch {
          throw new Error(`the ${service} sandbox answer did not arrive (saw ${JSON.stringify(text.slice(0, 200))})`);
        }
      }
      await wb.screenshot('sandbox-both-services');
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  } finally {
    stop();
    // npm start stops what it started on SIGINT; wait for it to be gone rather than a fixed time.
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(resolve, PATIENCE);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
