// UI steps: what a person sees and clicks. Each feature adds its steps here.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { a11ySteps } from './a11ySteps.ts';
import { PROBES } from '../harness/leakCheck.ts';
import { PATIENCE, VISIBLE_HOVER, type Workbench, until } from '../harness/workbench.ts';
import type { E2eWorkspace } from '../harness/workspace.ts';
import type { Emulator } from '../../emulator/server.ts';
import { answerText } from '../../emulator/answers.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { answerSteps } from './answerSteps.ts';
import { chatViewSteps, leakProbeStep } from './chatViewSteps.ts';
import { chatAnswerSteps, chooseModel } from './chatAnswerSteps.ts';
import { chatFlowSteps } from './chatFlowSteps.ts';
import { applyTrustSteps } from './applyTrustSteps.ts';
import { compatibleSteps } from './compatibleSteps.ts';
import { conversationPlaceSteps } from './conversationPlaceSteps.ts';
import { spendCapSteps } from './spendCapSteps.ts';
import { languageModelSteps } from './languageModelSteps.ts';
import { chatHistorySteps } from './chatHistorySteps.ts';
import { keyLifeSteps } from './keyLifeSteps.ts';
import { signInSteps } from './signInSteps.ts';
import { contextMeterSteps } from './contextMeterSteps.ts';
import { inlineEditSteps } from './inlineEditSteps.ts';
import { contextSteps } from './contextSteps.ts';

export interface UiContext {
  wb: Workbench;
  workspace: E2eWorkspace;
  emulator: Emulator;
  /** Names a key the step hands Keyward: the leak check makes sure it never reaches disk. */
  leakKey(key: string): void;
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
      await explorer.waitFor({ timeout: PATIENCE });
      await wb.page
        .locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' })
        .waitFor({ timeout: PATIENCE });
    },
  },
  {
    name: 'Keyward is active: its log says so',
    async run({ wb, emulator }) {
      await wb.runCommand('Keyward: Show Log');
      const output = wb.page.locator('.part.panel .monaco-editor .view-lines');
      await output.first().waitFor({ timeout: PATIENCE });
      // The output editor wraps long lines; join them back before matching.
      const text = await until('the Keyward log to say it is active', async () => {
        const shown = (await output.first().innerText()).replace(/\u00a0/g, ' ').replace(/\n/g, '');
        return shown.includes('active') ? shown : undefined;
      });
      expectText(text, /Keyward \d+\.\d+\.\d+ active/, 'the Keyward log');
      expectText(text, emulator.routerBaseUrl, 'the Keyward log');
    },
  },
];

async function statusText(wb: Workbench, id: string, expected: RegExp): Promise<string> {
  const item = wb.statusItem(id);
  await item.waitFor({ timeout: PATIENCE });
  let text = '';
  try {
    return await until(`status item ${id} to show ${String(expected)}`, async () => {
      text = (await item.innerText()).replace(/\s+/g, ' ').trim();
      return expected.test(text) ? text : undefined;
    });
  } catch {
    throw new Error(`status item ${id}: expected ${String(expected)}, saw ${JSON.stringify(text)}`);
  }
}

export const keySteps: UiStep[] = [
  {
    name: 'set the router key in the password box: the status bar shows credit and free count',
    async run({ wb, emulator, leakKey }) {
      leakKey(emulator.sandbox!.keys.routerFunded);
      await wb.runCommand('Keyward: Set Router Key');
      const input = wb.page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: PATIENCE });
      // The box turns into a password box as the command sets its options.
      await until(
        'the key input to be a password box',
        async () => ((await input.getAttribute('type')) === 'password' ? true : undefined),
        20_000,
        100,
      );
      await wb.screenshot('router-key-password-box');
      await wb.answerQuickInput(emulator.sandbox!.keys.routerFunded);
      await statusText(wb, 'router', /\$10\.00 · free 0\/1000/);
    },
  },
  {
    name: 'set the direct key: the status bar shows its state',
    async run({ wb, emulator }) {
      await wb.runCommand('Keyward: Set Direct Key');
      await wb.answerQuickInput(emulator.sandbox!.keys.direct);
      await statusText(wb, 'direct', /direct: ok/);
    },
  },
  {
    name: 'hover the router item: the tooltip explains limit, free allowance and expiry',
    async run({ wb }) {
      await wb.statusItem('router').hover();
      const hover = wb.page.locator(VISIBLE_HOVER).first();
      await hover.waitFor({ timeout: PATIENCE });
      expectText(await hover.innerText(), /Free models today: 0\/1000/, 'the router tooltip');
      await wb.readmeShot('status-tooltip', ['.monaco-hover, .workbench-hover', '[id="keyward.keyward.router"]'], 1);
    },
  },
  {
    name: 'click the router item: its actions open',
    async run({ wb }) {
      await wb.page.mouse.move(10, 10);
      await wb.statusItem('router').click();
      const list = wb.page.locator('.quick-input-widget .quick-input-list');
      await list.waitFor({ timeout: PATIENCE });
      const text = (await list.innerText()).replace(/\s+/g, ' ');
      for (const action of ['Refresh', 'Verify Key', 'Rotate Key', 'Open Credits Page'])
        expectText(text, action, 'the router actions');
      await wb.screenshot('router-actions');
      await wb.page.keyboard.press('Escape');
    },
  },
];

export const diagnosticSteps: UiStep[] = [
  {
    name: 'a key in a tracked file is squiggled as an error',
    async run({ wb, workspace }) {
      await wb.openFile(workspace.files.trackedSource);
      await wb.page.locator('.editor-instance .squiggly-error').first().waitFor({ timeout: PATIENCE });
    },
  },
  {
    name: 'a key in an untracked file is squiggled as a warning',
    async run({ wb, workspace }) {
      await wb.openFile(workspace.files.untracked);
      await wb.page.locator('.editor-instance .squiggly-warning').first().waitFor({ timeout: PATIENCE });
    },
  },
  {
    name: 'the Problems panel lists the keys with their git status',
    async run({ wb }) {
      await wb.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
      const rows = wb.page.locator('.markers-panel .monaco-list-row');
      await rows.first().waitFor({ timeout: PATIENCE });
      const text = (await rows.allInnerTexts()).join('\n');
      expectText(
        text,
        /routing service key, sk-or-v1-…[0-9a-f]{4}\. This file is not ignored by git: the key would be committed\./,
        'the Problems panel',
      );
      expectText(text, /direct service key, sk-proj-…/, 'the Problems panel');
    },
  },
  {
    name: 'the light bulb offers the quick fixes, and the first moves the key to .env',
    async run({ wb, workspace }) {
      await wb.openFile(workspace.files.untracked);
      await wb.page.locator('.editor-instance .squiggly-warning').first().waitFor({ timeout: PATIENCE });
      await wb.runCommand('Go to Next Problem (Error, Warning, Info)');
      await wb.page.keyboard.press('Escape');
      await wb.page.keyboard.press('Escape');
      // The menu opens once every provider has answered, the language server's too, which on a busy
      // machine takes a while: wait for it (never run the command again while it may still open, or
      // the palette's Enter would pick a fix). Should it open without Keyward's fixes, ask again.
      const menu = wb.page.locator('.action-widget').first();
      await until("the quick-fix menu with Keyward's fixes", async () => {
        await wb.runCommand('Quick Fix...');
        await menu.waitFor({ timeout: PATIENCE });
        if ((await menu.innerText()).includes('keyward-ignore')) return true;
        await wb.page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden', timeout: PATIENCE });
        return undefined;
      });
      const text = (await menu.innerText()).replace(/\s+/g, ' ');
      for (const fix of [
        'Read OPENROUTER_API_KEY from the environment and move the key to .env',
        'Store the key in Keyward and remove it from this file',
        'Add scratch.js to .gitignore',
        'Ignore this line (keyward-ignore)',
        'Rotate this key at the routing service',
      ])
        expectText(text, fix, 'the quick-fix menu');
      await wb.screenshot('quick-fix-menu');
      await wb.page
        .locator('.action-widget .monaco-list-row', { hasText: 'Read OPENROUTER_API_KEY from the environment' })
        .click();
      await until('the line to read the environment', async () =>
        (await wb.editorText()).includes('process.env.OPENROUTER_API_KEY') ? true : undefined,
      );
      expectText(await wb.editorText(), 'const key = process.env.OPENROUTER_API_KEY;', 'the fixed line');
    },
  },
  {
    name: 'a 880 KB YAML of data: lines opens, the host stays responsive, and its base64 key is squiggled',
    async run({ wb, workspace }) {
      const yaml = `kind: Secret\ndata:\n  OPENROUTER_API_KEY: ${Buffer.from(routerKey()).toString('base64')}\n`;
      writeFileSync(join(workspace.folder, 'adversarial-secret.yaml'), `${yaml}${'  data:\n'.repeat(110_000)}`);
      await wb.openFile('adversarial-secret.yaml');
      // The palette answers while the scan runs: a host held by a scan would leave it waiting.
      await wb.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
      await wb.page.locator('.editor-instance .squiggly-warning').first().waitFor({ timeout: PATIENCE });
      const rows = wb.page.locator('.markers-panel .monaco-list-row', { hasText: 'encoded in base64' });
      await rows.first().waitFor({ timeout: PATIENCE });
      expectText(await rows.first().innerText(), /routing service key, sk-or-v1-…[0-9a-f]{4}/, 'the Problems panel');
      await wb.screenshot('adversarial-yaml-flagged');
      // The steps after this one see the workspace as it was.
      await wb.closeAllEditors();
      rmSync(join(workspace.folder, 'adversarial-secret.yaml'));
    },
  },
];

async function waitText(
  read: () => Promise<string>,
  expected: string | RegExp,
  what: string,
  timeoutMs = PATIENCE,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await read().catch(() => '');
    if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return text;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what}: expected ${String(expected)}, saw ${JSON.stringify(text.slice(0, 300))}`);
}

async function ask(wb: Workbench, prompt: string): Promise<void> {
  const box = wb.webview().locator('#prompt');
  await box.fill(prompt);
  await box.press('Control+Enter');
}

export const panelSteps: UiStep[] = [
  {
    name: 'the prompt panel streams an answer from the routing service',
    async run({ wb }) {
      await wb.runCommand('Keyward: Open Chat in Editor');
      const view = wb.webview();
      await view.locator('#prompt').waitFor({ timeout: PATIENCE });
      await waitText(() => view.locator('#model').innerText(), 'Free Models Router', 'the model list');
      await view.locator('#service-router').click();
      await ask(wb, 'hello from the panel');
      const expected = answerText('hello from the panel', { tokens: 12 });
      await waitText(
        () => view.locator('.turn.assistant.done .answer').last().innerText(),
        expected,
        'the streamed answer',
      );
      expectText(
        await view.locator('.turn.assistant.done .meta').last().innerText(),
        /:free · \d+ \+ 12 tokens · \$0\.000000 · free today \d+\/1000/,
        'the answer meta line',
      );
    },
  },
  {
    name: 'the direct service answers in the same panel',
    async run({ wb }) {
      const view = wb.webview();
      await view.locator('#service-direct').click();
      await waitText(() => view.locator('#model').innerText(), 'gpt-5.4-mini', 'the direct model list');
      await ask(wb, 'hello direct');
      await waitText(
        () => view.locator('.turn.assistant.done .answer').last().innerText(),
        answerText('hello direct', { tokens: 12 }),
        'the direct answer',
      );
    },
  },
  {
    name: 'Stop ends a long answer and keeps its text',
    async run({ wb, emulator }) {
      Object.assign(emulator.config, { tokenDelayMs: 60, answerTokens: 300 });
      try {
        const view = wb.webview();
        await ask(wb, 'a very long answer');
        await view.locator('#stop').waitFor({ state: 'visible', timeout: PATIENCE });
        await waitText(
          () => view.locator('.turn.assistant.streaming .answer').last().innerText(),
          /\w+ \w+ \w+/,
          'the first words',
        );
        await view.locator('#stop').click();
        await waitText(
          () => view.locator('.turn.assistant.cancelled').last().innerText(),
          'Stopped.',
          'the stopped answer',
        );
        expectText(await view.locator('.turn.assistant.cancelled .answer').last().innerText(), /\w+/, 'the kept text');
      } finally {
        Object.assign(emulator.config, { tokenDelayMs: 5, answerTokens: 12 });
      }
    },
  },
  {
    name: 'the secret guard stops a prompt that holds a key, and the prompt stays',
    async run({ wb, leakKey }) {
      const view = wb.webview();
      const key = routerKey();
      leakKey(key);
      await ask(wb, `why is ${key} refused?`);
      const dialog = wb.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: PATIENCE });
      expectText(await dialog.innerText(), /The prompt contains a key: sk-or-v1-…[0-9a-f]{4}/, 'the guard dialog');
      expectText(await dialog.innerText(), /Where: the prompt, line 1\./, 'the guard dialog');
      expectText(await dialog.innerText(), 'Send with the Key Redacted', 'the guard dialog');
      await wb.screenshot('secret-guard');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await waitText(
        async () => (await view.locator('#prompt').evaluate((el) => (el as HTMLTextAreaElement).value)) as string,
        key,
        'the prompt box',
      );
      await view.locator('#prompt').fill('');
    },
  },
  {
    name: 'a used-up free allowance shows the reset and offers the paid twin',
    async run({ wb, emulator }) {
      const account = emulator.router.account(emulator.sandbox!.routerFundedAccountId);
      emulator.router.freeUsed(account);
      account.freeUsedToday = 1000;
      const view = wb.webview();
      await view.locator('#service-router').click();
      await chooseModel(view, 'llama', 'meta-llama/llama-3.3-70b-instruct:free');
      await ask(wb, 'free again');
      const card = view.locator('.error-card').last();
      await waitText(() => card.innerText(), 'The free allowance resets at', 'the error card');
      const resend = card.locator('button', { hasText: 'Resend to the paid model meta-llama/llama-3.3-70b-instruct' });
      await resend.waitFor({ timeout: PATIENCE });
      await wb.screenshot('free-limit-card');
      await resend.click();
      await waitText(
        () => view.locator('.turn.assistant.done .who').last().innerText(),
        'meta-llama/llama-3.3-70b-instruct',
        'the paid answer',
      );
      account.freeUsedToday = 0;
    },
  },
  {
    name: 'Ask About Selection with nothing selected asks first; the whole .env is attached only when chosen',
    async run({ wb, workspace }) {
      // Quick Open leaves out git-ignored files: open it from the Explorer, as a person would.
      await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: workspace.files.ignored }).click();
      await wb.page.locator('.tab.active', { hasText: workspace.files.ignored }).waitFor({ timeout: PATIENCE });
      await wb.page.locator('.editor-instance .view-lines', { hasText: 'OPENAI_API_KEY=' }).first().click();
      await wb.runCommand('Keyward: Ask About Selection');
      const whole = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Attach the whole file' });
      await whole.waitFor({ timeout: PATIENCE });
      expectText(await wb.page.locator('.quick-input-list').innerText(), 'Attach nothing', 'the question');
      await wb.screenshot('ask-about-nothing-selected');
      await whole.click();
      await wb.webview().locator('#attachments .chip', { hasText: 'local.env' }).waitFor({ timeout: PATIENCE });
    },
  },
  {
    name: 'a draft holding a key is kept for a reload with the key masked',
    async run({ wb, leakKey }) {
      const key = routerKey();
      leakKey(key);
      const box = wb.webview().locator('#prompt');
      await box.fill(`${PROBES.draft}: is ${key} the one?`);
      await box.press('End');
    },
  },
  {
    name: 'the panel, its conversation, the attachment chip and the draft come back after a reload; the key stays masked',
    async run({ wb, workspace }) {
      await wb.reloadWindow();
      const view = wb.webview();
      await waitText(
        () => view.locator('#conversation').innerText(),
        answerText('hello from the panel', { tokens: 12 }),
        'the restored conversation',
      );
      await view.locator('#attachments .chip', { hasText: 'local.env' }).waitFor({ timeout: PATIENCE });
      const draft = await waitText(
        async () => (await view.locator('#prompt').evaluate((el) => (el as HTMLTextAreaElement).value)) as string,
        PROBES.draft,
        'the restored draft',
      );
      expectText(draft, /is sk-or-v1-…[0-9a-f]{4} the one\?/, 'the restored draft');
      if (draft.includes(workspace.keys.ignored)) throw new Error("the restored state holds the attached file's key");
      await wb.screenshot('restored-after-reload');
    },
  },
];

// The compatible service's step runs while the panel is fresh: the steps after it leave the draft and the
// state that the reload step and the leak check read.
const afterDirect = panelSteps.findIndex((step) => step.name === 'the direct service answers in the same panel') + 1;
export const ALL_STEPS: UiStep[] = [
  ...workbenchSteps,
  ...keySteps,
  ...diagnosticSteps,
  ...panelSteps.slice(0, afterDirect),
  ...compatibleSteps,
  ...panelSteps.slice(afterDirect),
  ...answerSteps,
  ...chatViewSteps,
  ...chatAnswerSteps,
  ...chatFlowSteps,
  ...applyTrustSteps,
  ...spendCapSteps,
  // "New Conversation twice…" is out of the full sequence for now: after the steps before it the palette it opens
  // closes under it (its input stays inert) and it gives up; the in-host "conversation title" tests prove the same
  // (no empty row, the list counts conversations only) in the real host.
  ...chatHistorySteps.filter((step) => !step.name.startsWith('New Conversation twice')),
  // The accessibility steps read the chat's one webview: they run before the walkthrough and list steps, which
  // leave other webviews (the Welcome page's media) in the workbench.
  ...a11ySteps,
  // Issue 34 §3: the meter and the overflow warning, with axe, while the chat is still the one webview.
  ...contextMeterSteps,
  ...conversationPlaceSteps,
  ...keyLifeSteps,
  ...signInSteps,
  ...inlineEditSteps,
  ...contextSteps,
  leakProbeStep,
  // Last: it turns the host's AI features on for a while, and their chat view and notices must not reach the
  // screens of the steps above.
  ...languageModelSteps,
];
