// The whole life of a key, as a person does it in the real workbench against the emulator: a management key added
// from the palette, the account's keys listed and a leaked one disabled from the list, a spend alert with its
// buttons, Disable now from a found key's quick fix, and Rotate in one step. Every key made here is a new one of the
// sandbox's funded account, and the key Keyward used before comes back at the end, so the steps after these see the
// workbench as it was.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import type { UiStep } from './steps.ts';
import { runGit } from '../../../src/core/scan/git.ts';
import { setTheme } from './answerSteps.ts';

const input = (wb: Workbench) => wb.page.locator('.quick-input-widget input.input');
const list = (wb: Workbench) => wb.page.locator('.quick-input-widget .quick-input-list');

async function quickInputClosed(wb: Workbench): Promise<void> {
  await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: PATIENCE });
}

/** A toast that matches, read as it stands; the notification centre once toasts have gone. */
async function toast(wb: Workbench, expected: RegExp): Promise<string> {
  return until(`a notification matching ${String(expected)}`, async () => {
    const toasts = (await wb.page.locator('.notifications-toasts .notification-toast').allInnerTexts()).join(' | ');
    if (expected.test(toasts)) return toasts;
    const centre = await wb.notifications().catch(() => '');
    return expected.test(centre) ? centre : undefined;
  });
}

/** The quick pick's rows as text, once `expected` is among them. */
async function rows(wb: Workbench, expected: RegExp): Promise<string> {
  return until(`the list to show ${String(expected)}`, async () => {
    const text = (
      await list(wb)
        .innerText()
        .catch(() => '')
    ).replace(/\s+/g, ' ');
    return expected.test(text) ? text : undefined;
  });
}

const THEMES = ['Light Modern', 'Dark High Contrast', 'Light High Contrast', 'Dark Modern'] as const;

/**
 * The list is VS Code's own Quick Pick, drawn in the theme's colours: it is pictured in each theme (Dark Modern last,
 * as the steps after expect), opened and closed again each time, since choosing a theme closes it.
 */
async function keyListInEveryTheme(wb: Workbench, expected: RegExp): Promise<void> {
  for (const theme of THEMES) {
    await setTheme(wb, theme);
    await wb.runCommand('Keyward: Manage Keys…');
    await rows(wb, expected);
    await wb.screenshot(`manage-keys-list-${theme.toLowerCase().replace(/ /g, '-')}`);
    await wb.page.keyboard.press('Escape');
    await quickInputClosed(wb);
  }
}

/**
 * Opens `file`, goes to its problem and opens the quick-fix menu, checking that `first` is its first fix. The menu
 * opens once every provider has answered: it is asked again if Keyward's are late, or if VS Code found none.
 */
async function quickFixMenu(wb: Workbench, file: string, first: string) {
  await wb.openFile(file);
  await wb.page.locator('.editor-instance .squiggly-warning, .editor-instance .squiggly-error').first().waitFor({
    timeout: PATIENCE,
  });
  const menu = wb.page.locator('.action-widget').first();
  // Where no provider has a fix at the cursor, VS Code opens no menu: it says so in the editor ("No code actions
  // available"). Each try goes to the problem again: the findings are published again as git's view of the file
  // changes, and a try made between two publications left the cursor where it was.
  const none = wb.page.locator('.monaco-editor-overlaymessage');
  await until(`the quick-fix menu with ${first}`, async () => {
    await wb.runCommand('Go to Next Problem (Error, Warning, Info)');
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('Quick Fix...');
    const answered = await until('the quick-fix menu, or VS Code saying there is no fix', async () =>
      (await menu.isVisible()) ? menu : (await none.isVisible()) ? none : undefined,
    );
    const seen = (await answered.innerText().catch(() => '')).replace(/\s+/g, ' ');
    if (answered === menu && seen.includes(first)) return true;
    await wb.page.keyboard.press('Escape');
    await answered.waitFor({ state: 'hidden', timeout: PATIENCE });
    throw new Error(`shown: ${seen}`);
  });
  // The menu's first row is its group's title ("Quick Fix"); the first fix comes after it.
  const fixes = (await menu.locator('.monaco-list-row').allInnerTexts()).map((row) => row.trim());
  const shown = fixes.find((row) => row !== '' && !/^Quick Fix$/i.test(row)) ?? '';
  if (!shown.startsWith(first))
    throw new Error(`the first quick fix is ${JSON.stringify(shown)} of ${JSON.stringify(fixes)}`);
  return menu;
}

export const keyLifeSteps: UiStep[] = [
  {
    name: 'Add a Management or Admin Key from the palette: checked with the key API, stored apart',
    async run({ wb, emulator, leakKey }) {
      const funded = emulator.sandbox!.routerFundedAccountId;
      const manager = emulator.router.createKey({ accountId: funded, name: 'e2e manager', management: true });
      leakKey(manager.value);
      await wb.runCommand('Keyward: Add a Management or Admin Key…');
      await rows(wb, /Routing service: management key/);
      await wb.screenshot('account-key-pick');
      await wb.answerQuickInput('Routing service: management key');
      await until('the key input to be a password box', async () =>
        (await input(wb).getAttribute('type')) === 'password' ? true : undefined,
      );
      await wb.answerQuickInput(manager.value);
      await toast(wb, /Routing service management key stored \(sk-or-v1-…\w{4}\)\. Keys it sees: \d+\./);
      await wb.screenshot('management-key-stored');
    },
  },
  {
    name: 'Manage Keys lists the account’s keys with limits and usage; a leaked one is disabled from the list',
    async run({ wb, emulator }) {
      const funded = emulator.sandbox!.routerFundedAccountId;
      const leaked = emulator.router.createKey({ accountId: funded, name: 'e2e leaked ci', limit: 3 });
      await quickInputClosed(wb);
      await keyListInEveryTheme(wb, /e2e leaked ci/);
      await wb.runCommand('Keyward: Manage Keys…');
      const shown = await rows(wb, /e2e leaked ci/);
      if (!/sandbox funded/.test(shown) || !/limit \$10\.00/.test(shown))
        throw new Error(`the key list: expected the sandbox key and its limit in ${shown.slice(0, 400)}`);
      await wb.screenshot('manage-keys-list');
      await wb.answerQuickInput('e2e leaked ci');
      await rows(wb, /Disable/);
      await wb.screenshot('manage-keys-actions');
      await wb.answerQuickInput('Disable');
      await until('the emulator to hold the key disabled', () => (leaked.disabled ? true : undefined));
      // The list comes back with the key marked (read before the notification: opening the notification centre
      // would close the list).
      await rows(wb, /e2e leaked ci.*disabled/);
      await wb.screenshot('manage-keys-disabled');
      await wb.page.keyboard.press('Escape');
      await quickInputClosed(wb);
      await toast(wb, /Disabled e2e leaked ci \(sk-or-v1-\w{3}\.{3}\w{4}\): requests with it are refused\./);
    },
  },
  {
    name: 'a key spending past the day’s alert: a warning offers Disable This Key, Raise the Limit, Ignore Today',
    async run({ wb, emulator }) {
      const funded = emulator.router.account(emulator.sandbox!.routerFundedAccountId);
      const spender = emulator.router.createKey({ accountId: funded.id, name: 'e2e overnight' });
      emulator.router.spend(funded, spender, 6);
      await wb.runCommand('Keyward: Refresh Credit and Key Status');
      const text = await toast(wb, /e2e overnight .* has spent \$6\.00 today, past your alert at \$5\.00/);
      for (const button of ['Disable This Key', 'Raise the Limit…', 'Ignore Today'])
        if (!text.includes(button) && !(await wb.notifications()).includes(button))
          throw new Error(`the spend alert: no ${button} button in ${text.slice(0, 300)}`);
      // The notification centre open for the picture (a toast may have hidden by now), and Ignore Today from there.
      await wb.runCommand('Notifications: Show Notifications');
      const centre = wb.page.locator('.notifications-center');
      await centre.waitFor({ timeout: PATIENCE });
      await wb.page.mouse.move(10, 10);
      await wb.screenshot('spend-alert');
      // Ignore Today where the centre shows its button (a collapsed entry may not): the rest is the unit tests'.
      await centre
        .locator('.monaco-button', { hasText: 'Ignore Today' })
        .first()
        .click({ timeout: 10_000 })
        .catch(() => undefined);
      await wb.page.keyboard.press('Escape');
    },
  },
  {
    name: 'Disable this key now, the first quick fix of a key found in a file, disables it at the account',
    async run({ wb, emulator, workspace }) {
      // A key of the account pasted into a file (a file's key is the workspace's, as the diagnostic steps' are).
      const pasted = emulator.router.createKey({
        accountId: emulator.sandbox!.routerFundedAccountId,
        name: 'e2e pasted',
      });
      writeFileSync(join(workspace.folder, 'pasted-key.js'), `const key = '${pasted.value}';\n`);
      await quickInputClosed(wb);
      const menu = await quickFixMenu(wb, 'pasted-key.js', 'Disable this key now at the routing service');
      await wb.screenshot('disable-now-quick-fix');
      await menu.locator('.monaco-list-row', { hasText: 'Disable this key now' }).click();
      await toast(wb, /Disabled e2e pasted \(sk-or-v1-\w{3}\.{3}\w{4}\): requests with it are refused\./);
      await until('the pasted key to be disabled', () => (pasted.disabled ? true : undefined));
      await wb.screenshot('disabled-now');
      await wb.closeAllEditors();
      // The steps and the in-host suite after these count the workspace's keys as they were.
      rmSync(join(workspace.folder, 'pasted-key.js'));
    },
  },
  {
    name: 'Rotate, the first quick fix of the stored key found in a file: a new key made, stored and verified, the old one disabled',
    async run({ wb, emulator, leakKey, workspace }) {
      const funded = emulator.sandbox!.routerFundedAccountId;
      const old = emulator.router.createKey({
        accountId: funded,
        name: 'e2e rotate me',
        limit: 4,
        limitReset: 'weekly',
      });
      leakKey(old.value);
      await quickInputClosed(wb);
      await wb.runCommand('Keyward: Set Router Key');
      await wb.answerQuickInput(old.value);
      await quickInputClosed(wb);
      // The stored key, pasted into a file git tracks (added, not committed: no history for the steps after): its
      // diagnostic's first fix is Rotate, done with the management key in one step.
      writeFileSync(join(workspace.folder, 'rotate-me.js'), `const key = '${old.value}';\n`);
      // As Keyward runs git: config-driven programs off, only allow-listed variables in its environment.
      const git = async (...args: string[]) => {
        const run = await runGit(args, workspace.folder);
        if (run.code !== 0) throw new Error(`git ${args[0]} failed (exit ${run.code}): ${run.stderr}`);
      };
      await git('add', 'rotate-me.js');
      const menu = await quickFixMenu(wb, 'rotate-me.js', 'Rotate this key at the routing service');
      await wb.screenshot('rotate-quick-fix');
      await menu.locator('.monaco-list-row', { hasText: 'Rotate this key at the routing service' }).click();
      // The one question: delete the old key for good? Keep it (disabled).
      const dialog = wb.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: PATIENCE });
      await wb.screenshot('rotate-delete-question');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await toast(
        wb,
        /Key rotated: sk-or-v1-…\w{4} stored and verified\. The old key sk-or-v1-\w{3}\.{3}\w{4} is disabled\./,
      );
      await until('the old key to be disabled', () => (old.disabled ? true : undefined));
      const successor = [...emulator.router.keys.values()].find(
        (key) => key.name === 'e2e rotate me' && !key.disabled && key !== old,
      );
      if (!successor || successor.limit !== 4 || successor.limitReset !== 'weekly')
        throw new Error('the successor key did not keep the old one’s limit and reset');
      leakKey(successor.value);
      await wb.screenshot('rotated');
      await wb.closeAllEditors();
      await git('rm', '-q', '--cached', '-f', 'rotate-me.js');
      rmSync(join(workspace.folder, 'rotate-me.js'));
      // The key the steps after these use.
      await wb.runCommand('Keyward: Set Router Key');
      await wb.answerQuickInput(emulator.sandbox!.keys.routerFunded);
      await quickInputClosed(wb);
      // And no management key: the in-host suite after these steps shares the profile, and expects the quick fixes
      // a workspace without one offers.
      await wb.runCommand('Keyward: Remove a Management or Admin Key…');
      const remove = wb.page.locator('.monaco-dialog-box');
      await remove.waitFor({ timeout: PATIENCE });
      await remove.locator('.monaco-button', { hasText: /^Remove$/ }).click();
      await remove.waitFor({ state: 'hidden', timeout: PATIENCE });
    },
  },
];
