// UI steps: what a person sees and clicks. Each feature adds its steps here.
import type { Workbench } from '../harness/workbench.ts';
import type { E2eWorkspace } from '../harness/workspace.ts';
import type { Emulator } from '../../emulator/server.ts';

export interface UiContext {
  wb: Workbench;
  workspace: E2eWorkspace;
  emulator: Emulator;
}

export interface UiStep {
  name: string;
  run(ctx: UiContext): Promise<void>;
}

function expectText(actual: string, expected: string | RegExp, what: string): void {
  const ok = typeof expected === 'string' ? actual.includes(expected) : expected.test(actual);
  if (!ok) throw new Error(`${what}: expected ${String(expected)} in ${JSON.stringify(actual.slice(0, 400))}`);
}

export const workbenchSteps: UiStep[] = [
  {
    name: 'workbench shows the workspace',
    async run({ wb }) {
      const explorer = wb.page.locator('.explorer-folders-view');
      await explorer.waitFor({ timeout: 30_000 });
      await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'Keyward is active: its log says so',
    async run({ wb, emulator }) {
      await wb.runCommand('Keyward: Show Log');
      const output = wb.page.locator('.part.panel .monaco-editor .view-lines');
      await output.first().waitFor({ timeout: 15_000 });
      let text = '';
      for (let i = 0; i < 50 && !text.includes('active'); i++) {
        // The output editor wraps long lines; join them back before matching.
        text = (await output.first().innerText()).replace(/\u00a0/g, ' ').replace(/\n/g, '');
        if (!text.includes('active')) await wb.page.waitForTimeout(200);
      }
      expectText(text, /Keyward \d+\.\d+\.\d+ active/, 'the Keyward log');
      expectText(text, emulator.routerBaseUrl, 'the Keyward log');
    },
  },
];

export const ALL_STEPS: UiStep[] = [...workbenchSteps];
