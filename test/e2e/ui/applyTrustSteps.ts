// UI steps for issue 31's Apply items, through the person's path: a log line asked about a selected function is
// added, not put over the function, and only its own block says Kept (items 2 and 3); a CI workflow named by the
// answer is applied only when the person picks it, with the risk named, and .git is refused (item 12); with
// files.autoSave on, the change waits as a diff and the disk is untouched until Keep.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { ask, ensurePanel, setTheme, waitFor } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiStep } from './steps.ts';

const DEMO = 'trust-demo.js';
const DEMO_TEXT = 'function greet(name) {\n  return "hello " + name;\n}\n\nfunction other() {\n  return 1;\n}\n';

/** The prompt box of the chat in the side bar, on screen. */
const promptShown = (wb: Workbench, what: string) =>
  until(what, async () =>
    (await wb
      .chat('side')
      .locator('#prompt')
      .isVisible()
      .catch(() => false))
      ? true
      : undefined,
  );

/**
 * The chat in the side bar, and only there, with no editor open: earlier steps leave the chat open as an editor tab
 * too (the two show the same session, and Ask About Selection goes to the tab while it is open), and their files
 * open (apply-demo.js has a greet() too). Closing every editor closes the tab; the side view is shown.
 */
async function sideChat(wb: Workbench): Promise<void> {
  for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
  await wb.closeAllEditors();
  await wb.runCommand('Keyward: Open Chat');
  await promptShown(wb, 'the chat in the side bar');
  await ensurePanel(wb, 'side');
}

async function paidModel(wb: Workbench): Promise<FrameLocator> {
  await sideChat(wb);
  const view = wb.chat('side');
  await view.locator('#service-router').click();
  await waitFor(() => view.locator('#model').innerText(), 'openai/gpt-4o-mini', 'the router model list');
  await chooseModel(view, 'gpt-4o', 'openai/gpt-4o-mini');
  return view;
}

/** Asks and waits for this prompt's own answer; gives its last code block. */
async function askForBlock(wb: Workbench, view: FrameLocator, prompt: string) {
  const answers = await view.locator('.turn.assistant.done').count();
  await ask(wb, prompt, 'side');
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

const lenses = (wb: Workbench) => wb.page.locator('.editor-group-container.active .codelens-decoration');

/** The chat in view again, in the side bar where Apply was asked. */
async function backToChat(wb: Workbench): Promise<void> {
  await wb.runCommand('Keyward: Open Chat');
  await promptShown(wb, 'the chat in view again');
}

export const applyTrustSteps: UiStep[] = [
  {
    name: 'Apply: a log line asked about a selected function is added at the end, and only its block says Kept',
    async run({ wb, workspace }) {
      await setTheme(wb, 'Dark Modern');
      writeFileSync(join(workspace.folder, DEMO), DEMO_TEXT);
      const view = await paidModel(wb);
      // greet() selected, Ctrl+Alt+K: the selection goes to the chat as a chip.
      await wb.openFile(DEMO);
      await wb.page
        .locator('.editor-group-container.active .editor-instance .view-lines', { hasText: 'function greet' })
        .first()
        .click();
      await wb.page.keyboard.press('Control+Home');
      for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Shift+ArrowDown');
      await wb.page.keyboard.press('Control+Alt+K');
      await view.locator('#attachments .chip', { hasText: DEMO }).waitFor({ timeout: PATIENCE });
      const block = await askForBlock(wb, view, '[[code]] add a log line');
      await block.locator('button[aria-label^="Apply"]').click();
      await editorShows(wb, 'console.log("keyward")', true, 'the added line');
      await editorShows(wb, '"hello " + name', true, 'greet() kept');
      await waitFor(() => lenses(wb).first().innerText(), /added at line 9.*Keep.*Undo/s, 'the banner');
      await wb.screenshot('apply-added-not-replaced-dark');
      await backToChat(wb);
      const status = block.locator('.apply-status');
      await waitFor(() => status.innerText(), `Applied to ${DEMO}: added at line 9.`, 'the chat says where');
      await status.locator('button', { hasText: 'Keep' }).click();
      await waitFor(() => status.innerText(), `Kept in ${DEMO}.`, 'the chat line after Keep');
      // The same code again, in a new answer: nothing applied there, and nothing else says Kept.
      const twin = await askForBlock(wb, view, '[[code]] the same once more');
      if ((await twin.locator('.apply-status').count()) !== 0)
        throw new Error(`the new block says: ${await twin.locator('.apply-status').innerText()}`);
      // Earlier steps' blocks in this conversation may say Kept for their own files: this file's line is one.
      const kept = await view.locator('.apply-status', { hasText: `Kept in ${DEMO}` }).count();
      if (kept !== 1) throw new Error(`${kept} blocks say Kept in ${DEMO}`);
      await wb.screenshot('apply-kept-only-its-block-dark');
      const text = readFileSync(join(workspace.folder, DEMO), 'utf8');
      if (text !== DEMO_TEXT) throw new Error('Keep saved the file behind the person');
      // Left as found: the later steps turn auto save on.
      await wb.openFile(DEMO);
      await wb.runCommand('File: Revert File');
    },
  },
  {
    name: 'Apply: a CI workflow the answer names is written only when picked, with the risk named; .git is refused',
    async run({ wb, workspace }) {
      const workflow = join(workspace.folder, '.github', 'workflows', 'ci.yml');
      mkdirSync(join(workspace.folder, '.github', 'workflows'), { recursive: true });
      writeFileSync(workflow, 'name: ci\non: push\n');
      const view = await paidModel(wb);
      const block = await askForBlock(wb, view, '[[workflow]] set up the build');
      await block.locator('button[aria-label^="Apply"]').click();
      const picker = wb.page.locator('.quick-input-widget');
      const question = async () => (await picker.locator('input.input').getAttribute('placeholder')) ?? '';
      await waitFor(question, 'a file that runs code (CI jobs)', 'the question names the risk');
      await waitFor(() => picker.innerText(), '.github/workflows/ci.yml', 'the named file offered');
      await waitFor(() => picker.innerText(), 'This file runs code: CI jobs.', 'the risk beside the file');
      await wb.screenshot('apply-runs-code-question-dark');
      await wb.page.keyboard.press('Escape');
      const status = block.locator('.apply-status');
      await waitFor(() => status.innerText(), 'Apply cancelled', 'nothing without a choice');
      if (readFileSync(workflow, 'utf8') !== 'name: ci\non: push\n') throw new Error('the workflow changed');
      // Picked: applied, unsaved, and both banners say what the file runs.
      await block.locator('button[aria-label^="Apply"]').click();
      await picker.locator('.monaco-list-row', { hasText: 'ci.yml' }).first().click();
      await waitFor(() => lenses(wb).first().innerText(), /runs code: CI jobs/, 'the editor names the risk');
      await wb.screenshot('apply-runs-code-banner-dark');
      await backToChat(wb);
      await waitFor(() => status.innerText(), 'This file runs code: CI jobs.', 'the chat names the risk');
      await status.locator('button', { hasText: 'Undo' }).click();
      await waitFor(() => status.innerText(), 'Undone', 'undone');
      // A block naming .git/config.worktree: refused by name, never asked.
      const gitConfig = join(workspace.folder, '.git', 'config');
      const before = readFileSync(gitConfig, 'utf8');
      const hostile = await askForBlock(wb, view, '[[code:.git/config.worktree]] speed up git');
      await hostile.locator('button[aria-label^="Apply"]').click();
      await waitFor(() => hostile.locator('.apply-status').innerText(), 'inside .git', 'the refusal');
      await wb.screenshot('apply-git-refused-dark');
      if (readFileSync(gitConfig, 'utf8') !== before) throw new Error('.git/config changed');
    },
  },
  {
    name: 'Apply with files.autoSave on: the change waits as a diff, and the disk is untouched until Keep',
    async run({ wb, workspace }) {
      const name = 'trust-saved.js';
      const demo = join(workspace.folder, name);
      writeFileSync(demo, DEMO_TEXT);
      const control = join(workspace.folder, 'trust-control.js');
      writeFileSync(control, 'let a;\n');
      const settings = join(workspace.folder, '.vscode', 'settings.json');
      const old = (() => {
        try {
          return readFileSync(settings, 'utf8');
        } catch {
          return undefined;
        }
      })();
      mkdirSync(join(workspace.folder, '.vscode'), { recursive: true });
      const merged = {
        ...(JSON.parse(old ?? '{}') as object),
        'files.autoSave': 'afterDelay',
        'files.autoSaveDelay': 100,
      };
      writeFileSync(settings, JSON.stringify(merged));
      /** Types into the other file and waits until auto save has written it: auto save is on, and has had its turn. */
      const saveRound = async (word: string) => {
        await wb.openFile('trust-control.js');
        await wb.page
          .locator('.editor-group-container.active .editor-instance .view-lines', { hasText: 'let a' })
          .first()
          .click();
        await wb.page.keyboard.press('End');
        await wb.page.keyboard.type(word);
        await until(`auto save of the other file (${word})`, async () =>
          readFileSync(control, 'utf8').includes(word) ? true : undefined,
        );
      };
      try {
        // The setting is in force before the Apply: another file is saved by itself.
        await saveRound(' // one');
        const view = await paidModel(wb);
        const block = await askForBlock(wb, view, `[[code:${name}]] make greet say keyward`);
        await block.locator('button[aria-label^="Apply"]').click();
        // The diff's title is its banner (a diff editor shows no CodeLens).
        const tab = wb.page.locator('.tab.active', { hasText: name });
        await tab.waitFor({ timeout: PATIENCE });
        await waitFor(() => tab.innerText(), 'replaced `greet`, written only on Keep', 'the diff banner');
        await wb.screenshot('apply-autosave-diff-dark');
        // Focus leaves the diff and auto save has another turn: the applied file's disk is as it was.
        await saveRound(' // two');
        if (readFileSync(demo, 'utf8') !== DEMO_TEXT) throw new Error('the change reached the disk before Keep');
        await backToChat(wb);
        const status = block.locator('.apply-status');
        await waitFor(() => status.innerText(), 'nothing is written before Keep', 'the chat says it waits');
        await wb.screenshot('apply-autosave-chat-line-dark');
        await status.locator('button', { hasText: 'Keep' }).click();
        await waitFor(() => status.innerText(), `Kept in ${name}.`, 'kept');
        await until('the kept change saved by auto save', async () =>
          readFileSync(demo, 'utf8').includes('"keyward, " + name') ? true : undefined,
        );
      } finally {
        if (old === undefined) rmSync(settings, { force: true });
        else writeFileSync(settings, old);
      }
    },
  },
];
