// UI step for the daily spend cap: past the cap a paid prompt is held on a card above the prompt box (no dialog),
// the prompt stays in the box, and each of the card's buttons does what it says: "Use a free model" sends to the
// free router and shows it in the picker, "Send anyway" sends to the paid model, "Change cap" opens the setting.
// The cap is set as a workspace may set it (a workspace may set or lower a cap, never raise the user's), in the
// workspace's .vscode/settings.json, which the step removes again. Stands alone after the router key step
// (KEYWARD_E2E_UI_GREP='router key in the password box|spend cap').
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATIENCE, VISIBLE_HOVER, type Workbench } from '../harness/workbench.ts';
import { ask, clearToasts, ensurePanel, setTheme, waitFor } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiStep } from './steps.ts';

const PAID = 'openai/gpt-4o-mini';

async function paidModel(wb: Workbench): Promise<void> {
  await ensurePanel(wb);
  const view = wb.webview();
  await view.locator('#service-router').click();
  await waitFor(() => view.locator('#model').innerText(), PAID, 'the router model list');
  await chooseModel(view, 'gpt-4o', PAID);
}

const promptValue = (wb: Workbench) =>
  wb
    .webview()
    .locator('#prompt')
    .evaluate((el) => (el as HTMLTextAreaElement).value) as Promise<string>;

/** Asks, then waits for the card: the prompt was held, not sent. */
async function heldOnCard(wb: Workbench, prompt: string): Promise<void> {
  const view = wb.webview();
  const users = await view.locator('.turn.user').count();
  await ask(wb, prompt);
  await waitFor(() => view.locator('#spend-cap .spend-cap-card').innerText(), 'Daily spend cap reached', 'the card');
  if ((await view.locator('.turn.user').count()) !== users) throw new Error('the held prompt was sent');
  await waitFor(() => promptValue(wb), prompt, 'the held prompt in the box');
}

/** Sent from the card: a new answer ends, and the card has gone. */
async function sentFromCard(wb: Workbench, button: 'free' | 'send', answers: number): Promise<void> {
  const view = wb.webview();
  await view.locator(`#spend-cap button[data-action="${button}"]`).click();
  await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
  await view.locator('#spend-cap').waitFor({ state: 'hidden', timeout: PATIENCE });
}

export const spendCapSteps: UiStep[] = [
  {
    name: 'spend cap card: past the cap a paid prompt waits on the card; a free model, Send anyway and Change cap work',
    async run({ wb, workspace }) {
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      await paidModel(wb);
      const view = wb.webview();
      // One paid answer with no cap: today's spend is above zero, whatever ran before.
      const before = await view.locator('.turn.assistant.done').count();
      await ask(wb, 'a paid answer before the cap');
      await view.locator('.turn.assistant.done').nth(before).waitFor({ timeout: PATIENCE });

      const dir = join(workspace.folder, '.vscode');
      const hadDir = existsSync(dir);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ 'keyward.spend.dailyCapUsd': 0.000001 }, null, 2));
      try {
        // The tooltip follows the setting; a hover shown before the change keeps its old text, so hover again.
        await waitFor(
          async () => {
            await wb.page.mouse.move(10, 10);
            await wb.statusItem('router').hover();
            const hover = wb.page.locator(VISIBLE_HOVER).first();
            await hover.waitFor({ timeout: 10_000 });
            return hover.innerText();
          },
          /of the \$0\.000001 daily cap/,
          'the cap in the router tooltip',
        );
        await wb.page.mouse.move(10, 10);
        // The tooltip must not cover the card in the screenshots: it goes when the pointer leaves, else on Escape.
        await wb.page
          .locator('.monaco-hover, .workbench-hover')
          .first()
          .waitFor({ state: 'hidden', timeout: 10_000 })
          .catch(() => wb.page.keyboard.press('Escape'));

        await heldOnCard(wb, 'over the cap, to a free model');
        const card = view.locator('#spend-cap .spend-cap-card');
        await waitFor(
          () => card.innerText(),
          /Spent today in this workspace: \$0\.\d+ · daily cap: \$0\.000001/,
          'amounts',
        );
        await waitFor(
          () =>
            card
              .locator('button')
              .allInnerTexts()
              .then((t) => t.join('|')),
          'Use a free model|Send anyway|Change cap',
          'the card’s buttons, the free model first',
        );
        if ((await wb.page.locator('.monaco-dialog-box').count()) > 0) throw new Error('a dialog was shown');
        await wb.screenshot('spend-cap-card-dark');
        await sentFromCard(wb, 'free', await view.locator('.turn.assistant.done').count());
        await waitFor(() => view.locator('#model-picker').innerText(), /free/i, 'the free model in the picker');
        await waitFor(
          () => view.locator('.turn.assistant.done').last().innerText(),
          /free/i,
          'the free model answered',
        );
        await wb.screenshot('spend-cap-free-model-dark');

        await chooseModel(view, 'gpt-4o', PAID);
        await heldOnCard(wb, 'over the cap, sent anyway');
        await sentFromCard(wb, 'send', await view.locator('.turn.assistant.done').count());
        await waitFor(() => view.locator('.turn.assistant.done').last().innerText(), 'gpt-4o-mini', 'the paid answer');

        await heldOnCard(wb, 'over the cap, change it');
        await view.locator('#spend-cap button[data-action="cap"]').click();
        const search = wb.page.locator('.settings-editor .settings-header .suggest-input-container');
        await waitFor(() => search.innerText(), 'keyward.spend.dailyCapUsd', 'the setting searched for');
        await wb.page
          .locator('.settings-editor .setting-item-contents', { hasText: 'daily spend cap' })
          .first()
          .waitFor({ timeout: PATIENCE });
        await wb.screenshot('spend-cap-change-cap-setting');
        // Closed from its tab, as a person would (the palette is slow to open while the settings search has focus).
        await wb.page.locator('.tab', { hasText: 'Settings' }).locator('.tab-actions .action-label').click();
        await wb.page.locator('.tab', { hasText: 'Settings' }).waitFor({ state: 'detached', timeout: PATIENCE });
        await ensurePanel(wb);
        await view.locator('#spend-cap .spend-cap-close').click();
        await view.locator('#spend-cap').waitFor({ state: 'hidden', timeout: PATIENCE });
        await view.locator('#prompt').fill('');
      } finally {
        rmSync(hadDir ? join(dir, 'settings.json') : dir, { recursive: true, force: true });
      }
    },
  },
];
