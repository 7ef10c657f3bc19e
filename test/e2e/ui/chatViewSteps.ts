// UI steps for where the chat lives: the view in the Keyward side bar with the
// cursor in its prompt box, the empty state, two conversations switched and
// restored after a reload, Clear with Undo, Export through the save dialog,
// and the walkthrough; screenshots in the dark and the light theme.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { answerText } from '../../emulator/answers.ts';
import { clearToasts, setTheme, waitFor } from './answerSteps.ts';
import type { UiStep } from './steps.ts';
import { PROBES } from '../harness/leakCheck.ts';
import { routerKey } from '../../emulator/keyFactory.ts';

const FIRST = 'first conversation about tide tables';
const SECOND = 'second conversation about bread';

/** The chat in the side bar: the one webview on screen once the editors are closed. */
function chat(wb: Workbench): FrameLocator {
  return wb.page.frameLocator('iframe.webview.ready:visible').frameLocator('iframe#active-frame');
}

async function escapeAll(wb: Workbench): Promise<void> {
  for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
}

/**
 * Runs the command whose title is exactly `title`: the palette ranks the recently
 * used "Keyward: Open Chat in Editor" above "Keyward: Open Chat" for that text.
 */
async function runExactly(wb: Workbench, title: string): Promise<void> {
  const rows = wb.page.locator('.quick-input-list .monaco-list-row');
  await until(`the command ${title}`, async () => {
    await wb.page.keyboard.press('F1');
    // Short waits: a palette that did not open (the focus was in a webview) is opened again by `until`.
    const input = wb.page.locator('.quick-input-widget input.input');
    const opened = await input.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!opened) return undefined;
    await input.fill(`>${title}`, { timeout: 5_000 });
    await rows.first().waitFor({ timeout: 5_000 });
    for (let i = 0; i < (await rows.count()); i++) {
      const label = (await rows.nth(i).getAttribute('aria-label')) ?? '';
      if (label.startsWith(title) && !label.startsWith(`${title} `)) {
        await rows.nth(i).click();
        return true;
      }
    }
    await wb.page.keyboard.press('Escape');
    return undefined;
  });
}

export async function openChatView(wb: Workbench): Promise<void> {
  await escapeAll(wb);
  await runExactly(wb, 'Keyward: Open Chat');
  await waitFor(
    () => wb.page.locator('.part.sidebar .composite.title').first().innerText(),
    /keyward/i,
    'the Keyward side bar',
  );
  await chat(wb).locator('#prompt').waitFor({ timeout: PATIENCE });
}

/** Sends on the direct service (its sandbox key has no daily free limit that an earlier step used up). */
async function send(wb: Workbench, prompt: string): Promise<void> {
  const view = chat(wb);
  const remove = view.locator('#attachments .chip-remove');
  while ((await remove.count()) > 0) await remove.first().click();
  await view.locator('#service-direct').click();
  await view.locator('#prompt').fill(prompt);
  await view.locator('#send').click();
  await waitFor(
    () => view.locator('#conversation').innerText(),
    answerText(prompt, { tokens: 12 }),
    `the answer to "${prompt}"`,
  );
}

async function conversationText(wb: Workbench): Promise<string> {
  return (await chat(wb).locator('#conversation').innerText()).replace(/\s+/g, ' ');
}

export const chatViewSteps: UiStep[] = [
  {
    name: 'Open Chat shows the chat in the Keyward side bar, beside the code',
    async run({ wb }) {
      // A quick pick an earlier step left open would take the theme's keystrokes.
      await escapeAll(wb);
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      // The editor panel of earlier steps closes: the code and the side bar stay.
      await wb.closeAllEditors();
      await wb.openFile('README.md');
      await openChatView(wb);
      // The caret is in the prompt box: typing goes there at once.
      await until('the caret in the prompt box', async () => {
        const focused = await chat(wb)
          .locator('body')
          .evaluate(() => {
            const el = document.activeElement;
            return el?.id === 'prompt' ? 'prompt' : `${el?.tagName ?? 'nothing'}#${el?.id ?? ''}`;
          });
        // Thrown, so a timeout names where the focus was.
        if (focused !== 'prompt') throw new Error(`the focus is on ${focused}`);
        return true;
      });
      await wb.page.keyboard.type('typed at once');
      await waitFor(
        () =>
          chat(wb)
            .locator('#prompt')
            .evaluate((el) => (el as HTMLTextAreaElement).value),
        'typed at once',
        'the typed text in the prompt box',
      );
      await chat(wb).locator('#prompt').fill('');
      // The code stays in sight beside the chat.
      await wb.page.locator('.tab.active', { hasText: 'README.md' }).waitFor({ timeout: PATIENCE });
      await wb.screenshot('chat-view-dark');
    },
  },
  {
    name: 'a new conversation shows the empty state: keys, a free model to try, the secret guard',
    async run({ wb }) {
      await wb.runCommand('Keyward: New Conversation');
      const empty = chat(wb).locator('.empty-state');
      await empty.waitFor({ timeout: PATIENCE });
      const text = await empty.innerText();
      for (const part of ['Routing service', 'Direct service', 'Try a free model', 'secret guard'])
        if (!text.toLowerCase().includes(part.toLowerCase()))
          throw new Error(`the empty state lacks "${part}": ${text}`);
      await wb.screenshot('chat-empty-state-dark');
    },
  },
  {
    name: 'two conversations: switched from the list (searched by text), and both come back after a reload',
    async run({ wb }) {
      await send(wb, FIRST);
      await wb.runCommand('Keyward: New Conversation');
      await until('the new conversation to be empty', async () =>
        (await conversationText(wb)).trim() === '' ? true : undefined,
      );
      await send(wb, SECOND);
      if ((await conversationText(wb)).includes(FIRST)) throw new Error('the second conversation shows the first');

      await wb.runCommand('Keyward: Show Conversations');
      await wb.page.locator('.quick-input-widget input.input').fill('tide');
      const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: FIRST });
      await row.first().waitFor({ timeout: PATIENCE });
      // The list follows the search as it is typed: the other conversation leaves it.
      await until('the search for "tide" to leave out the other conversation', async () =>
        (await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: SECOND }).count()) === 0
          ? true
          : undefined,
      );
      await wb.screenshot('conversation-list-dark');
      await wb.page.keyboard.press('Enter');
      await waitFor(() => conversationText(wb), answerText(FIRST, { tokens: 12 }), 'the first conversation');
      if ((await conversationText(wb)).includes(SECOND)) throw new Error('the first conversation shows the second');

      await wb.reloadWindow();
      await chat(wb).locator('#prompt').waitFor({ timeout: PATIENCE });
      await waitFor(() => conversationText(wb), answerText(FIRST, { tokens: 12 }), 'the first conversation, reloaded');
      await wb.runCommand('Keyward: Show Conversations');
      await wb.page.locator('.quick-input-widget input.input').fill('bread');
      await wb.page
        .locator('.quick-input-list .monaco-list-row', { hasText: SECOND })
        .first()
        .waitFor({ timeout: PATIENCE });
      await wb.page.keyboard.press('Enter');
      await waitFor(
        () => conversationText(wb),
        answerText(SECOND, { tokens: 12 }),
        'the second conversation, reloaded',
      );
      await wb.screenshot('conversation-restored-dark');
    },
  },
  {
    name: 'Clear shows a fresh conversation at once, and the Undo it offers in the view, from the keyboard, brings the old one back',
    async run({ wb }) {
      await clearToasts(wb);
      await chat(wb).locator('#clear').click();
      await chat(wb).locator('.empty-state').waitFor({ timeout: PATIENCE });
      if ((await conversationText(wb)).includes(SECOND)) throw new Error('Clear left the conversation');
      // The way back is in the view, in a live region, not only in a notification.
      const notice = chat(wb).locator('#cleared-notice');
      await waitFor(() => notice.innerText(), 'Conversation cleared.', 'the in-view notice after Clear');
      if ((await notice.getAttribute('role')) !== 'status') throw new Error('the notice is not a live region');
      // From the keyboard: Tab from the prompt box reaches Undo.
      await chat(wb).locator('#prompt').focus();
      const undoFocused = () =>
        chat(wb)
          .locator('#undo-clear')
          .evaluate((button) => button === document.activeElement && document.hasFocus())
          .catch(() => false);
      for (let i = 0; i < 8 && !(await undoFocused()); i++) await wb.page.keyboard.press('Tab');
      if (!(await undoFocused())) throw new Error('Tab from the prompt box did not reach Undo');
      await wb.screenshot('conversation-cleared-dark');
      await wb.page.keyboard.press('Enter');
      await waitFor(() => conversationText(wb), answerText(SECOND, { tokens: 12 }), 'the conversation after Undo');
      await notice.waitFor({ state: 'hidden', timeout: PATIENCE });
      if ((await wb.notifications()).includes('Conversation cleared'))
        throw new Error('Clear also raised a notification while the chat offered Undo');
      await wb.screenshot('conversation-undone-dark');
    },
  },
  {
    name: 'Export asks where to save (outside the workspace by default), writes there, and opens it',
    async run({ wb, workspace }) {
      await clearToasts(wb);
      await chat(wb).locator('#export').click();
      // code-server's save dialog is VS Code's simple file dialog: a quick input holding the path.
      const input = wb.page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: PATIENCE });
      // The simple dialog shows "/" first and fills in the proposed path as it resolves the folder (slower in a
      // fresh clone): read the path once it names a file.
      const proposed = await until('the proposed export path', async () => {
        const value = await input.evaluate((el) => (el as HTMLInputElement).value);
        return value.endsWith('.md') ? value : undefined;
      });
      if (!proposed.startsWith(homedir()) || proposed.startsWith(workspace.folder))
        throw new Error(`the save dialog proposed ${proposed}, not a file in the home folder`);
      if (!/keyward-second-conversation-about-bread\.md$/.test(proposed))
        throw new Error(`the proposed file is not named after the conversation: ${proposed}`);
      await wb.screenshot('export-dialog-dark');
      const target = join(mkdtempSync(join(tmpdir(), 'keyward-export-')), 'chosen.md');
      await input.fill(target);
      // The dialog checks the typed path as it changes; OK accepts once it has (Enter may come too early).
      const ok = wb.page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first();
      await until(
        'the export on disk',
        async () => {
          if (existsSync(target)) return true;
          if (await ok.isVisible().catch(() => false)) await ok.click().catch(() => undefined);
          return undefined;
        },
        PATIENCE,
        1000,
      );
      const text = readFileSync(target, 'utf8');
      if (!text.startsWith('# Keyward conversation: second conversation about bread'))
        throw new Error(`the export starts ${JSON.stringify(text.slice(0, 80))}`);
      if (!text.includes(answerText(SECOND, { tokens: 12 }))) throw new Error('the export lacks the answer');
      await wb.page.locator('.tab.active', { hasText: 'chosen.md' }).waitFor({ timeout: PATIENCE });
      await wb.screenshot('export-opened-dark');
    },
  },
  {
    name: 'the walkthrough opens: keys, the chat, a free model, a key warning',
    async run({ wb }) {
      await escapeAll(wb);
      await wb.runCommand('Welcome: Open Walkthrough...');
      await wb.answerQuickInput('Get Started with Keyward');
      const page = wb.page.locator('.gettingStartedContainer');
      await waitFor(() => page.innerText(), 'Store your keys', 'the walkthrough');
      const text = await page.innerText();
      for (const step of ['Open the chat', 'Send a first prompt to a free model', 'See a key warning'])
        if (!text.includes(step)) throw new Error(`the walkthrough lacks "${step}"`);
      await wb.screenshot('walkthrough-dark');
      await setTheme(wb, 'Light Modern');
      await wb.screenshot('walkthrough-light');
    },
  },
  {
    name: 'the chat view, the empty state and the conversation list in the light theme',
    async run({ wb }) {
      await wb.closeAllEditors();
      await openChatView(wb);
      await wb.screenshot('chat-view-light');
      await wb.runCommand('Keyward: New Conversation');
      await chat(wb).locator('.empty-state').waitFor({ timeout: PATIENCE });
      await wb.screenshot('chat-empty-state-light');
      await wb.runCommand('Keyward: Show Conversations');
      await wb.page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: PATIENCE });
      await wb.screenshot('conversation-list-light');
      await escapeAll(wb);
    },
  },
];

/**
 * Last of all: the leak check must find the saved webview state on disk, and the
 * editor panel that held the first draft was closed by the steps above. So a
 * draft holding a key is left in the editor chat again (its state is what the
 * in-host suite's window restores after this) and survives a reload there.
 */
export const leakProbeStep: UiStep = {
  name: 'a draft holding a key in the editor chat comes back after a reload, the key masked',
  async run({ wb, leakKey }) {
    await escapeAll(wb);
    // Only the editor chat stays visible, so the frame below is the panel's.
    await wb.runCommand('View: Close Primary Side Bar');
    await runExactly(wb, 'Keyward: Open Chat in Editor');
    await chat(wb).locator('#prompt').waitFor({ timeout: PATIENCE });
    const key = routerKey();
    leakKey(key);
    const box = chat(wb).locator('#prompt');
    await box.fill(`${PROBES.draft}: is ${key} the one?`);
    await box.press('End');
    await waitFor(
      async () => (await box.evaluate((el) => (el as HTMLTextAreaElement).value)) as string,
      PROBES.draft,
      'the draft in the box',
    );
    // As the first draft step does: the picture taken before the reload also gives the webview's state, saved as
    // the box changed, its way to the workbench (a reload at once lost it in one full run).
    await wb.screenshot('editor-chat-draft-before-reload');
    await wb.reloadWindow();
    await waitFor(
      async () =>
        (await chat(wb)
          .locator('#prompt')
          .evaluate((el) => (el as HTMLTextAreaElement).value)) as string,
      /is sk-or-v1-…[0-9a-f]{4} the one\?/,
      'the restored draft, masked',
    );
  },
};
