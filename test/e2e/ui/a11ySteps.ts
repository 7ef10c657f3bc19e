// The chat checked by axe-core in the real workbench, in the dark, light and high-contrast themes: axe runs in
// the chat's own frame, over the conversation the steps before left (answers, a refusal, error cards, code).
// As @axe-core/playwright does (dequelabs/axe-core-npm packages/playwright/src/index.ts: axe.source evaluated in
// each frame, then axe.run there); the webview's CSP allows no script but its own, so the source is evaluated
// as a script through the debugger protocol, which the page's CSP does not govern.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Workbench } from '../harness/workbench.ts';
import { PATIENCE, until } from '../harness/workbench.ts';
import { anErrorCard, ask, clearToasts, setTheme } from './answerSteps.ts';
import type { UiStep } from './steps.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe's serious and critical findings in the chat's frame, each with the elements it names. */
export async function axeFindings(wb: Workbench): Promise<Finding[]> {
  const body = wb.webview().locator('body');
  await body.waitFor({ state: 'attached', timeout: PATIENCE });
  const frame = await (await body.elementHandle({ timeout: PATIENCE })).ownerFrame();
  if (!frame) throw new Error('the chat frame is gone');
  await frame.evaluate(`${AXE_SOURCE}\n;0`);
  return frame.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: unknown): Promise<AxeResult> } })
      .axe;
    interface AxeResult {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[]; failureSummary?: string }[];
      }[];
    }
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
      }));
  });
}

/** The themes axe judges the chat in: each by its picker name, its setting value and the class names it gives. */
export const THEMES = [
  { name: 'Dark Modern', setting: 'Default Dark Modern', workbench: 'vs-dark', webview: 'vscode-dark' },
  { name: 'Light Modern', setting: 'Default Light Modern', workbench: 'vs', webview: 'vscode-light' },
  {
    name: 'Dark High Contrast',
    setting: 'Default High Contrast',
    workbench: 'hc-black',
    webview: 'vscode-high-contrast',
  },
  {
    name: 'Light High Contrast',
    setting: 'Default High Contrast Light',
    workbench: 'hc-light',
    webview: 'vscode-high-contrast-light',
  },
] as const;

/** The theme's kind as the workbench names it on its root element. */
const workbenchKind = (wb: Workbench) =>
  wb.page.evaluate(
    () =>
      ['vs-dark', 'vs', 'hc-black', 'hc-light'].find((name) =>
        document.querySelector('.monaco-workbench')?.classList.contains(name),
      ) ?? '',
  );

/**
 * Puts the workbench in a theme as a person does (the theme picker, from the editor so that no webview takes the
 * focus and closes the picker), and waits until both the workbench and the chat's frame wear it.
 */
export async function wearTheme(wb: Workbench, theme: (typeof THEMES)[number]) {
  await wb.runCommand('View: Focus Active Editor Group');
  await setTheme(wb, theme.name);
  await until(`the workbench to wear ${theme.name}`, async () =>
    (await workbenchKind(wb)) === theme.workbench ? true : undefined,
  );
  // A dark theme's frame carries neither light nor high-contrast class; the others carry theirs.
  const others = THEMES.map((t) => t.webview).filter((c) => c !== theme.webview && !theme.webview.startsWith(c));
  let seen: string[] = [];
  try {
    await until(`the chat to wear ${theme.name}`, async () => {
      seen = (await wb.webview().locator('body').getAttribute('class', { timeout: 10_000 }))?.split(/\s+/) ?? [];
      return seen.includes(theme.webview) && !others.some((c) => seen.includes(c)) ? true : undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; the frame's body was "${seen.join(' ')}"`);
  }
}

/** Whether the chat's prompt box holds the keyboard focus (inside the view's frame). */
const promptFocused = (wb: Workbench) =>
  wb
    .webview()
    .locator('#prompt')
    .evaluate((box) => box === document.activeElement && document.hasFocus())
    .catch(() => false);

const keyboardSteps: UiStep[] = [
  {
    name: 'Ctrl+Alt+J opens and focuses the chat from the editor; the last answer opens read-only in an editor',
    async run({ wb }) {
      await clearToasts(wb);
      await wb.runCommand('View: Focus Active Editor Group');
      await until('the editor to leave the chat', async () => ((await promptFocused(wb)) ? undefined : true));
      await wb.page.keyboard.press('Control+Alt+J');
      await until('the prompt box to take the focus', async () => ((await promptFocused(wb)) ? true : undefined));
      await wb.screenshot('chat-opened-by-keybinding');
      await wb.runCommand('Keyward: Show Last Answer in Accessible View');
      await wb.page.locator('.tab', { hasText: 'last-answer.md' }).first().waitFor({ timeout: PATIENCE });
      await wb.screenshot('last-answer-accessible-view');
    },
  },
  {
    name: 'an answer has Copy and Regenerate, shown on hover and focus; Copy says "Copied" to the eye and the ear',
    async run({ wb }) {
      const answer = wb.webview().locator('#conversation .turn.assistant.done').last();
      await answer.hover();
      const copy = answer.locator('button[aria-label="Copy the answer"]');
      await copy.waitFor({ state: 'visible', timeout: PATIENCE });
      await wb.screenshot('message-actions-on-hover');
      await copy.click();
      await until('the copy to be announced', async () =>
        (await wb.webview().locator('#announcer').textContent())?.includes('Copied') ? true : undefined,
      );
      await wb.screenshot('answer-copied');
    },
  },
];

/** What holds the keyboard focus in the chat's frame (its id, else its name or text); '' when the frame has none. */
const chatFocus = (wb: Workbench) =>
  wb
    .webview()
    .locator('body')
    .evaluate(() =>
      document.hasFocus() && document.activeElement && document.activeElement !== document.body
        ? document.activeElement.id ||
          document.activeElement.getAttribute('aria-label') ||
          (document.activeElement.textContent ?? '').trim() ||
          document.activeElement.tagName.toLowerCase()
        : '',
    )
    .catch(() => '');

const boundsStep: UiStep = {
  name: 'Tab stays within the chat: the last control wraps to the first and back; Escape returns to the editor',
  async run({ wb }) {
    await clearToasts(wb);
    const view = wb.webview();
    await view.locator('#prompt').focus();
    await until('the prompt box to take the focus', async () => ((await promptFocused(wb)) ? true : undefined));
    // Tab from the prompt box reaches Clear, the view's last control, without leaving the frame on the way.
    for (let i = 0; i < 10 && (await chatFocus(wb)) !== 'clear'; i++) {
      await wb.page.keyboard.press('Tab');
      if ((await chatFocus(wb)) === '') throw new Error(`Tab left the chat after ${i + 1} presses from the prompt`);
    }
    if ((await chatFocus(wb)) !== 'clear') throw new Error(`Tab did not reach Clear: at ${await chatFocus(wb)}`);
    // The page's first control Tab reaches (the service switch's chosen segment).
    const first = await view.locator('body').evaluate(() => {
      const el = [
        ...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [tabindex]'),
      ].find((e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled && e.checkVisibility());
      return el
        ? el.id || el.getAttribute('aria-label') || (el.textContent ?? '').trim() || el.tagName.toLowerCase()
        : '';
    });
    await wb.page.keyboard.press('Tab');
    await until('Tab from Clear to wrap to the service switch', async () =>
      (await chatFocus(wb)) === first ? true : undefined,
    );
    await wb.screenshot('tab-wrapped-to-first');
    await wb.page.keyboard.press('Shift+Tab');
    await until('Shift+Tab from the first control to wrap to Clear', async () =>
      (await chatFocus(wb)) === 'clear' ? true : undefined,
    );
    await wb.screenshot('shift-tab-wrapped-to-last');
    // The way out, which the prompt box names to a screen reader.
    const help = await view.locator('#prompt').evaluate((box) => {
      const id = box.getAttribute('aria-describedby');
      return id ? (document.getElementById(id)?.textContent ?? '') : '';
    });
    if (!/Escape goes back to the editor; F6/.test(help)) throw new Error(`the prompt box's description: ${help}`);
    await view.locator('#prompt').focus();
    await wb.page.keyboard.press('Escape');
    await until('Escape to put the focus in an editor', async () =>
      (await wb.page.evaluate(() => !!document.activeElement?.closest('.editor-instance, .monaco-editor'))) &&
      (await chatFocus(wb)) === ''
        ? true
        : undefined,
    );
    await wb.screenshot('escape-back-to-editor');
  },
};

/** A conversation with an answer, an error card and a notice (a refusal) for axe and the screenshots to judge. */
const themedContentStep: UiStep = {
  name: 'the chat holds an answer, an error card and a notice for the theme checks',
  async run({ wb, emulator }) {
    await clearToasts(wb);
    await anErrorCard(wb, emulator);
    await ask(wb, "[[refuse]] How do I get into my neighbour's flat without a key?");
    await wb.webview().locator('.turn.assistant.declined .refusal-label').last().waitFor({ timeout: PATIENCE });
  },
};

const axeSteps: UiStep[] = THEMES.map((theme) => ({
  name: `axe-core finds no serious or critical violation in the chat (${theme.name})`,
  async run({ wb }) {
    await wearTheme(wb, theme);
    await clearToasts(wb);
    // The conversation at its end, with its message actions shown as on hover.
    await wb.webview().locator('#conversation .turn').last().hover();
    const shot = theme.name.toLowerCase().replace(/ /g, '-');
    await wb.screenshot(`axe-${shot}`);
    if (theme.name === 'Dark Modern') await wb.readmeShot('chat', ['.part.sidebar'], 0);
    // The same conversation scrolled to its error card.
    const card = wb.webview().locator('.error-card').last();
    if ((await card.count()) > 0) {
      await card.scrollIntoViewIfNeeded();
      await wb.screenshot(`axe-${shot}-error-card`);
    }
    const findings = await axeFindings(wb);
    if (findings.length > 0)
      throw new Error(
        `axe (${theme.name}): ${findings.map((f) => `${f.id} [${f.impact}] ${f.help}\n    ${f.nodes.slice(0, 5).join('\n    ')}`).join('\n  ')}`,
      );
  },
}));

/** Back to Dark Modern, the theme the run started in, whatever the checks found. */
const restoreThemeStep: UiStep = {
  name: 'the theme is back to Dark Modern for the steps after',
  async run({ wb }) {
    await wearTheme(wb, THEMES[0]);
  },
};

export const a11ySteps: UiStep[] = [...keyboardSteps, boundsStep, themedContentStep, ...axeSteps, restoreThemeStep];
