// UI steps for Sign In to the Routing Service, end to end in the real host: the command runs from the palette, the
// workbench opens the emulator's /auth page in a new browser page (env.openExternal), the step clicks Deny or Allow
// there as a person would, the browser goes to the callback address code-server made (env.asExternalUri), and the
// workbench hands it to Keyward's URI handler. Nothing is driven from inside: the page, the redirect, code-server's
// callback and the handler are the real ones.
//
// One thing differs from the real service, and why: code-server moves an address on localhost, 127.0.0.1 or 0.0.0.0
// with a port behind its own /proxy/PORT/ path (its resolveExternalUri), and opens what that gives as
// encodeURI(uri.toString(true)). The callback nested in the sign-in page's query then comes out with its own "?"
// escaped twice, and code-server's /callback answers 404. No string Keyward passes survives that, but the real page
// (openrouter.ai) is no such address: code-server opens it exactly as Keyward gives it. So for these steps the routing
// service is the emulator reached through another loopback address, 127.0.0.2, which code-server leaves alone too.
import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
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

/** A TCP forward from 127.0.0.2 to the emulator, with the count of connections it took. */
async function loopbackForward(target: URL) {
  const sockets = new Set<Socket>();
  let taken = 0;
  const server = createServer((socket) => {
    taken++;
    const upstream = connect(Number(target.port), target.hostname);
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('error', () => [socket, upstream].forEach((s) => s.destroy()));
      end.on('close', () => sockets.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return {
    host: `127.0.0.2:${(server.address() as AddressInfo).port}`,
    connections: () => taken,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sets the routing service's address in the Settings editor, as a person would. (Writing settings.json behind the
 * workbench's back was not seen by the extension host in code-server.)
 */
async function setRouterAddress(wb: Workbench, value: string): Promise<void> {
  await wb.runCommand('Preferences: Open User Settings');
  const search = wb.page.locator('.settings-editor .settings-header .suggest-input-container');
  await search.waitFor({ timeout: PATIENCE });
  await search.click();
  await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.type('keyward.router.baseUrl');
  const field = wb.page
    .locator('.settings-editor .setting-item-contents', { hasText: 'Base Url' })
    .first()
    .locator('.setting-item-control input')
    .first();
  await field.waitFor({ timeout: PATIENCE });
  await field.fill(value);
  await field.press('Tab');
  await wb.screenshot('sign-in-router-address-setting');
  await wb.page.locator('.tab', { hasText: 'Settings' }).locator('.tab-actions .action-label').click();
  await wb.page.locator('.tab', { hasText: 'Settings' }).waitFor({ state: 'detached', timeout: PATIENCE });
}

/**
 * Runs `body` with the routing service's address on 127.0.0.2 (see the header), and puts it back after. Keyward has
 * the new address once a key check arrives there: the sandbox's funded key is set (again), which Set Key verifies at
 * the address Keyward reads from its settings then.
 */
async function atASiteAddress(ctx: UiContext, body: () => Promise<void>): Promise<void> {
  const { wb, emulator, leakKey } = ctx;
  const emulatorUrl = new URL(emulator.url);
  const forward = await loopbackForward(emulatorUrl);
  await setRouterAddress(wb, emulator.routerBaseUrl.replace(emulatorUrl.host, forward.host));
  const funded = emulator.sandbox!.keys.routerFunded;
  leakKey(funded);
  try {
    await until(
      `Keyward's key check to arrive at ${forward.host}`,
      async () => {
        await wb.runCommand('Keyward: Set Router Key');
        await wb.answerQuickInput(funded);
        await until('the check', () => (forward.connections() > 0 ? true : undefined), 10_000).catch(() => undefined);
        return forward.connections() > 0 ? true : undefined;
      },
      PATIENCE,
      0,
    );
    // The steps compare the item before and after: it must show the funded key's account first.
    await until('the router item to show the funded key', async () =>
      /\$\d/.test(await wb.statusItem('router').innerText()) ? true : undefined,
    );
    await body();
  } catch (error) {
    // The steps after these expect the sandbox's funded key, whatever happened here.
    await wb.page.keyboard.press('Escape');
    await closeOthers(wb);
    await wb.runCommand('Keyward: Set Router Key');
    await wb.answerQuickInput(funded);
    throw error;
  } finally {
    await setRouterAddress(wb, emulator.routerBaseUrl);
    await forward.close();
  }
}

const exchanges = (emulator: UiContext['emulator']) => emulator.requests.filter((r) => r.path === '/auth/keys');

async function closeOthers(wb: Workbench): Promise<void> {
  for (const page of wb.page.context().pages()) if (page !== wb.page && !page.isClosed()) await page.close();
}

/** Deny on the /auth page: said so, no code exchanged, the stored key as it was. */
async function denied({ wb, emulator }: UiContext): Promise<void> {
  const before = exchanges(emulator).length;
  const stored = await wb.statusItem('router').innerText();
  const page = await openedSignInPage(wb);
  // Opened as Keyward gave it: at the address the setting names, not moved behind code-server's /proxy/.
  if (!/^http:\/\/127\.0\.0\.2:\d+\/router\/auth\?/.test(page.url()))
    throw new Error(`the sign-in opened ${page.url()}`);
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
}

/** Allow on the /auth page: one exchange, the new key checked and stored, never shown; then the funded key again. */
async function allowed({ wb, emulator, leakKey }: UiContext): Promise<void> {
  const before = exchanges(emulator).length;
  const page = await openedSignInPage(wb);
  await page.locator('#allow').click();
  // The browser goes to the callback address code-server made for Keyward's URI handler, which hands it on.
  await until('the browser to reach the callback address', () =>
    page.url().includes('vscode-reqid=') ? true : undefined,
  );
  const callback = new URL(page.url());
  // The callback page may be closing by now (it hands the address on, then may shut): its picture is a bonus.
  await wb.screenshot('sign-in-callback-page', page).catch((error: Error) => {
    console.log(`  (no picture of the callback page: ${error.message.split('\n')[0]})`);
  });
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
}

export const signInSteps: UiStep[] = [
  {
    name: 'Sign In to the Routing Service from the palette: Deny on the /auth page says so and keeps the stored key',
    run: (ctx) => atASiteAddress(ctx, () => denied(ctx)),
  },
  {
    name: 'Sign In to the Routing Service from the palette: Allow on the /auth page stores a working key, never shown',
    run: (ctx) => atASiteAddress(ctx, () => allowed(ctx)),
  },
];
