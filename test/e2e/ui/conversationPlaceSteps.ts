// UI steps for issue 21 items 3, 6, 12, 13 and 14: every conversation command from each place it is offered (the
// view's "…" menu passes its own context, not an id or a path), Clear keeping the old conversation in the list,
// the list's relative times and its row delete that leaves the list open with Undo, Keyward's status items side by
// side, and the walkthrough ticking "Send a first prompt". They run after the chat-view steps, which sent answers.
import type { FrameLocator, Locator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { waitFor } from './answerSteps.ts';
import { openChatView } from './chatViewSteps.ts';
import type { UiStep } from './steps.ts';

function chat(wb: Workbench): FrameLocator {
  return wb.page.frameLocator('iframe.webview.ready:visible').frameLocator('iframe#active-frame');
}

async function escapeAll(wb: Workbench): Promise<void> {
  for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
}

const ROWS = '.quick-input-list .monaco-list-row';
const rows = (wb: Workbench): Locator => wb.page.locator(ROWS);
const row = (wb: Workbench, text: string): Locator => wb.page.locator(ROWS, { hasText: text });
const input = (wb: Workbench): Locator => wb.page.locator('.quick-input-widget input.input');
/** The list's title-bar buttons (their tooltip is their name): New Conversation, and Undo Delete after a delete. */
const titleButton = (wb: Workbench, name: string): Locator =>
  wb.page.locator(`.quick-input-widget .quick-input-titlebar .action-label[aria-label^="${name}"]`);
const undoDelete = (wb: Workbench): Locator => titleButton(wb, 'Undo Delete');

/** Runs an item of the chat view's "…" menu (its title bar's More Actions), as a person clicks it. */
async function fromViewMenu(wb: Workbench, item: string): Promise<void> {
  await until(`"${item}" in the chat view's … menu`, async () => {
    await escapeAll(wb);
    const more = wb.page
      .locator(
        '.part.sidebar .title-actions .action-label.codicon-toolbar-more, .part.sidebar .title-actions [aria-label="Views and More Actions..."], .part.sidebar .title-actions [aria-label="More Actions..."]',
      )
      .first();
    if (!(await more.isVisible().catch(() => false))) return undefined;
    await more.click();
    const entry = wb.page.locator('.monaco-menu .action-item', { hasText: item }).first();
    const shown = await entry.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!shown) return undefined;
    await entry.click();
    return true;
  });
}

/** What the side bar says of the conversation shown (the view's title names it). */
const sidebarTitle = (wb: Workbench) => wb.page.locator('.part.sidebar').first().innerText();

export const conversationPlaceSteps: UiStep[] = [
  {
    name: 'Clear starts a fresh conversation and keeps the old one in the list',
    async run({ wb }) {
      await escapeAll(wb);
      await wb.closeAllEditors();
      await openChatView(wb);
      await wb.runCommand('Keyward: Show Conversations');
      await input(wb).fill('bread');
      await row(wb, 'second conversation about bread').first().waitFor({ timeout: PATIENCE });
      // Clicked, not Enter: the search may match the conversation shown as well, and Enter takes the first match.
      await row(wb, 'second conversation about bread').first().click();
      await waitFor(
        () => chat(wb).locator('#conversation').innerText(),
        'second conversation about bread',
        'the conversation to clear',
      );
      await chat(wb).locator('#clear').click();
      await chat(wb).locator('.empty-state').waitFor({ timeout: PATIENCE });
      await wb.runCommand('Keyward: Show Conversations');
      // The cleared conversation is a row of the list (the search runs over its text).
      await input(wb).fill('bread');
      await row(wb, 'second conversation about bread').first().waitFor({ timeout: PATIENCE });
      await wb.screenshot('clear-kept-in-list');
      await row(wb, 'second conversation about bread').first().click();
      await waitFor(
        () => chat(wb).locator('#conversation').innerText(),
        'second conversation about bread',
        'the cleared conversation, opened from the list',
      );
    },
  },
  {
    name: "the view's … menu renames, exports and deletes the conversation shown",
    async run({ wb }) {
      await fromViewMenu(wb, 'Rename Conversation');
      await wb.answerQuickInput('Renamed from the menu');
      await waitFor(() => sidebarTitle(wb), /Renamed from the menu/i, 'the view title after Rename from the … menu');
      await wb.screenshot('menu-rename');

      // Export opens the save dialog (it once said "exports only to a file on this machine").
      await fromViewMenu(wb, 'Export Conversation');
      const proposed = await until('the export dialog from the … menu', async () => {
        const value = await input(wb)
          .evaluate((el) => (el as HTMLInputElement).value)
          .catch(() => '');
        return value.endsWith('.md') ? value : undefined;
      });
      if (!/renamed-from-the-menu\.md$/.test(proposed)) throw new Error(`the export dialog proposed ${proposed}`);
      await wb.screenshot('menu-export');
      await escapeAll(wb);

      await fromViewMenu(wb, 'Delete Conversation');
      const confirm = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Delete' }).first();
      await confirm.waitFor({ timeout: PATIENCE });
      await wb.screenshot('menu-delete-question');
      await confirm.click();
      await wb.runCommand('Keyward: Show Conversations');
      await rows(wb).first().waitFor({ timeout: PATIENCE });
      if ((await row(wb, 'Renamed from the menu').count()) > 0)
        throw new Error('the conversation deleted from the … menu is still listed');
      await escapeAll(wb);
    },
  },
  {
    name: 'the list says how long ago, stays open after a row is deleted, offers Undo, and still searches',
    async run({ wb }) {
      await escapeAll(wb);
      await wb.runCommand('Keyward: Show Conversations');
      // The conversation's own row, not the Undo row that names it once it is deleted.
      const tide = row(wb, 'first conversation about tide tables');
      await tide.first().waitFor({ timeout: PATIENCE });
      const description = await tide.first().innerText();
      if (!/\bago\b|\bnow\b/.test(description)) throw new Error(`no relative time on the row: ${description}`);
      await tide.first().hover();
      await tide.first().locator('.action-label.codicon-trash').click();
      // The list is still open, the row gone, and Undo Delete offered in its title bar.
      const undo = undoDelete(wb);
      await undo.waitFor({ timeout: PATIENCE });
      await until('the deleted row to leave the list', async () => ((await tide.count()) === 0 ? true : undefined));
      await wb.screenshot('list-after-delete');
      await undo.click();
      // Undo puts the row back in the list, which stays open (it once switched the chat, whose frame took the
      // focus and closed the list under the step).
      await until('the row back, the Undo row gone, the list still open', async () =>
        (await tide.count()) > 0 && (await undoDelete(wb).count()) === 0 && (await input(wb).isVisible())
          ? true
          : undefined,
      );
      await wb.screenshot('list-after-undo-delete');
      // Still searching: typing filters the rows.
      await input(wb).fill('tide');
      await until('the search to keep only the tide conversation', async () =>
        (await rows(wb).filter({ hasText: 'conversation about' }).count()) === (await tide.count()) &&
        (await tide.count()) > 0
          ? true
          : undefined,
      );
      await wb.screenshot('list-search-after-undo');
      await escapeAll(wb);
    },
  },
  {
    name: "Keyward's status items sit side by side, none of the editor's between them",
    async run({ wb }) {
      await wb.openFile('README.md');
      await wb.page.locator('[id="status.editor.selection"]').waitFor({ timeout: PATIENCE });
      const order = await wb.page
        .locator('.part.statusbar .right-items > .statusbar-item')
        .evaluateAll((items) => items.map((item) => item.id));
      const ours = order.map((id, i) => (id.startsWith('keyward.keyward.') ? i : -1)).filter((i) => i >= 0);
      if (ours.length < 2) throw new Error(`fewer than two Keyward items on the right: ${order.join(', ')}`);
      const between = order.slice(ours[0], ours.at(-1)! + 1).filter((id) => !id.startsWith('keyward.keyward.'));
      if (between.length) throw new Error(`between Keyward's items: ${between.join(', ')}`);
      await wb.screenshot('status-bar');
    },
  },
  {
    name: 'the walkthrough ticks "Send a first prompt" after an answer, its text without raw backticks',
    async run({ wb }) {
      await escapeAll(wb);
      await wb.runCommand('Welcome: Open Walkthrough...');
      await wb.answerQuickInput('Get Started with Keyward');
      const step = wb.page.locator('button.getting-started-step[data-step-id="keyward.keyward#keyward.start#free"]');
      await step.waitFor({ timeout: PATIENCE });
      await until('the first-prompt step to be ticked', async () =>
        (await step.getAttribute('aria-checked')) === 'true' ? true : undefined,
      );
      await step.click();
      const text = await wb.page.locator('.gettingStartedContainer').innerText();
      if (text.includes('`')) throw new Error('the walkthrough shows a raw backtick');
      await wb.screenshot('walkthrough-ticked');
      await wb.closeAllEditors();
    },
  },
];
