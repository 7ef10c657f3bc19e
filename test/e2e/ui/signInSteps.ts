// UI steps for Sign In to the Routing Service, end to end in the real host: the command runs from the palette, the
// workbench opens the emulator's /auth page in a new browser page (env.openExternal), the step clicks Deny or Allow
// there as a person would, the browser goes to the callback address code-server made (env.asExternalUri), and the
// workbench hands it to Keyward's URI handler. Nothing is driven from inside: the page, the redirect, code-server's
// callback and the handler are the real ones. Not in ALL_STEPS yet: code-server 4.139 opens the /auth address after
// decoding it once (its openExternal re-serializes it), so the callback nested in it loses its own query's "&" and
// code-server's /callback answers 404; desktop VS Code passes the address through. Run it alone with
// KEYWARD_E2E_UI_GREP='Sign In to the Routing Service' after adding it to ALL_STEPS; it leaves the sandbox's funded
// key stored again, as the steps after it expect.
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import type { Page } from '../harness/playwright.ts';
import type { UiContext, UiStep } from './steps.ts';

const TITLE = 'Keyward: Sign In to the Routing Service';

/**
 * Runs the command and returns the page the workbench opened. VS Code asks before opening a site it does not trust;
 * if it asks, the step answers Open, as a person would.
 */
async function openedSignInPage(wb: Workbench): Promise<Page> {
  const opened = wb.page.context().waitForEvent('page', { timeout: PATIENCE });
  await wb.runCommand(TITLE);
  const ask = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
  const page = await Promise.race([
    opened,
    (async () => {
      await ask.waitFor({ timeout: PATIENCE });
      await wb.screenshot('sign-in-open-site-dialog');
      await ask.click();
      return opened;
    })(),
  ]);
  await page.locator('h1').waitFor({ timeout: PATIENCE });
  return page;
}

/**
 * The last notification that matches, from the notification center. Meanwhile VS Code may ask whether Keyward may
 * open the URI the browser came back with (it asks once per extension for a URI from outside the window): the step
 * answers Open, as a person would.
 */
function notificationSaying(wb: Workbench, text: RegExp): Promise<string> {
  const allow = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
  return until(`a notification saying ${String(text)}`, async () => {
    if (await allow.isVisible()) {
      await wb.screenshot('sign-in-allow-uri-dialog');
      await allow.click();
    }
    const shown = (await wb.notifications()).replace(/\s+/g, ' ');
    return text.test(shown) ? shown : undefined;
  });
}

const exchanges = (emulator: UiContext['emulator']) => emulator.requests.filter((r) => r.path === '/auth/keys');

async function closeOthers(wb: Workbench): Promise<void> {
  for (const page of wb.page.context().pages()) if (page !== wb.page && !page.isClosed()) await page.close();
}

export const signInSteps: UiStep[] = [
  {
    name: 'Sign In to the Routing Service from the palette: Deny on the /auth page says so and keeps the stored key',
    async run({ wb, emulator }) {
      const before = exchanges(emulator).length;
      const stored = await wb.statusItem('router').innerText();
      const page = await openedSignInPage(wb);
      if (!page.url().includes('/router/auth?')) throw new Error(`the sign-in opened ${page.url()}`);
      const shown = await page.locator('main').innerText();
      if (!/Authorize an application/.test(shown)) throw new Error(`the /auth page shows ${JSON.stringify(shown)}`);
      await wb.screenshot('sign-in-auth-page', page);
      // The workbench waits meanwhile (a cancellable progress notification; in this headless browser its toast was
      // not found on screen while the other page had the focus, so the step does not wait for it).
      await wb.screenshot('sign-in-waiting-for-the-browser');
      await page.locator('#deny').click();
      await notificationSaying(wb, /You chose Deny on the routing service page, so no key was made\./);
      await wb.screenshot('sign-in-denied');
      if (exchanges(emulator).length !== before) throw new Error('a denied sign-in exchanged a code');
      const after = await wb.statusItem('router').innerText();
      if (after !== stored) throw new Error(`the router item changed from ${stored} to ${after}`);
      await closeOthers(wb);
    },
  },
  {
    name: 'Sign In to the Routing Service from the palette: Allow on the /auth page stores a working key, never shown',
    async run({ wb, emulator, leakKey }) {
      const before = exchanges(emulator).length;
      const page = await openedSignInPage(wb);
      await page.locator('#allow').click();
      // The browser goes to the callback address code-server made for Keyward's URI handler, which hands it on.
      await until('the browser to reach the callback address', () =>
        page.url().includes('vscode-reqid=') ? true : undefined,
      );
      const callback = new URL(page.url());
      await wb.screenshot('sign-in-callback-page', page);
      await notificationSaying(wb, /Signed in to the routing service\. Its new key is in secret storage/);
      await wb.screenshot('sign-in-signed-in');
      if (exchanges(emulator).length !== before + 1)
        throw new Error(`expected one code exchange, saw ${exchanges(emulator).length - before}`);
      const minted = [...emulator.router.keys.values()].filter((k) => k.name === 'OAuth sign-in').at(-1);
      if (!minted) throw new Error('the emulator minted no key');
      leakKey(minted.value);
      // Checked before it was stored, then verified as Set Key does: the key check saw the new key.
      if (!emulator.requests.some((r) => r.path === '/key' && r.key === minted.value))
        throw new Error('the new key was never checked');
      if (callback.searchParams.get('vscode-authority') !== 'keyward.keyward')
        throw new Error(`the callback went to ${callback.searchParams.get('vscode-authority')}`);
      // The item now shows the new key's account (a fresh one: no credit, no key limit), whatever it showed before.
      const signedIn = await until('the router item to show the new key', async () => {
        const text = (await wb.statusItem('router').innerText()).replace(/\s+/g, ' ');
        return /no limit|\$0\.00/.test(text) ? text : undefined;
      });
      await closeOthers(wb);
      // The steps after this one expect the sandbox's funded key.
      await wb.runCommand('Keyward: Set Router Key');
      await wb.answerQuickInput(emulator.sandbox!.keys.routerFunded);
      await until('the funded key back in the router item', async () => {
        const text = (await wb.statusItem('router').innerText()).replace(/\s+/g, ' ');
        return text !== signedIn && /\$\d/.test(text) ? true : undefined;
      });
    },
  },
];
