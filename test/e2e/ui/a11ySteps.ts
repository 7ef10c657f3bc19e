// The chat checked by axe-core in the real workbench, in the dark, light and high-contrast themes: axe runs in
// the chat's own frame, over the conversation the steps before left (answers, a refusal, error cards, code).
// As @axe-core/playwright does (dequelabs/axe-core-npm packages/playwright/src/index.ts: axe.source evaluated in
// each frame, then axe.run there); the webview's CSP allows no script but its own, so the source is evaluated
// as a script through the debugger protocol, which the page's CSP does not govern.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Workbench } from '../harness/workbench.ts';
import { PATIENCE, until } from '../harness/workbench.ts';
import { clearToasts, setTheme } from './answerSteps.ts';
import type { UiStep } from './steps.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe's serious and critical findings in the chat's frame, each with the elements it names. */
async function axeFindings(wb: Workbench): Promise<Finding[]> {
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

// Light Modern and Dark High Contrast are not listed yet: switched from here (after the accessible view opened an
// editor), the theme picker's choice did not hold (the workbench showed Dark again while the frame had briefly
// worn the light theme), so a pass there would prove nothing. The open item is to switch by the
// workbench.colorTheme setting and add both.
const THEMES = ['Dark Modern'] as const;

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

const axeSteps: UiStep[] = THEMES.map((theme) => ({
  name: `axe-core finds no serious or critical violation in the chat (${theme})`,
  async run({ wb }) {
    // The theme picker's keys go to the workbench, not to the chat's frame, which may hold the focus.
    await wb.runCommand('View: Focus Active Editor Group');
    await setTheme(wb, theme);
    // VS Code names the theme's kind on the webview's body: axe must judge the chat in that theme.
    const kind = theme.includes('High Contrast')
      ? 'vscode-high-contrast'
      : theme.startsWith('Dark')
        ? 'vscode-dark'
        : 'vscode-light';
    await until(`the chat to wear ${theme}`, async () =>
      (await wb.webview().locator('body').getAttribute('class'))?.split(/\s+/).includes(kind) ? true : undefined,
    );
    await clearToasts(wb);
    // The conversation at its end, with its message actions shown as on hover.
    await wb.webview().locator('#conversation .turn').last().hover();
    await wb.screenshot(`axe-${theme.toLowerCase().replace(/ /g, '-')}`);
    const findings = await axeFindings(wb);
    if (theme === THEMES[THEMES.length - 1]) {
      await wb.runCommand('View: Focus Active Editor Group');
      await setTheme(wb, 'Dark Modern');
    }
    if (findings.length > 0)
      throw new Error(
        `axe (${theme}): ${findings.map((f) => `${f.id} [${f.impact}] ${f.help}\n    ${f.nodes.slice(0, 5).join('\n    ')}`).join('\n  ')}`,
      );
  },
}));

export const a11ySteps: UiStep[] = [...keyboardSteps, ...axeSteps];
