// Drives `npm start` the way a person does: start it, open the printed URL,
// accept the key imports, and prompt both sandbox services from the panel.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { answerText } from '../emulator/answers.ts';
import { CACHE, CHROMIUM } from './harness/install.ts';
import { CHROMIUM_ARGS, type BrowserContext, loadChromium } from './harness/playwright.ts';
import { Workbench } from './harness/workbench.ts';

export async function driveSandbox(playwrightCore: string, results: string): Promise<void> {
  const child = spawn('npm', ['start'], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => {
    try { process.kill(-child.pid!, 'SIGINT'); } catch { /* gone */ }
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('npm start printed no URL in 240 s')), 240_000);
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
    const browser: BrowserContext = await chromium.launchPersistentContext(mkdtempSync(join(CACHE, 'sandbox-chromium-')), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 900 } });
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      const wb = new Workbench(page, results);
      await page.goto(url, { timeout: 60_000 });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      // Both import offers, from the notification centre (toasts come and go).
      for (let imported = 0; imported < 2;) {
        await wb.runCommand('Notifications: Show Notifications');
        const button = page.locator('.notifications-center .monaco-button', { hasText: 'Import' }).first();
        await button.waitFor({ timeout: 30_000 });
        await button.click();
        imported += 1;
        await page.waitForTimeout(500);
      }
      await wb.statusItem('router').waitFor({ timeout: 20_000 });
      await wb.statusItem('direct').waitFor({ timeout: 20_000 });
      await wb.screenshot('sandbox-keys-imported');
      await wb.runCommand('Keyward: Open Prompt Panel');
      const view = wb.webview();
      await view.locator('#prompt').waitFor({ timeout: 20_000 });
      for (const [service, prompt] of [['router', 'sandbox router'], ['direct', 'sandbox direct']] as const) {
        await view.locator(`#service-${service}`).click();
        await view.locator('#prompt').fill(prompt);
        await view.locator('#prompt').press('Control+Enter');
        const expected = answerText(prompt, { tokens: 40 });
        const deadline = Date.now() + 30_000;
        let text = '';
        while (Date.now() < deadline && !text.includes(expected)) {
          text = await view.locator('.turn.assistant.done .answer').last().innerText().catch(() => '');
          await page.waitForTimeout(200);
        }
        if (!text.includes(expected)) throw new Error(`the ${service} sandbox answer did not arrive (saw ${JSON.stringify(text.slice(0, 200))})`);
      }
      await wb.screenshot('sandbox-both-services');
    } finally {
      await browser.close();
    }
  } finally {
    stop();
    await new Promise((r) => setTimeout(r, 1000));
  }
}
