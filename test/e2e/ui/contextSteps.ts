// UI steps for the context a prompt can point at: `#` in the prompt box lists the references, each one chosen
// (#selection, #file, #problems, #changes, #terminal) comes back as a chip, "Show what is sent" shows the exact
// text, and the routing service receives it; an image pasted for a model that reads images goes with the prompt in
// the wire's image part, and one pasted for a text-only model is refused with the reason. Screenshots and axe.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { THEMES, axeFindings, wearTheme } from './a11ySteps.ts';
import { clearToasts, ensurePanel, setTheme, waitFor } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiContext, UiStep } from './steps.ts';

/** The chat requests the routing service received, newest last. */
const chatBodies = (emulator: UiContext['emulator']) =>
  emulator.requests.filter((r) => r.service === 'router' && r.path.endsWith('/chat/completions') && r.body);

/**
 * The chat in the side bar, alone (the editors, a chat tab among them, closed): the files the steps open sit beside
 * it, and axe reads the one chat on screen.
 */
async function routerModel(wb: Workbench, model: string): Promise<FrameLocator> {
  if (
    (await wb
      .chat('tab')
      .locator('#prompt')
      .count()
      .catch(() => 0)) > 0
  )
    await wb.closeAllEditors();
  await ensurePanel(wb, 'side');
  const view = wb.chat('side');
  await view.locator('#service-router').click();
  await waitFor(() => view.locator('#model').innerText(), 'openai/gpt-4o', 'the router model list');
  await chooseModel(view, model.split('/')[1]!, model);
  return view;
}

/** Types `#` and the start of a name in the prompt box, and takes the reference the list offers first with Enter. */
async function pointAt(view: FrameLocator, typed: string, option: string): Promise<void> {
  const box = view.locator('#prompt');
  await box.click();
  await box.press('End');
  await box.pressSequentially(` ${typed}`);
  await view.locator(`#context-list [role="option"]#context-option-${option}.active`).waitFor({ timeout: PATIENCE });
  await box.press('Enter');
}

/** The routing service received the prompt (one more chat request than `before`) and its answer ended. */
async function sent(view: FrameLocator, emulator: UiContext['emulator'], before: number): Promise<void> {
  await until('the request', async () => (chatBodies(emulator).length > before ? true : undefined));
  await view.locator('.turn.assistant.streaming').waitFor({ state: 'detached', timeout: PATIENCE });
}

/** The terminal's wrapper in the panel: VS Code's smoke-test driver reads the xterm it carries. */
const TERMINAL = '.part.panel .terminal-wrapper';
/** What the step's shell prints, for #terminal to send. */
const TERMINAL_LINE = 'keyward-terminal-line';

/** The terminal's xterm, as the workbench hangs it on its wrapper (VS Code's smoke-test driver reads it there). */
interface Xterm {
  hasSelection(): boolean;
  getSelection(): string;
  buffer: { active: { length: number; getLine(n: number): { translateToString(trim: boolean): string } | undefined } };
}

/** The terminal's buffer, line by line, as the smoke-test driver's getTerminalBuffer reads it; [] with no terminal. */
const terminalLines = async (wb: Workbench): Promise<string[]> =>
  (await wb.page.locator(TERMINAL).count()) === 0
    ? []
    : wb.page
        .locator(TERMINAL)
        .first()
        .evaluate((wrapper) => {
          const buffer = (wrapper as unknown as { xterm?: Xterm }).xterm?.buffer.active;
          if (!buffer) return [];
          return Array.from({ length: buffer.length }, (_, n) => buffer.getLine(n)?.translateToString(true) ?? '');
        });

/** The terminal's selection ('' when none, or no terminal). */
const terminalSelection = async (wb: Workbench): Promise<string> =>
  (await wb.page.locator(TERMINAL).count()) === 0
    ? ''
    : wb.page
        .locator(TERMINAL)
        .first()
        .evaluate((wrapper) => {
          const xterm = (wrapper as unknown as { xterm?: Xterm }).xterm;
          return xterm?.hasSelection() ? xterm.getSelection() : '';
        });

/** Whether the keyboard focus is in the active editor / in the terminal. */
const editorFocused = (wb: Workbench) =>
  wb.page.evaluate(() => !!document.activeElement?.closest('.editor-group-container.active .monaco-editor'));
const terminalFocused = (wb: Workbench) =>
  wb.page.evaluate(() => !!document.activeElement?.closest('.part.panel .terminal-wrapper'));

const ACTIVE_EDITOR = '.editor-group-container.active .monaco-editor';

/** Whether the active editor has text selected: the status bar counts it ("Ln 1, Col 17 (16 selected)"). */
const editorSelected = async (wb: Workbench) =>
  /\(\d+ selected\)/.test(
    await wb.page
      .locator('[id="status.editor.selection"]')
      .innerText({ timeout: 5_000 })
      .catch(() => ''),
  );

/**
 * README.md open with its first line selected. The keys wait for the editor to hold the focus: Quick Open hands the
 * focus back to where it was (the terminal) as it closes, and the editor takes it only once the file is shown, so
 * keys pressed when the tab appears went to the terminal (clearing its selection) and selected nothing.
 */
async function selectFirstLine(wb: Workbench): Promise<void> {
  await wb.openFile('README.md');
  const line = wb.page.locator(`${ACTIVE_EDITOR} .view-line`, { hasText: 'Sample project' }).first();
  await until('the editor to hold the focus', async () => {
    if (await editorFocused(wb)) return true;
    await line.click();
    return undefined;
  });
  await wb.page.keyboard.press('Control+Home');
  await wb.page.keyboard.press('Shift+End');
  await until('the first line selected', async () => ((await editorSelected(wb)) ? true : undefined), 30_000);
}

/**
 * A terminal that printed TERMINAL_LINE, all of it selected. Typing waits for the shell's prompt and the focus;
 * the selection is read back from the terminal itself.
 */
async function selectTerminalLine(wb: Workbench): Promise<void> {
  if ((await wb.page.locator(TERMINAL).count()) === 0) {
    await wb.runCommand('Terminal: Create New Terminal');
    await until('the shell prompt', async () =>
      (await terminalLines(wb)).some((line) => line.trim() !== '') ? true : undefined,
    );
  }
  if (!(await terminalLines(wb)).some((line) => line.trim() === TERMINAL_LINE)) {
    await until('the terminal to hold the focus', async () => {
      if (await terminalFocused(wb)) return true;
      await wb.runCommand('Terminal: Focus Terminal');
      return undefined;
    });
    await wb.page.keyboard.type(`echo ${TERMINAL_LINE}`);
    await wb.page.keyboard.press('Enter');
    await until('the shell to print the line', async () =>
      (await terminalLines(wb)).some((line) => line.trim() === TERMINAL_LINE) ? true : undefined,
    );
  }
  await wb.runCommand('Terminal: Select All');
  await until(
    'the terminal selection',
    async () => ((await terminalSelection(wb)).includes(TERMINAL_LINE) ? true : undefined),
    30_000,
  );
}

/**
 * The chip for the reference just chosen (`label` on it), or (failing at once rather than after the patience) the
 * refusal under the box, with what the editor, the terminal and the page's clipboard held at that moment.
 */
async function chipOrRefusal(wb: Workbench, view: FrameLocator, name: string, label: string | RegExp): Promise<void> {
  const chip = view.locator('#attachments .chip', { hasText: label });
  const note = view.locator('#composer-note');
  const deadline = Date.now() + PATIENCE;
  for (;;) {
    if ((await chip.count()) > 0) return;
    const said = (await note.isVisible().catch(() => false)) ? await note.innerText().catch(() => '') : '';
    if (said.startsWith(`#${name}`)) {
      const clipboard = await wb.page.evaluate(() =>
        navigator.clipboard.readText().catch((e: Error) => `unreadable: ${e.message}`),
      );
      throw new Error(
        `#${name} refused: ${said} (editor selection: ${await editorSelected(wb)}; terminal selection: ` +
          `${JSON.stringify((await terminalSelection(wb)).slice(-120))}; the page clipboard: ${JSON.stringify(clipboard.slice(0, 120))})`,
      );
    }
    if (Date.now() > deadline) throw new Error(`no #${name} chip and no refusal`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const slug = (name: string) => name.toLowerCase().replace(/ /g, '-');

async function axeClean(wb: Workbench, what: string): Promise<void> {
  const findings = await axeFindings(wb);
  if (findings.length > 0) throw new Error(`axe on ${what}: ${JSON.stringify(findings, null, 1).slice(0, 1500)}`);
}

/** An image pasted into the prompt box as the browser delivers a paste: a ClipboardEvent holding the file. */
async function pasteImage(view: FrameLocator): Promise<void> {
  await view.locator('#prompt').evaluate((box) => {
    // A 1x1 transparent PNG.
    const base64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'diagram.png', { type: 'image/png' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
}

export const contextSteps: UiStep[] = [
  {
    name: '# context: the list opens on #, #terminal without a terminal is refused under the box, #problems is a chip',
    async run({ wb }) {
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      const view = await routerModel(wb, 'openai/gpt-4o');
      await wb.openFile('src/client.ts');
      // Its problems (Keyward's own key diagnostic at least) come in once the file is open.
      await wb.page.locator('.squiggly-error, .squiggly-warning').first().waitFor({ timeout: PATIENCE });
      const box = view.locator('#prompt');
      await box.fill('Why');
      await box.press('End');
      await box.pressSequentially(' #');
      const options = view.locator('#context-list [role="option"]');
      await waitFor(
        async () => (await options.allInnerTexts()).join(' | '),
        /#file.*#selection.*#problems.*#changes.*#terminal/,
        'the # list',
      );
      await wb.screenshot('context-list-dark');
      await box.press('Escape');
      await pointAt(view, '#te', 'terminal');
      await waitFor(() => view.locator('#composer-note').innerText(), '#terminal: no terminal is open.', 'the refusal');
      await wb.screenshot('context-terminal-refused-dark');
      await pointAt(view, '#pro', 'problems');
      const chip = view.locator('#attachments .chip', { hasText: '#problems client.ts' });
      await chip.waitFor({ timeout: PATIENCE });
      await view.locator('#sent-text summary').click();
      await waitFor(() => view.locator('#sent-text-body').innerText(), 'Problems in src/client.ts', 'the sent text');
      await wb.screenshot('context-problems-sent-text-dark');
      await axeClean(wb, 'the # list, the refusal and the #problems chip');
      // Removed by the keyboard: Tab reaches the chip's Remove button, Enter presses it.
      await chip.locator('button.chip-remove').focus();
      await wb.page.keyboard.press('Enter');
      await chip.waitFor({ state: 'detached', timeout: PATIENCE });
      await view.locator('#sent-text summary').click();
      await box.fill('');
    },
  },
  {
    name: 'an image pasted for an image model goes as an image_url part; a text-only model refuses it with the reason',
    async run({ wb, emulator }) {
      const view = await routerModel(wb, 'openai/gpt-4o');
      await view.locator('#model-picker').click();
      await view.locator('#model-filter').fill('gpt-4o');
      await waitFor(
        () => view.locator('#model [role="option"][data-id="openai/gpt-4o"]').innerText(),
        'images',
        'the picker marking image models',
      );
      await wb.screenshot('picker-images-dark');
      await view.locator('#model-filter').press('Escape');
      await pasteImage(view);
      const chip = view.locator('#images .chip', { hasText: 'diagram.png' });
      await chip.waitFor({ timeout: PATIENCE });
      await view.locator('#prompt').fill('What is in this picture?');
      // The chip in each theme, axe on each.
      for (const theme of THEMES) {
        await wearTheme(wb, theme);
        await wb.screenshot(`image-pasted-${slug(theme.name)}`);
        await axeClean(wb, `an image chip (${theme.name})`);
      }
      await wearTheme(wb, THEMES[0]);
      const before = chatBodies(emulator).length;
      await view.locator('#prompt').press('Enter');
      await sent(view, emulator, before);
      const body = JSON.stringify(chatBodies(emulator).slice(before).at(-1)?.body ?? {});
      if (!body.includes('"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo'))
        throw new Error(`no image part: ${body.slice(0, 800)}`);
      await chip.waitFor({ state: 'detached', timeout: PATIENCE });
      await chooseModel(view, 'gpt-4o-mini', 'openai/gpt-4o-mini');
      await pasteImage(view);
      await waitFor(
        () => view.locator('#composer-note').innerText(),
        'openai/gpt-4o-mini does not take images',
        'the refusal',
      );
      if ((await view.locator('#images .chip').count()) !== 0) throw new Error('the refused image is a chip');
      // The refusal in each theme, axe on each.
      for (const theme of THEMES) {
        await wearTheme(wb, theme);
        await waitFor(() => view.locator('#composer-note').innerText(), 'does not take images', 'the refusal');
        await wb.screenshot(`image-refused-${slug(theme.name)}`);
        await axeClean(wb, `the image refusal (${theme.name})`);
      }
      await wearTheme(wb, THEMES[0]);
      await view.locator('#prompt').fill('');
    },
  },
  {
    name: '# context: #selection, #file, #changes and #terminal go as chips, and the service receives each one',
    async run({ wb, workspace, emulator }) {
      appendFileSync(join(workspace.folder, 'README.md'), 'A line the e2e step added.\n');
      const view = await routerModel(wb, 'openai/gpt-4o');
      await selectFirstLine(wb);
      await selectTerminalLine(wb);
      // Each selection is made with the focus where it belongs; a key that reached the other place would undo it.
      await until('the editor and the terminal selections both held', async () => {
        if (!(await editorSelected(wb))) await selectFirstLine(wb);
        if (!(await terminalSelection(wb)).includes(TERMINAL_LINE)) await selectTerminalLine(wb);
        return (await editorSelected(wb)) && (await terminalSelection(wb)).includes(TERMINAL_LINE) ? true : undefined;
      });
      await wb.screenshot('context-selections-made-dark');
      const box = view.locator('#prompt');
      await box.fill('Explain');
      for (const [typed, name, label] of [
        ['#sel', 'selection', /^README\.md:1-1$/],
        ['#fi', 'file', /^README\.md:1-[2-9]$/],
        ['#ch', 'changes', '#changes'],
        ['#te', 'terminal', '#terminal'],
      ] as const) {
        await pointAt(view, typed, name);
        await chipOrRefusal(wb, view, name, label);
      }
      await until('four chips', async () =>
        (await view.locator('#attachments .chip').count()) === 4 ? true : undefined,
      );
      await view.locator('#sent-text summary').click();
      await waitFor(() => view.locator('#sent-text-body').innerText(), TERMINAL_LINE, 'the sent text');
      // The chips and the sent text in each theme, axe on each.
      for (const theme of THEMES) {
        await wearTheme(wb, theme);
        await wb.screenshot(`context-chips-sent-text-${slug(theme.name)}`);
        await axeClean(wb, `the context chips and the sent text (${theme.name})`);
      }
      await wearTheme(wb, THEMES[0]);
      const before = chatBodies(emulator).length;
      await box.press('Enter');
      // The diff is prompt text like any other: after earlier steps moved a key out of a tracked file, the guard
      // asks about the key the diff shows, and it goes redacted.
      const dialog = wb.page.locator('.monaco-dialog-box');
      await until('the answer or the guard', async () =>
        (await dialog.isVisible().catch(() => false)) || chatBodies(emulator).length > before ? true : undefined,
      );
      if (await dialog.isVisible().catch(() => false)) {
        await wb.screenshot('context-changes-guarded');
        await dialog.locator('.monaco-button', { hasText: 'Redacted' }).click();
      }
      await sent(view, emulator, before);
      const body = JSON.stringify(chatBodies(emulator).slice(before).at(-1)?.body ?? {});
      for (const part of [
        'File README.md (markdown), lines 1-1',
        '# Sample project',
        'Changes in the working tree (git diff HEAD)',
        '+A line the e2e step added.',
        'Selected in the terminal',
        TERMINAL_LINE,
      ])
        if (!body.includes(part)) throw new Error(`the request lacks ${part}: ${body.slice(0, 1500)}`);
      // The sent prompt names its references as the box did.
      await waitFor(
        async () =>
          (await view.locator('#conversation .turn.user').last().locator('.chip').allInnerTexts()).join(' | '),
        /README\.md:1-1 \| README\.md:1-\d \| #changes \| #terminal \S+/,
        "the sent prompt's chips",
      );
      await wb.screenshot('context-chips-sent-dark');
      if ((await view.locator('#sent-text[open]').count()) > 0) await view.locator('#sent-text summary').click();
      // The steps after this one see no terminal, as before it.
      await wb.runCommand('Terminal: Kill All Terminals');
      await until('the terminal gone', async () =>
        (await wb.page.locator(TERMINAL).count()) === 0 ? true : undefined,
      );
    },
  },
];
