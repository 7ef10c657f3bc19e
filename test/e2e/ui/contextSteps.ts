// UI steps for the context a prompt can point at: `#` in the prompt box lists the references, each one chosen
// (#selection, #file, #problems, #changes, #terminal) comes back as a chip, "Show what is sent" shows the exact
// text, and the routing service receives it; an image pasted for a model that reads images goes with the prompt in
// the wire's image part, and one pasted for a text-only model is refused with the reason. Screenshots and axe.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { axeFindings } from './a11ySteps.ts';
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
      await wb.screenshot('image-pasted-dark');
      await axeClean(wb, 'an image chip');
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
      await wb.screenshot('image-refused-dark');
      await axeClean(wb, 'the image refusal');
      await view.locator('#prompt').fill('');
    },
  },
];

/**
 * Written but not yet passing in the real host (see the branch report): in its one run the #selection pick found no
 * selection (the Shift+End after Quick Open did not select) and #terminal found nothing selected (the terminal's
 * Copy, run from the chat, copied nothing); #file and #changes became chips.
 */
export const pendingContextSteps: UiStep[] = [
  {
    name: '# context: #selection, #file, #changes and #terminal go as chips, and the service receives each one',
    async run({ wb, workspace, emulator }) {
      appendFileSync(join(workspace.folder, 'README.md'), 'A line the e2e step added.\n');
      const view = await routerModel(wb, 'openai/gpt-4o');
      await wb.runCommand('Terminal: Create New Terminal');
      await wb.page.locator('.part.panel .xterm').first().waitFor({ timeout: PATIENCE });
      // The shell starts behind the prompt; what it printed is read back from the request, not the screen (the
      // terminal may draw on a canvas).
      await wb.page.waitForTimeout(3000);
      await wb.page.keyboard.type('echo keyward-terminal-line');
      await wb.page.keyboard.press('Enter');
      await wb.page.waitForTimeout(2000);
      await wb.runCommand('Terminal: Select All');
      await wb.openFile('README.md');
      await wb.page.keyboard.press('Control+Home');
      await wb.page.keyboard.press('Shift+End');
      const box = view.locator('#prompt');
      await box.fill('Explain');
      await pointAt(view, '#sel', 'selection');
      await pointAt(view, '#fi', 'file');
      await pointAt(view, '#ch', 'changes');
      await pointAt(view, '#te', 'terminal');
      for (const label of ['README.md:1-1', '#changes', '#terminal'])
        await view.locator('#attachments .chip', { hasText: label }).first().waitFor({ timeout: PATIENCE });
      await until('four chips', async () =>
        (await view.locator('#attachments .chip').count()) === 4 ? true : undefined,
      );
      await view.locator('#sent-text summary').click();
      await waitFor(() => view.locator('#sent-text-body').innerText(), 'keyward-terminal-line', 'the sent text');
      await wb.screenshot('context-chips-sent-text-dark');
      await axeClean(wb, 'the context chips and the sent text');
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
        'Changes in the working tree (git diff HEAD)',
        '+A line the e2e step added.',
        'Selected in the terminal',
        'keyward-terminal-line',
      ])
        if (!body.includes(part)) throw new Error(`the request lacks ${part}: ${body.slice(0, 1500)}`);
      await view.locator('#sent-text summary').click();
    },
  },
];
