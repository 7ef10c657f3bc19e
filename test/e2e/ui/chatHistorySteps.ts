// UI steps for issue 31 items 4, 14, 15 and 21 in the real workbench: Regenerate answers again in place from the
// same context and keeps the old answer as "1 of 2" (the emulator's record shows what was sent), New Conversation
// leaves no empty row and the list counts conversations only, Alt+F2 opens the last answer with the focus inside the
// chat, and an edited message stays in view. Each waits on what the page shows.
import type { FrameLocator, Locator } from '../harness/playwright.ts';
import { PATIENCE, type Workbench, until } from '../harness/workbench.ts';
import type { Emulator, ServiceRequest } from '../../emulator/server.ts';
import { THEMES, axeFindings, wearTheme } from './a11ySteps.ts';
import { ask, clearToasts, ensurePanel, setTheme, waitFor } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import { openChatView } from './chatViewSteps.ts';
import type { UiStep } from './steps.ts';

async function paidModel(wb: Workbench): Promise<FrameLocator> {
  // The chat in its editor tab, and the side bar closed: with the chat shown in both, what the steps read and
  // check (axe-core, the focus) would be in either.
  await ensurePanel(wb, 'tab');
  if (await wb.page.locator('.part.sidebar').isVisible()) await wb.runCommand('View: Close Primary Side Bar');
  await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: PATIENCE });
  const view = wb.chat('tab');
  await view.locator('#service-router').click();
  await waitFor(() => view.locator('#model').innerText(), 'openai/gpt-4o-mini', 'the router model list');
  await chooseModel(view, 'gpt-4o', 'openai/gpt-4o-mini');
  return view;
}

/** The chat requests the routing service received, oldest first. */
const chatRequests = (emulator: Emulator): ServiceRequest[] =>
  emulator.requests.filter((r) => r.service === 'router' && r.path.endsWith('/chat/completions') && r.body);
const messagesOf = (request: ServiceRequest | undefined) => JSON.stringify(request?.body?.messages ?? null);

const userTexts = (view: FrameLocator) =>
  view.locator('.turn.user .user-text').evaluateAll((nodes) => nodes.map((n) => (n.textContent ?? '').trim()));

async function noAxeFindings(wb: Workbench, where: string): Promise<void> {
  const findings = await axeFindings(wb);
  if (findings.length > 0)
    throw new Error(
      `axe-core (${where}): ${findings.map((f) => `${f.id} (${f.impact}): ${f.nodes.join('; ')}`).join(' | ')}`,
    );
}

const ROWS = '.quick-input-list .monaco-list-row';

/** Whether `node` lies wholly inside the conversation's visible box. */
const inView = (node: Locator) =>
  node.evaluate((el) => {
    const box = el.closest('#conversation')!.getBoundingClientRect();
    const own = el.getBoundingClientRect();
    return own.top >= box.top - 1 && own.bottom <= box.bottom + 1;
  });

/** The last-answer.md tab, opened by Alt+F2 (Show Last Answer in Accessible View). */
const lastAnswerTab = (wb: Workbench) => wb.page.locator('.tab', { hasText: 'last-answer.md' });

async function altF2Opens(wb: Workbench, focus: () => Promise<void>, where: string): Promise<void> {
  await wb.closeAllEditors();
  await lastAnswerTab(wb).first().waitFor({ state: 'detached', timeout: PATIENCE });
  await focus();
  await wb.page.keyboard.press('Alt+F2');
  await lastAnswerTab(wb)
    .first()
    .waitFor({ timeout: PATIENCE })
    .catch(() => {
      throw new Error(`Alt+F2 with the focus ${where} opened no last answer`);
    });
}

export const chatHistorySteps: UiStep[] = [
  {
    name: 'Regenerate answers again in place from the same context; "2 of 2" pages back to the old answer',
    async run({ wb, emulator }) {
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      const view = await paidModel(wb);
      const answers = await view.locator('.turn.assistant.done').count();
      await ask(wb, 'a question to regenerate', 'tab');
      await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
      const turnsBefore = await view.locator('#conversation .turn').count();
      const usersBefore = await userTexts(view);
      const first = chatRequests(emulator).at(-1);
      const answer = view.locator('.turn.assistant.done').last();
      const oldText = (await answer.locator('.answer').innerText()).trim();
      // A longer answer this time, so the two versions differ on the screen.
      Object.assign(emulator.config, { answerTokens: 24 });
      try {
        await answer.hover();
        await answer.locator('button[aria-label="Regenerate"]').click();
        const versions = view.locator('.turn.assistant').last().locator('.answer-versions');
        await waitFor(() => versions.innerText(), '2 of 2', 'the versions switch under the regenerated answer');
      } finally {
        Object.assign(emulator.config, { answerTokens: 12 });
      }
      // In place: as many turns as before, the prompt not repeated.
      const turnsAfter = await view.locator('#conversation .turn').count();
      if (turnsAfter !== turnsBefore) throw new Error(`Regenerate made ${turnsBefore} turns ${turnsAfter}`);
      if ((await userTexts(view)).join('|') !== usersBefore.join('|'))
        throw new Error(`the prompts after Regenerate: ${(await userTexts(view)).join(' | ')}`);
      // What the service received: the messages that produced the first answer, nothing more.
      const again = chatRequests(emulator).at(-1);
      if (again === first || messagesOf(again) !== messagesOf(first))
        throw new Error(
          `Regenerate sent ${messagesOf(again).slice(0, 600)}, the first answer came from ${messagesOf(first).slice(0, 600)}`,
        );
      const last = view.locator('.turn.assistant').last();
      await wb.screenshot('regenerate-2-of-2-dark');
      await last.locator('button[aria-label="Previous version"]').click();
      await waitFor(() => last.locator('.answer-versions').innerText(), '1 of 2', 'the previous version');
      await waitFor(
        () => view.locator('.turn.assistant').last().locator('.answer').innerText(),
        oldText,
        'the old answer',
      );
      await wb.screenshot('regenerate-1-of-2-dark');
      await noAxeFindings(wb, 'an answer with its versions, Dark Modern');
      await view.locator('.turn.assistant').last().locator('button[aria-label="Next version"]').click();
      await waitFor(
        () => view.locator('.turn.assistant').last().locator('.answer-versions').innerText(),
        '2 of 2',
        'back',
      );
      // The switch in the other themes the suite checks, judged by axe there too.
      for (const theme of THEMES.slice(1)) {
        await wearTheme(wb, theme);
        await view.locator('.turn.assistant').last().scrollIntoViewIfNeeded();
        await wb.screenshot(`regenerate-2-of-2-${theme.workbench}`);
        await noAxeFindings(wb, `an answer with its versions, ${theme.name}`);
      }
      await wearTheme(wb, THEMES[0]);
    },
  },
  {
    name: 'Edit and send again keeps the message being edited in view',
    async run({ wb, emulator }) {
      const view = await paidModel(wb);
      // Long answers above and below the message, so that the conversation scrolls and the message can sit at the
      // bottom of its box, where the edit banner takes its room from.
      const answered = async (prompt: string, tokens: number) => {
        const answers = await view.locator('.turn.assistant.done').count();
        Object.assign(emulator.config, { answerTokens: tokens });
        try {
          await ask(wb, prompt, 'tab');
          await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
        } finally {
          Object.assign(emulator.config, { answerTokens: 12 });
        }
      };
      await answered('a long answer before it', 400);
      await answered('the message to edit', 12);
      await answered('a long answer after it', 400);
      const message = view.locator('.turn.user', { hasText: 'the message to edit' }).last();
      await message.evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await message.hover();
      await message.locator('button[aria-label="Edit and send again"]').click();
      await view.locator('#editing').waitFor({ state: 'visible', timeout: PATIENCE });
      await until('the edited message in view', async () => ((await inView(message)) ? true : undefined));
      await wb.screenshot('edit-message-in-view-dark');
      await view.locator('#edit-cancel').click();
    },
  },
  {
    name: 'New Conversation twice leaves no empty row; the list counts conversations only',
    async run({ wb }) {
      const view = await paidModel(wb);
      if ((await view.locator('.turn.assistant.done').count()) === 0) {
        await ask(wb, 'a conversation to come back to', 'tab');
        await view.locator('.turn.assistant.done').first().waitFor({ timeout: PATIENCE });
      }
      const current = (await userTexts(view))[0]!;
      // Escape hands the focus back to the editor: the palette's keys must not land in the prompt box.
      await view.locator('#prompt').press('Escape');
      await wb.runCommand('Keyward: New Conversation');
      await wb.runCommand('Keyward: New Conversation');
      await wb.chat('tab').locator('.empty-state').waitFor({ timeout: PATIENCE });
      // The chat takes the focus when it shows the new conversation, which would close a list opened before it:
      // once it has, Escape hands it back to the editor, where the palette's keys go to the palette. With the chat
      // open in the side bar and in a tab, either may be the one that takes it.
      const focused = await until('the chat to take the focus', async () => {
        for (const place of ['tab', 'side'] as const)
          if (
            await wb
              .chat(place)
              .locator('#prompt')
              .evaluate((box) => box === document.activeElement && document.hasFocus())
              .catch(() => false)
          )
            return place;
        return undefined;
      });
      await wb.chat(focused).locator('#prompt').press('Escape');
      const rows = wb.page.locator(ROWS);
      await until('the conversation list', async () => {
        if (
          !(await rows
            .first()
            .isVisible()
            .catch(() => false))
        )
          await wb.runCommand('Keyward: Show Conversations');
        return (await rows
          .first()
          .waitFor({ timeout: 10_000 })
          .then(() => true)
          .catch(() => false))
          ? true
          : undefined;
      });
      // Read once the list is drawn: its count badge and every row.
      const badge = wb.page.locator('.quick-input-widget .quick-input-visible-count');
      const listed = await until('the list drawn with its count', async () => {
        const count = Number((await badge.innerText().catch(() => '')).replace(/\D+/g, ''));
        const texts = await rows.allInnerTexts();
        return count > 0 && texts.length > 0 ? { count, texts } : undefined;
      });
      const rowsSaid = listed.texts.join(' | ');
      // The row's label and description run together in its text ("tides2 messages · now").
      if (listed.texts.some((t) => /(?<!\d)0 messages/.test(t))) throw new Error(`an empty row: ${rowsSaid}`);
      if (!listed.texts.every((t) => /(?<!\d)[1-9]\d* messages/.test(t)))
        throw new Error(`a row not a conversation: ${rowsSaid}`);
      if (listed.count !== listed.texts.length)
        throw new Error(`the list says ${listed.count} results for ${rowsSaid}`);
      await wb.page
        .locator('.quick-input-widget .quick-input-titlebar .action-label[aria-label="New Conversation"]')
        .waitFor({ timeout: PATIENCE });
      await wb.screenshot('conversation-list-no-empty-row');
      // Back to the conversation it left (with the regenerated answer, in the whole run), for the steps after.
      await until('the chat back on the conversation it left', async () => {
        const target = wb.page.locator(ROWS, { hasText: current }).first();
        if (!(await target.isVisible().catch(() => false))) {
          await wb.runCommand('Keyward: Show Conversations');
          return undefined;
        }
        await target.click({ timeout: 5_000 }).catch(() => undefined);
        const shown = await wb
          .chat('tab')
          .locator('#conversation')
          .innerText()
          .catch(() => '');
        return shown.includes(current) ? true : undefined;
      });
    },
  },
  {
    name: 'Alt+F2 opens the last answer with the focus in the prompt box or the conversation, in the tab and the side view',
    async run({ wb }) {
      await clearToasts(wb);
      const tab = () => wb.chat('tab');
      // An answer to show: the chat may be on a conversation with none.
      const view = await paidModel(wb);
      const answers = await view.locator('.turn.assistant.done').count();
      await ask(wb, 'an answer for the accessible view', 'tab');
      await view.locator('.turn.assistant.done').nth(answers).waitFor({ timeout: PATIENCE });
      await altF2Opens(
        wb,
        async () => {
          await ensurePanel(wb, 'tab');
          await tab().locator('#prompt').click();
        },
        "in the editor tab's prompt box",
      );
      await wb.screenshot('alt-f2-from-prompt-box');
      await altF2Opens(
        wb,
        async () => {
          await ensurePanel(wb, 'tab');
          // As a person does: a click in the conversation, on a turn's label (no button or link there).
          await tab().locator('#conversation .turn .who').last().click();
        },
        "in the editor tab's conversation",
      );
      await altF2Opens(
        wb,
        async () => {
          await openChatView(wb);
          await wb.chat('side').locator('#prompt').click();
        },
        "in the side view's prompt box",
      );
      await wb.screenshot('alt-f2-from-side-view');
      // Not taken from elsewhere: in a text editor Alt+F2 is the editor's own.
      await wb.closeAllEditors();
      await wb.openFile('README.md');
      await wb.page.locator('.editor-instance .view-lines').first().click();
      await wb.page.keyboard.press('Alt+F2');
      await new Promise((r) => setTimeout(r, 1_500));
      if ((await lastAnswerTab(wb).count()) > 0) throw new Error('Alt+F2 in a text editor opened the last answer');
      for (let i = 0; i < 2; i++) await wb.page.keyboard.press('Escape');
    },
  },
];
