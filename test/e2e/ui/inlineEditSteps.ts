// UI steps for issue 34 §1, Edit with Keyward…, through the person's path in the real editor: the answer streams in
// as a diff in place, each hunk is kept or undone from its CodeLens, one Ctrl+Z puts the kept edit back; Escape
// stops an answer and the notification offers what arrived or the old text; a follow-up (its prompt from Up) refines
// the waiting edit; a failure says the chat's advice with Retry; the keys act only in the file with the edit; `#` in
// the box lists the references, and the one chosen shows under the box, in "Show what is sent" and in the request.
// The emulator's `[[rewrite]]` answer rewrites the code it is sent (the last fenced block: the lines to change come
// after what the references add), one line a delta.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import { admin, clearToasts, setTheme, waitFor } from './answerSteps.ts';
import { THEMES } from './a11ySteps.ts';
import type { UiStep } from './steps.ts';

const DEMO = 'inline-demo.js';
const OTHER = 'inline-other.js';
const CODE = 'const a = 0;\n\nfunction old() {\n  // drop me\n  return 1; // add below\n}\n\nconst z = 9;\n';

const lenses = (wb: Workbench) => wb.page.locator('.editor-group-container.active .codelens-decoration');
/** The lens link whose whole text is `title` (its codicon aside). */
const lens = (wb: Workbench, title: string) => lenses(wb).locator('a', { hasText: new RegExp(`^\\W*${title}$`) });

async function editorShows(wb: Workbench, text: string, present: boolean, what: string): Promise<void> {
  await until(`${what}: ${present ? '' : 'no '}${JSON.stringify(text)} in the editor`, async () =>
    (await wb.editorText().catch(() => '')).includes(text) === present ? true : undefined,
  );
}

/** Whether `after` is `before` with one blank line put in (VS Code's Insert Line Above), and nothing else. */
function oneBlankLineMore(before: string, after: string): boolean {
  const lines = after.split('\n');
  return lines.some(
    (line, i) => line.trim() === '' && [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n') === before,
  );
}

/** `name` written with `text`, opened, and clicked into once its first line shows. */
async function writeAndOpen(wb: Workbench, folder: string, name: string, text: string): Promise<void> {
  writeFileSync(join(folder, name), text);
  await wb.openFile(name);
  await wb.page
    .locator('.editor-group-container.active .editor-instance .view-lines', { hasText: text.split('\n')[0]!.trim() })
    .first()
    .click();
}

/** The demo file as written, open, with the cursor inside old(). */
async function demoOpen(wb: Workbench, folder: string): Promise<void> {
  await wb.closeAllEditors();
  await writeAndOpen(wb, folder, DEMO, CODE);
  await wb.page.keyboard.press('Control+Home');
  for (let i = 0; i < 3; i++) await wb.page.keyboard.press('ArrowDown');
}

/** Edit with Keyward… asked `prompt`; resolves when its input box took it. */
async function askEdit(wb: Workbench, prompt: string): Promise<void> {
  await wb.runCommand('Keyward: Edit with Keyward…');
  await wb.answerQuickInput(prompt);
}

/**
 * The notification holding `text`: its toast, or (toasts hide in the headless workbench) its entry in the
 * notification centre, opened for it.
 */
async function notice(wb: Workbench, text: string): Promise<Locator> {
  return until(`a notification saying ${JSON.stringify(text)}`, async () => {
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: text });
    if (await toast.isVisible().catch(() => false)) return toast;
    const centre = wb.page.locator('.notifications-center');
    if (!(await centre.isVisible().catch(() => false))) await wb.runCommand('Notifications: Show Notifications');
    const entry = centre.locator('.notification-list-item', { hasText: text }).first();
    return (await entry.isVisible().catch(() => false)) ? entry : undefined;
  });
}

/** The file back as it is on disk, unsaved changes dropped (the steps never save it). */
async function revert(wb: Workbench): Promise<void> {
  await wb.runCommand('File: Revert File');
  await editorShows(wb, 'function old() {', true, 'the file as on disk');
}

/** The demo file open with an edit asked on old() and waiting for Keep or Undo. */
async function waitingEdit(wb: Workbench, folder: string): Promise<void> {
  await demoOpen(wb, folder);
  await askEdit(wb, 'tidy [[rewrite]]');
  await lens(wb, 'Keep All').waitFor({ timeout: PATIENCE });
}

/** Ctrl+Shift+Backspace in the edit's file: Undo All, the old text exactly, the lenses gone; then the file as on disk. */
async function undoAllByKey(wb: Workbench): Promise<void> {
  await wb.page.locator('.editor-group-container.active .editor-instance .view-lines').first().click();
  await wb.page.keyboard.press('Control+Shift+Backspace');
  await editorShows(wb, 'function new() {', false, 'undone by the key');
  await until('the lenses gone', async () => ((await lenses(wb).count()) === 0 ? true : undefined));
  await revert(wb);
}

/** How one of the diff's line decorations looks on screen, as the browser computed it. */
interface LineLook {
  background: string;
  border: string;
}

/**
 * The looks of Keyward's whole-line decorations in the active editor, one per decoration type (the overlays of an
 * extension's decoration carry a `ced-…` class of their type): the removed lines' and the added lines'.
 */
async function diffLooks(wb: Workbench): Promise<Record<string, LineLook>> {
  return wb.page
    .locator('.editor-group-container.active .view-overlays')
    .first()
    .evaluate((overlays) => {
      const looks: Record<string, { background: string; border: string }> = {};
      for (const line of overlays.querySelectorAll<HTMLElement>('.cdr[class*="ced-"]')) {
        const type = [...line.classList].find((c) => c.startsWith('ced-'))!;
        const style = getComputedStyle(line);
        const border =
          style.borderTopStyle === 'none' || style.borderTopWidth === '0px'
            ? 'none'
            : `${style.borderTopStyle} ${style.borderTopWidth} ${style.borderTopColor}`;
        looks[type] = { background: style.backgroundColor, border };
      }
      return looks;
    });
}

/** Whether a computed colour paints anything (not transparent, not fully see-through). */
const paints = (colour: string) => colour !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(colour);
const shows = (look: LineLook) =>
  paints(look.background) || (look.border !== 'none' && paints(look.border.split(' ').slice(2).join(' ')));

export const inlineEditSteps: UiStep[] = [
  {
    name: 'Inline edit: the answer streams in as a diff in place; Keep and Undo per hunk; one Ctrl+Z puts it back',
    async run({ wb, workspace }) {
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      await demoOpen(wb, workspace.folder);
      await wb.runCommand('Keyward: Edit with Keyward…');
      const box = wb.page.locator('.quick-input-widget');
      await waitFor(
        () => box.innerText(),
        /Edit with Keyward: .+ on Routing service/,
        'the title names model and service',
      );
      await waitFor(() => box.innerText(), 'lines 3–6 of inline-demo.js', 'the lines the edit rewrites');
      await wb.screenshot('inline-edit-input-dark');
      await wb.answerQuickInput('tidy [[rewrite]]');
      await lens(wb, 'Keep All').waitFor({ timeout: PATIENCE });
      await editorShows(wb, 'function new() {', true, 'the new line inserted');
      await editorShows(wb, 'function old() {', true, 'the old line still there, marked');
      if ((await wb.page.locator('.editor-group-container.active .tab.dirty').count()) === 0)
        throw new Error('the tab does not show the file as changed');
      await wb.screenshot('inline-edit-review-dark');
      // The second hunk (the added comment) undone, the first kept: from their own lenses.
      await lens(wb, 'Undo').nth(1).click();
      await editorShows(wb, '// added by keyward', false, 'the second hunk undone');
      await lens(wb, 'Keep').first().click();
      await editorShows(wb, 'function old() {', false, 'the first hunk kept');
      await until('the lenses gone', async () => ((await lenses(wb).count()) === 0 ? true : undefined));
      await editorShows(wb, 'function new() {', true, 'the kept line');
      await wb.screenshot('inline-edit-kept-dark');
      if (readFileSync(join(workspace.folder, DEMO), 'utf8') !== CODE) throw new Error('Keep saved the file');
      // One Ctrl+Z: the whole edit goes, the old text is back.
      await wb.page.locator('.editor-group-container.active .editor-instance .view-lines').first().click();
      await wb.page.keyboard.press('Control+Z');
      await editorShows(wb, 'function old() {', true, 'Ctrl+Z puts the old function back');
      await editorShows(wb, '  // drop me', true, 'with its dropped line');
      await editorShows(wb, 'function new() {', false, 'and without the new one');
      await wb.screenshot('inline-edit-ctrl-z-dark');
      await revert(wb);
    },
  },
  {
    name: 'Inline edit: Escape stops the answer; the notification offers what arrived or the old text',
    async run({ wb, workspace, emulator }) {
      await setTheme(wb, 'Light Modern');
      await clearToasts(wb);
      await demoOpen(wb, workspace.folder);
      await admin(emulator, 'POST', '/faults', {
        kind: 'stall',
        afterChunks: 3,
        count: 1,
        service: 'router',
        path: '/chat/completions',
      });
      await askEdit(wb, 'tidy [[rewrite]]');
      await lens(wb, 'Stop \\(Escape\\)').waitFor({ timeout: PATIENCE });
      await editorShows(wb, 'function new() {', true, 'the first line arrived');
      await wb.screenshot('inline-edit-streaming-light');
      await wb.page.keyboard.press('Escape');
      await lens(wb, 'Keep All').waitFor({ timeout: PATIENCE });
      const toast = await notice(wb, 'Stopped after');
      await waitFor(() => toast.innerText(), /Keep What Arrived[^]*Put Everything Back/, 'the two choices');
      await wb.screenshot('inline-edit-stopped-light');
      await toast.locator('.monaco-button', { hasText: 'Put Everything Back' }).click();
      await editorShows(wb, 'function new() {', false, 'everything put back');
      await editorShows(wb, '  // drop me', true, 'the old text');
      await until('the lenses gone', async () => ((await lenses(wb).count()) === 0 ? true : undefined));
      await revert(wb);
    },
  },
  {
    name: 'Inline edit: a follow-up (its prompt from Up) refines the waiting edit instead of stacking one',
    async run({ wb, workspace, emulator }) {
      await setTheme(wb, 'Dark High Contrast');
      await clearToasts(wb);
      await waitingEdit(wb, workspace.folder);
      await wb.runCommand('Keyward: Edit with Keyward…');
      const box = wb.page.locator('.quick-input-widget');
      await waitFor(() => box.innerText(), 'Follow-up on “tidy [[rewrite]]”', 'the box says it refines the last edit');
      const input = box.locator('input.input');
      await until('the palette gave way to the box', async () =>
        (await input.inputValue()).startsWith('>') ? undefined : true,
      );
      await wb.page.keyboard.press('ArrowUp');
      await waitFor(() => input.inputValue(), 'tidy [[rewrite]]', 'Up brings the last prompt back');
      await wb.screenshot('inline-edit-follow-up-hc');
      await input.fill('make it shorter [[rewrite]]');
      await wb.page.keyboard.press('Enter');
      await until('the follow-up request', async () =>
        emulator.requests.some((r) =>
          JSON.stringify(r.body?.messages ?? '').includes('Follow-up on your last edit: make it shorter'),
        )
          ? true
          : undefined,
      );
      const last = emulator.requests.filter((r) => r.path === '/chat/completions').at(-1)!;
      const roles = (last.body!.messages as { role: string }[]).map((m) => m.role).join(',');
      if (roles !== 'system,user,assistant,user') throw new Error(`the follow-up sent ${roles}`);
      // Ctrl+Shift+Enter: Keep All. Not stacked: one new function, no old one. The Keep All lens may still be the
      // first edit's while the follow-up streams (VS Code redraws lenses a moment later): a press then keeps nothing
      // (the status bar says the edit still streams), and the key is pressed again until it keeps. It must never be
      // VS Code's own Insert Line Above, a change by hand in the edit's lines (a real-host run once met that).
      let inserted = false;
      await until('kept by the key', async () => {
        await lens(wb, 'Keep All').waitFor({ timeout: PATIENCE });
        const before = await wb.editorText();
        await wb.page.locator('.editor-group-container.active .editor-instance .view-lines').first().click();
        await wb.page.keyboard.press('Control+Shift+Enter');
        const after = await until(
          'the key to take effect',
          async () => {
            const text = await wb.editorText().catch(() => before);
            return text !== before ? text : undefined;
          },
          10_000,
        ).catch(() => before);
        inserted = oneBlankLineMore(before, after);
        return inserted || !after.includes('function old() {') ? true : undefined;
      });
      if (inserted) throw new Error('Ctrl+Shift+Enter was Insert Line Above: a line went into the edit');
      const shown = await wb.editorText();
      if (shown.split('function new() {').length !== 2) throw new Error(`stacked edits: ${shown}`);
      await wb.screenshot('inline-edit-follow-up-kept-hc');
      await revert(wb);
    },
  },
  {
    name: 'Inline edit: a failure says the chat’s title and advice where the edit was asked, with Retry',
    async run({ wb, workspace, emulator }) {
      await setTheme(wb, 'Light High Contrast');
      await clearToasts(wb);
      await demoOpen(wb, workspace.folder);
      await admin(emulator, 'POST', '/faults', {
        kind: 'http500',
        shouldRetry: false,
        count: 1,
        service: 'router',
        path: '/chat/completions',
      });
      await askEdit(wb, 'tidy [[rewrite]]');
      const toast = await notice(wb, 'Edit with Keyward (Routing service)');
      await waitFor(() => toast.innerText(), 'Service error', 'the kind’s title');
      await wb.screenshot('inline-edit-error-light-hc');
      await toast.locator('.monaco-button', { hasText: 'Retry' }).click();
      await lens(wb, 'Undo All').waitFor({ timeout: PATIENCE });
      // Ctrl+Shift+Backspace: Undo All, the old text exactly.
      await undoAllByKey(wb);
      await setTheme(wb, 'Dark Modern');
    },
  },
  {
    name: 'Inline edit: the waiting diff in the four themes, removed and added lines told apart in each',
    async run({ wb, workspace }) {
      await clearToasts(wb);
      await waitingEdit(wb, workspace.folder);
      await editorShows(wb, 'function new() {', true, 'the new line inserted');
      for (const theme of THEMES) {
        await setTheme(wb, theme.name);
        const shot = theme.name.toLowerCase().replace(/ /g, '-');
        // The theme's colours reach the decorations' CSS as the theme changes: wait for two looks, each visible.
        let looks: Record<string, LineLook> = {};
        try {
          await until(
            `the removed and added lines to show in ${theme.name}`,
            async () => {
              looks = await diffLooks(wb);
              const each = Object.values(looks);
              return each.length === 2 && each.every(shows) ? true : undefined;
            },
            30_000,
          );
        } catch (error) {
          throw new Error(`${(error as Error).message}; the lines look ${JSON.stringify(looks)}`);
        } finally {
          await wb.screenshot(`inline-edit-diff-${shot}`);
        }
        const [removed, added] = Object.values(looks);
        if (JSON.stringify(removed) === JSON.stringify(added))
          throw new Error(`${theme.name}: removed and added lines look the same: ${JSON.stringify(looks)}`);
        if (
          (await lenses(wb)
            .locator('a', { hasText: /Keep|Undo/ })
            .count()) < 4
        )
          throw new Error(`${theme.name}: the Keep/Undo lenses are not all there`);
      }
      await undoAllByKey(wb);
      await setTheme(wb, 'Dark Modern');
    },
  },
  {
    name: 'Inline edit: its keys act in the file with the edit; in another file Ctrl+Shift+Enter is VS Code’s own',
    async run({ wb, workspace }) {
      await clearToasts(wb);
      await waitingEdit(wb, workspace.folder);
      await writeAndOpen(wb, workspace.folder, OTHER, '  other();\n');
      await wb.page.keyboard.press('Control+Shift+Enter');
      const otherDirty = wb.page.locator('.editor-group-container.active .tab.active.dirty', { hasText: OTHER });
      await until('VS Code’s own Insert Line Above in the other file', async () =>
        (await otherDirty.count()) > 0 ? true : undefined,
      );
      await wb.runCommand('File: Revert File');
      await until('the other file as on disk', async () => ((await otherDirty.count()) === 0 ? true : undefined));
      // The edit still waits in its own file, where the keys are Keyward's: Undo All puts the old text back.
      await wb.openFile(DEMO);
      await lens(wb, 'Keep All').waitFor({ timeout: PATIENCE });
      await editorShows(wb, 'function old() {', true, 'the edit still waiting');
      await undoAllByKey(wb);
    },
  },
  {
    name: 'Inline edit: # in the box lists the references, #file is chosen, shown under the box and in what is sent, and sent',
    async run({ wb, workspace, emulator }) {
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      await demoOpen(wb, workspace.folder);
      // Lines 3–6 (the function) selected with the keyboard, as a person would.
      await wb.page.keyboard.press('Control+Home');
      for (let i = 0; i < 2; i++) await wb.page.keyboard.press('ArrowDown');
      for (let i = 0; i < 4; i++) await wb.page.keyboard.press('Shift+ArrowDown');
      await wb.runCommand('Keyward: Edit with Keyward…');
      const box = wb.page.locator('.quick-input-widget');
      const input = box.locator('input.input');
      await waitFor(() => box.innerText(), 'lines 3–6 of inline-demo.js', 'the box names the selected lines');
      await until('the palette gave way to the box', async () =>
        (await input.inputValue()).startsWith('>') ? undefined : true,
      );
      await wb.page.keyboard.type('tidy #');
      const rows = box.locator('.quick-input-list .monaco-list-row');
      await waitFor(
        async () => (await rows.allInnerTexts()).join(' | '),
        /#file.*#selection.*#problems.*#changes.*#terminal/,
        'the five references listed as # is typed',
      );
      await waitFor(() => box.innerText(), 'The whole file in the editor', 'each with what it adds');
      await wb.screenshot('inline-edit-context-list-dark');
      await wb.page.keyboard.type('fi');
      await until('only #file left', async () => ((await rows.count()) === 1 ? true : undefined));
      await wb.page.keyboard.press('Enter');
      await waitFor(() => input.inputValue(), 'tidy #file', 'Enter completes the word and keeps the box open');
      await waitFor(() => box.innerText(), 'Adds: #file (inline-demo.js)', 'the chip under the box');
      await wb.screenshot('inline-edit-context-chip-dark');
      await box.locator('.quick-input-titlebar .action-label[aria-label^="Show what is sent"]').click();
      const sentTab = wb.page.locator('.tab', { hasText: 'what-is-sent.md' });
      await sentTab.waitFor({ timeout: PATIENCE });
      await waitFor(
        () => wb.page.locator('.editor-instance .view-lines', { hasText: 'points at' }).first().innerText(),
        'What the instruction points at:',
        'the text sent, references first',
      );
      await wb.screenshot('inline-edit-context-sent-text-dark');
      await input.click();
      await wb.page.keyboard.press('End');
      await wb.page.keyboard.type('[[rewrite]]');
      await wb.page.keyboard.press('Enter');
      const asked = () =>
        emulator.requests
          .filter((r) => r.path === '/chat/completions')
          .map((r) => (r.body?.messages as { content: string }[] | undefined)?.at(-1)?.content ?? '')
          .find((content) => content.includes('Instruction: tidy [[rewrite]]') && content.includes('points at'));
      const sent = await until('the request with the file', async () => asked());
      if (!sent.includes('File inline-demo.js (javascript), lines 1-') || !sent.includes('const z = 9;'))
        throw new Error(`the request did not carry the whole file: ${sent.slice(0, 400)}`);
      // The demo's group active again (the text sent opened beside it), for its lenses and text.
      await wb.page.locator('.tab', { hasText: DEMO }).first().click();
      await lens(wb, 'Undo All').waitFor({ timeout: PATIENCE });
      await editorShows(wb, 'function new() {', true, 'the edit of the selected lines');
      await lens(wb, 'Undo All').click();
      await editorShows(wb, 'function new() {', false, 'Undo All');
      await editorShows(wb, '  // drop me', true, 'the old text');
      await revert(wb);
    },
  },
];
