// UI step for Keyward's models in VS Code's own model picker: the chat view's picker (the host ships its chat, the
// built-in Copilot Chat extension) lists the models of every language-model provider; Keyward's carry their service
// as the detail ("Routing service").
// The run's settings switch AI features off (chat.disableAIFeatures, to keep the other steps' screens quiet): this
// step turns them on for the workspace and back off after. Stands alone after the router key step
// (KEYWARD_E2E_UI_GREP='router key in the password box|model picker').
// Then another extension (harness/callerExtension.ts, installed next to Keyward) asks for a Keyward model: Keyward
// asks the person once, in a modal; Allow lets the answer through; "Keyward: Manage Language Model Access" lists the
// extension with today's spend and takes the permission back, after which its request is refused without a question.
// Stands alone after the router key step (KEYWARD_E2E_UI_GREP='router key in the password box|another extension').
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATIENCE } from '../harness/workbench.ts';
import { clearToasts, waitFor } from './answerSteps.ts';
import type { UiStep } from './steps.ts';
import { CALLER_NAME } from '../harness/callerExtension.ts';
import type { Workbench } from '../harness/workbench.ts';

export const languageModelSteps: UiStep[] = [
  {
    name: 'VS Code’s own model picker lists Keyward’s models, with their service',
    async run({ wb, workspace }) {
      const dir = join(workspace.folder, '.vscode');
      const hadDir = existsSync(dir);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ 'chat.disableAIFeatures': false }, null, 2));
      try {
        await clearToasts(wb);
        for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
        await wb.runCommand('Chat: Open Chat');
        const input = wb.page.locator('.interactive-input-part .monaco-editor').last();
        await input.waitFor({ timeout: PATIENCE });
        await wb.screenshot('vscode-chat-view');
        // The model picker is the input's picker item that names a model (the others name the agent mode). It
        // opens on the recent and recommended models, each with its provider's detail: Keyward's say their service
        // ("Routing service"); the host's own providers have no account or key in this run and offer none.
        const items = wb.page.locator('.interactive-input-part .chat-input-picker-item');
        const widget = wb.page.locator('.action-widget');
        const picker = widget.filter({ hasText: 'Routing service' });
        let seen = '';
        const text = await waitFor(
          async () => {
            if (!(await picker.isVisible().catch(() => false))) {
              const labels = await items.allInnerTexts();
              seen = `picker items: ${labels.join(' | ')}`;
              const index = labels.findIndex((l) => l.trim() !== '' && !/^(Agent|Ask|Edit|Plan)$/i.test(l.trim()));
              if (index < 0) return seen;
              await items.nth(index).click();
              await widget.waitFor({ timeout: 10_000 }).catch(() => undefined);
              // Keyward's models may all be under the list's folded "Other Models" (none of them chosen yet, as when
              // VS Code's own default is not Keyward's): unfold it, as a person would.
              const other = widget.locator('.monaco-list-row', { hasText: /Other Models/ }).first();
              if (!(await picker.isVisible().catch(() => false)) && (await other.isVisible().catch(() => false)))
                await other.click();
              await picker.waitFor({ timeout: 5_000 }).catch(() => undefined);
              if (!(await picker.isVisible().catch(() => false))) {
                seen += `; the list showed: ${(await widget.innerText().catch(() => '(none)')).replace(/\s+/g, ' ')}`;
                await wb.screenshot('vscode-model-picker-without-keyward');
                await wb.page.keyboard.press('Escape');
              }
            }
            return (await picker.isVisible().catch(() => false)) ? picker.innerText() : seen;
          },
          'Routing service',
          'a Keyward model, with its service, in VS Code’s model picker',
          180_000,
        );
        await wb.screenshot('vscode-model-picker-keyward');
        console.log(`  VS Code's model picker showed: ${text.slice(0, 400)}`);
        await wb.page.keyboard.press('Escape');
      } finally {
        await wb.screenshot('vscode-model-picker-end');
        rmSync(hadDir ? join(dir, 'settings.json') : dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'another extension asks for Keyward’s models: asked once, allowed, then refused from Manage Language Model Access',
    async run({ wb }) {
      await clearToasts(wb);
      for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
      await wb.runCommand(`${CALLER_NAME}: Ask a Keyward Model`);
      const dialog = wb.page.locator('.monaco-dialog-box');
      const asking = /Keyward E2E Caller .*wants to use Keyward’s language models/;
      const what = 'Keyward’s one-time question about the other extension';
      // Once in a full run the question never came (the caller's command seemed to go nowhere after the steps
      // before it): after two minutes without it, what the caller said is named, and the command is given again.
      const question = await waitFor(() => dialog.innerText(), asking, what, 120_000).catch(async () => {
        console.log(`  No question yet; notifications: ${(await wb.notifications().catch(() => '')).slice(0, 300)}`);
        for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
        await wb.runCommand(`${CALLER_NAME}: Ask a Keyward Model`);
        return waitFor(() => dialog.innerText(), asking, what);
      });
      console.log(`  The question: ${question.slice(0, 300)}`);
      await wb.screenshot('lm-access-question');
      await dialog.locator('.monaco-button', { hasText: /^\s*Allow\s*$/ }).click();
      await dialog.waitFor({ state: 'hidden', timeout: PATIENCE });
      const answered = await toast(wb, /Caller got an answer|Caller was refused/);
      await centreShot(wb, 'lm-access-allowed-answer');
      if (!answered.includes('Caller got an answer')) throw new Error(`the allowed request failed: ${answered}`);

      await clearToasts(wb);
      await wb.runCommand('Keyward: Manage Language Model Access');
      const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: CALLER_NAME });
      const listed = await waitFor(
        () => row.innerText(),
        /allowed[\s\S]*Spent today: \$0\.\d+/,
        'the extension, allowed, with its spend',
      );
      console.log(`  Manage Language Model Access lists: ${listed}`);
      await wb.screenshot('lm-access-manage-list');
      await row.click();
      const deny = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: "Don't Allow" });
      await deny.waitFor({ timeout: PATIENCE });
      await wb.screenshot('lm-access-manage-choice');
      await deny.click();
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: PATIENCE });

      // Taken back: refused, and not asked again.
      await wb.runCommand(`${CALLER_NAME}: Ask a Keyward Model`);
      const refused = await toast(wb, /Caller was refused|Caller got an answer/);
      await centreShot(wb, 'lm-access-refused');
      if (!/is not allowed to use Keyward’s language models/.test(refused))
        throw new Error(`taken back, yet the request was not refused: ${refused}`);
      if (await dialog.isVisible().catch(() => false)) throw new Error('asked again after the answer was remembered');
      await clearToasts(wb);
    },
  },
];

/** The other extension's notification: a toast, or the notification centre once the toast has gone. */
async function toast(wb: Workbench, expected: RegExp): Promise<string> {
  return waitFor(
    async () => {
      const toasts = (await wb.page.locator('.notifications-toasts .notification-toast').allInnerTexts()).join(' | ');
      return expected.test(toasts) ? toasts : wb.notifications();
    },
    expected,
    'the other extension’s notification',
  );
}

/** The notification centre open, for the screenshot: this run's toasts hide before a picture can be taken. */
async function centreShot(wb: Workbench, name: string): Promise<void> {
  await wb.showNotificationCentre();
  await wb.page.mouse.move(10, 10);
  await wb.screenshot(name);
  await wb.page.keyboard.press('Escape');
}
