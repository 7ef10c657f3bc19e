// UI step for Keyward's models in VS Code's own model picker: the chat view's picker (the host ships its chat, the
// built-in Copilot Chat extension) lists the models of every language-model provider; Keyward's carry their service
// as the detail ("Routing service").
// The run's settings switch AI features off (chat.disableAIFeatures, to keep the other steps' screens quiet): this
// step turns them on for the workspace and back off after. Stands alone after the router key step
// (KEYWARD_E2E_UI_GREP='router key in the password box|model picker').
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATIENCE } from '../harness/workbench.ts';
import { clearToasts, waitFor } from './answerSteps.ts';
import type { UiStep } from './steps.ts';

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
        const picker = wb.page.locator('.action-widget', { hasText: 'Routing service' });
        let seen = '';
        const text = await waitFor(
          async () => {
            if (!(await picker.isVisible().catch(() => false))) {
              const labels = await items.allInnerTexts();
              seen = labels.join(' | ');
              const index = labels.findIndex((l) => l.trim() !== '' && !/^(Agent|Ask|Edit|Plan)$/i.test(l.trim()));
              if (index < 0) return `picker items: ${seen}`;
              await items.nth(index).click();
              await picker.waitFor({ timeout: 10_000 }).catch(() => wb.page.keyboard.press('Escape'));
            }
            return (await picker.isVisible().catch(() => false)) ? picker.innerText() : `picker items: ${seen}`;
          },
          'Routing service',
          'a Keyward model, with its service, in VS Code’s model picker',
          120_000,
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
];
