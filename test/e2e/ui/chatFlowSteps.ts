// UI steps for issue 21's daily moments in the chat, beside Copilot Chat: Apply puts a block into the file it is
// for with Keep and Undo in words (Copilot's Apply in Editor), an edited message sent again replaces what followed
// it with an Undo in the view, and Enter while an answer streams queues the prompt. Each waits on what the page
// shows, never on a fixed pause.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { ask, clearToasts, ensurePanel, setTheme, waitFor } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiStep } from './steps.ts';

const DEMO = 'apply-demo.js';
const DEMO_TEXT = 'function greet(name) {\n  return "hello " + name;\n}\n\nfunction other() {\n  return 1;\n}\n';

async function paidModel(wb: Workbench): Promise<FrameLocator> {
  await ensurePanel(wb);
  const view = wb.webview();
  await view.locator('#service-router').click();
  await waitFor(() => view.locator('#model').innerText(), 'openai/gpt-4o-mini', 'the router model list');
  await chooseModel(view, 'gpt-4o', 'openai/gpt-4o-mini');
  return view;
}

/** Asks and waits for this prompt's own answer: an older block must not be the "last" one clicked. */
async function askForBlock(wb: Workbench, view: FrameLocator, prompt: string) {
  const answers = await view.locator('.turn.assistant.done').count();
  await ask(wb, prompt);
  const answer = view.locator('.turn.assistant.done').nth(answers);
  await answer.waitFor({ timeout: PATIENCE });
  const block = answer.locator('.code-block').last();
  await block.waitFor({ timeout: PATIENCE });
  return block;
}

async function editorShows(wb: Workbench, text: string, present: boolean, what: string): Promise<void> {
  await until(`${what}: ${present ? '' : 'no '}${JSON.stringify(text)} in the editor`, async () =>
    (await wb.editorText().catch(() => '')).includes(text) === present ? true : undefined,
  );
}

const promptValue = (view: FrameLocator) =>
  view.locator('#prompt').evaluate((el) => (el as HTMLTextAreaElement).value) as Promise<string>;

/** The text of the turns shown, user and answer, in order, white space collapsed. */
const userTexts = (view: FrameLocator) =>
  view.locator('.turn.user .user-text').evaluateAll((nodes) => nodes.map((n) => (n.textContent ?? '').trim()));

export const chatFlowSteps: UiStep[] = [
  {
    name: 'Apply: a block that names no file asks which file (README is not assumed); Escape writes nothing',
    async run({ wb, workspace }) {
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      const readme = readFileSync(join(workspace.folder, 'README.md'), 'utf8');
      await wb.openFile('README.md');
      await wb.page.locator('.editor-instance .view-lines', { hasText: 'Keys belong' }).first().click();
      const view = await paidModel(wb);
      const block = await askForBlock(wb, view, '[[code]] show me some code');
      await block.locator('button[aria-label^="Apply"]').click();
      const picker = wb.page.locator('.quick-input-widget');
      await waitFor(() => picker.innerText(), 'Apply the code to which file?', 'the question');
      await waitFor(() => picker.innerText(), 'Choose file…', 'the choice of another file');
      await waitFor(() => picker.innerText(), 'README.md', 'the open editor offered');
      await wb.screenshot('apply-which-file-dark');
      await wb.page.keyboard.press('Escape');
      await waitFor(() => block.locator('.apply-status').innerText(), 'Apply cancelled', 'the chat says so');
      await editorShows(wb, 'console.log', false, 'README after the question');
      if (readFileSync(join(workspace.folder, 'README.md'), 'utf8') !== readme) throw new Error('README changed');
    },
  },
  {
    name: 'Apply: a block naming its file goes into that file, merged into its function; Undo and Keep in words',
    async run({ wb, workspace }) {
      const demo = join(workspace.folder, DEMO);
      writeFileSync(demo, DEMO_TEXT);
      // README is active with its caret in place: Apply must not go there.
      await wb.openFile('README.md');
      await wb.page.locator('.editor-instance .view-lines', { hasText: 'Keys belong' }).first().click();
      const view = await paidModel(wb);
      const block = await askForBlock(wb, view, `[[code:${DEMO}]] make greet say keyward`);
      await block.locator('button[aria-label^="Apply"]').click();
      await wb.page.locator('.tab.active', { hasText: DEMO }).waitFor({ timeout: PATIENCE });
      await editorShows(wb, '"keyward, " + name', true, 'the merged function');
      await editorShows(wb, '"hello " + name', false, 'the old function body');
      await editorShows(wb, 'function other()', true, 'the rest of the file');
      // Keep and Undo in words: under the block in the chat, and above the change in the editor.
      const status = block.locator('.apply-status');
      await waitFor(() => status.innerText(), `Applied to ${DEMO}`, 'the chat line');
      const chatButtons = await status.locator('button').allInnerTexts();
      if (chatButtons.join('|') !== 'Keep|Undo') throw new Error(`the chat's buttons: ${chatButtons.join('|')}`);
      const lenses = wb.page.locator('.editor-group-container.active .codelens-decoration');
      await waitFor(() => lenses.first().innerText(), /Keep.*Undo/, 'the Keep and Undo above the change');
      await wb.screenshot('apply-keep-undo-dark');
      await status.locator('button', { hasText: 'Undo' }).click();
      await editorShows(wb, '"hello " + name', true, 'the text after Undo');
      await editorShows(wb, '"keyward, " + name', false, 'the text after Undo');
      await waitFor(() => status.innerText(), `Undone: ${DEMO} is as it was.`, 'the chat line after Undo');
      // The editor's Keep and Undo go with the change.
      await wb.page
        .locator('.codelens-decoration', { hasText: 'Keep' })
        .waitFor({ state: 'detached', timeout: 60_000 });
      await wb.screenshot('apply-undone-dark');
      // Again, kept this time from the editor's own Keep.
      await block.locator('button[aria-label^="Apply"]').click();
      await editorShows(wb, '"keyward, " + name', true, 'the merged function again');
      await lenses.locator('a', { hasText: 'Keep' }).first().click();
      await waitFor(() => block.locator('.apply-status').innerText(), `Kept in ${DEMO}.`, 'the chat line after Keep');
      await editorShows(wb, '"keyward, " + name', true, 'the kept change');
      await wb.page
        .locator('.codelens-decoration', { hasText: 'Keep' })
        .waitFor({ state: 'detached', timeout: PATIENCE });
      await wb.screenshot('apply-kept-dark');
      await editorShows(wb, 'console.log', false, 'README untouched');
    },
  },
  {
    name: 'Edit and send again replaces the message and what followed it; Undo in the view brings them back',
    async run({ wb }) {
      const view = await paidModel(wb);
      // The conversation earlier steps left: what was there before the two questions stays through all of this.
      const earlier = await userTexts(view);
      const answers = await view.locator('.turn.assistant.done').count();
      await ask(wb, 'first question');
      await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
      await ask(wb, 'second question');
      await view
        .locator('.turn.assistant.done')
        .nth(answers + 1)
        .waitFor({ timeout: PATIENCE });
      const first = view.locator('.turn.user', { hasText: 'first question' });
      await first.hover();
      await first.locator('button[aria-label="Edit and send again"]').click();
      await waitFor(
        () => view.locator('#editing').innerText(),
        'sending replaces it and the 3 messages after it',
        'the edit banner',
      );
      await waitFor(() => promptValue(view), 'first question', 'the message in the box');
      await wb.screenshot('edit-banner-dark');
      await view.locator('#prompt').fill('first question, edited');
      await view.locator('#prompt').press('Enter');
      await waitFor(
        () => view.locator('.replaced-note').innerText(),
        'Your edit replaced the earlier message and the 3 after it.',
        'the note',
      );
      await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
      const after = await userTexts(view);
      if (after.join('|') !== [...earlier, 'first question, edited'].join('|'))
        throw new Error(`after the edit the conversation holds: ${after.join(' | ')}`);
      await wb.screenshot('edit-resend-replaced-dark');
      await view.locator('#undo-edit').click();
      const restored = [...earlier, 'first question', 'second question'].join('|');
      await until('the replaced messages back', async () =>
        (await userTexts(view)).join('|') === restored ? true : undefined,
      );
      if ((await view.locator('.replaced-note').count()) !== 0) throw new Error('the note stayed after Undo');
      await wb.screenshot('edit-undone-dark');
    },
  },
  {
    name: 'Enter while an answer streams queues the prompt: sent when the answer ends, kept in the box when stopped',
    async run({ wb, emulator }) {
      const view = await paidModel(wb);
      const box = view.locator('#prompt');
      Object.assign(emulator.config, { tokenDelayMs: 60, answerTokens: 120 });
      try {
        const answers = await view.locator('.turn.assistant.done').count();
        await ask(wb, 'a slow answer');
        await waitFor(() => view.locator('.turn.assistant.streaming .answer').last().innerText(), /\w+ \w+/, 'words');
        await box.fill('the queued question');
        await box.press('Enter');
        await waitFor(() => view.locator('#queued').innerText(), 'Queued — sends when this answer ends', 'the queue');
        await waitFor(() => view.locator('#queued').innerText(), 'the queued question', 'the queued text');
        await waitFor(() => view.locator('#announcer').innerText(), 'Queued', 'the announcement');
        if ((await promptValue(view)) !== '') throw new Error('the box kept the queued prompt');
        const buttons = await view.locator('#queued button').allInnerTexts();
        if (buttons.join('|') !== 'Edit|Cancel') throw new Error(`the queue's buttons: ${buttons.join('|')}`);
        await wb.screenshot('queued-while-streaming-dark');
        // The answer ends well: the queued prompt goes by itself, and gets its own answer.
        await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
        await waitFor(async () => (await userTexts(view)).at(-1) ?? '', 'the queued question', 'the queued send');
        await view.locator('#queued').waitFor({ state: 'hidden', timeout: PATIENCE });
        await view
          .locator('.turn.assistant.done')
          .nth(answers + 1)
          .waitFor({ timeout: PATIENCE });
        // Stopped: the queued prompt comes back into the box and is not sent.
        const sent = (await userTexts(view)).length;
        await ask(wb, 'another slow answer');
        await waitFor(() => view.locator('.turn.assistant.streaming .answer').last().innerText(), /\w+ \w+/, 'words');
        await box.fill('not to be sent');
        await box.press('Enter');
        await view.locator('#queued').waitFor({ state: 'visible', timeout: PATIENCE });
        await box.press('Escape');
        await waitFor(() => view.locator('.turn.assistant.cancelled').last().innerText(), 'Stopped.', 'the stop');
        await waitFor(() => promptValue(view), 'not to be sent', 'the queued prompt back in the box');
        await waitFor(() => view.locator('#announcer').innerText(), 'back in the box, not sent', 'the announcement');
        await wb.screenshot('queued-back-after-stop-dark');
        if ((await userTexts(view)).length !== sent + 1) throw new Error('the queued prompt was sent after a stop');
        await box.fill('');
      } finally {
        Object.assign(emulator.config, { tokenDelayMs: 5, answerTokens: 12 });
      }
    },
  },
];
