// UI steps for issue 34 §3: under the chat's prompt box, the conversation's tokens against the model's context window
// and its cost so far, in words; a prompt that would overflow the window is held back on a card whose first way out is
// "Start a new conversation with a summary" (the old conversation set aside in the history, the new box holding the
// summary and the prompt, unsent). axe runs in the chat's frame with the card shown, in the four themes, and each is
// photographed. Stands alone after the router key step
// (KEYWARD_E2E_UI_GREP='router key in the password box|context meter|overflow warning').
import { PATIENCE, type Workbench } from '../harness/workbench.ts';
import { axeFindings, THEMES, wearTheme } from './a11ySteps.ts';
import { ask, clearToasts, ensurePanel, waitFor } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiStep } from './steps.ts';

const MODEL = 'openai/gpt-4o-mini';
/** About 140,000 tokens (ten a sentence): past gpt-4o-mini's 128,000, which the routing service's list gives. */
const TOO_LONG = 'The quick brown fox jumps over the lazy dog. '.repeat(14_000);

const meterText = (wb: Workbench) =>
  wb
    .webview()
    .locator('#context-meter')
    .evaluate((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());

const promptValue = (wb: Workbench) =>
  wb
    .webview()
    .locator('#prompt')
    .evaluate((el) => (el as HTMLTextAreaElement).value) as Promise<string>;

async function throwOnFindings(wb: Workbench, theme: string): Promise<void> {
  const findings = await axeFindings(wb);
  if (findings.length > 0)
    throw new Error(
      `axe (${theme}): ${findings.map((f) => `${f.id} [${f.impact}] ${f.help}\n    ${f.nodes.slice(0, 5).join('\n    ')}`).join('\n  ')}`,
    );
}

export const contextMeterSteps: UiStep[] = [
  {
    name: 'context meter: under the prompt box, the conversation’s tokens of the model’s window and its cost, in words',
    async run({ wb }) {
      await clearToasts(wb);
      await ensurePanel(wb);
      const view = wb.webview();
      await view.locator('#service-router').click();
      await waitFor(() => view.locator('#model').innerText(), MODEL, 'the router model list');
      await chooseModel(view, 'gpt-4o', MODEL);
      // A conversation of its own: the one before is set aside (Clear keeps it in the history).
      if ((await view.locator('#conversation .turn').count()) > 0) await view.locator('#clear').click();
      await view.locator('#conversation .turn').first().waitFor({ state: 'detached', timeout: PATIENCE });
      await waitFor(
        () => meterText(wb),
        /^Conversation size and cost: 0 of 128,000 tokens \(0%\) · cost \$0\.00$/,
        'an empty conversation',
      );
      await ask(wb, 'How full is this conversation, and what has it cost?');
      await view.locator('.turn.assistant.done').last().waitFor({ timeout: PATIENCE });
      // The routing service reported the answer's usage and cost: both are the meter's.
      await waitFor(
        () => meterText(wb),
        /^Conversation size and cost: \d+ of 128,000 tokens \(0%\) · cost \$0\.\d+$/,
        'the meter after an answer',
      );
      const under = await view.locator('#context-meter').evaluate((meter) => {
        const box = document.querySelector('.input-box')!.getBoundingClientRect();
        return meter.getBoundingClientRect().top >= box.bottom - 1;
      });
      if (!under) throw new Error('the meter is not under the prompt box');
      await wb.screenshot('context-meter-dark');
    },
  },
  {
    name: 'overflow warning: a prompt past the window waits on a card, the summary first; axe finds nothing in four themes',
    async run({ wb }) {
      const view = wb.webview();
      const users = await view.locator('.turn.user').count();
      await ask(wb, TOO_LONG);
      const card = view.locator('#overflow .overflow-card');
      await waitFor(() => card.innerText(), /This prompt may not fit the model’s context window/, 'the card');
      await waitFor(() => card.innerText(), /comes to [\d,]+ of 128,000 tokens \(\d+%\), over the window/, 'why');
      await waitFor(
        () =>
          card
            .locator('.error-buttons button')
            .allInnerTexts()
            .then((t) => t.join('|')),
        'Start a new conversation with a summary|Send anyway',
        'the ways on, the summary first',
      );
      if ((await view.locator('.turn.user').count()) !== users) throw new Error('the prompt was sent');
      if ((await promptValue(wb)) !== TOO_LONG) throw new Error('the prompt left the box');
      await waitFor(() => meterText(wb), /over the window · cost \$0\.\d+$/, 'the meter says it in words');
      try {
        for (const theme of THEMES) {
          await wearTheme(wb, theme);
          await clearToasts(wb);
          await card.scrollIntoViewIfNeeded();
          await wb.screenshot(`context-overflow-${theme.name.toLowerCase().replace(/ /g, '-')}`);
          await throwOnFindings(wb, theme.name);
        }
      } finally {
        await wearTheme(wb, THEMES[0]);
      }
    },
  },
  {
    name: 'overflow warning: "Start a new conversation with a summary" sets the old one aside and fills the new box',
    async run({ wb }) {
      const view = wb.webview();
      await view.locator('#overflow button[data-action="summary"]').click();
      await view.locator('#conversation .turn').first().waitFor({ state: 'detached', timeout: PATIENCE });
      await waitFor(
        async () => (await promptValue(wb)).slice(0, 200),
        /^A summary of our earlier conversation \(Keyward kept the start of each message\): - I asked: How full is this conversation, and what has it cost\? You answered: /,
        'the summary in the new box',
      );
      if (!(await promptValue(wb)).endsWith(TOO_LONG)) throw new Error('the prompt did not follow the summary');
      // The old conversation is in the history: Clear's Undo is offered.
      await view.locator('#cleared-notice').waitFor({ state: 'visible', timeout: PATIENCE });
      await wb.screenshot('context-overflow-new-conversation');
      await view.locator('#prompt').fill('');
      await waitFor(() => meterText(wb), /^Conversation size and cost: 0 of 128,000 tokens/, 'the empty box');
    },
  },
];
