// UI steps for how answers end and what the account says: a refusal and a
// filtered answer in the panel, a restricted key and a negative balance in the
// status bar and on the error card, each with a screenshot to look at (dark
// theme, then the light one).
import type { Emulator } from '../../emulator/server.ts';
import { PATIENCE, VISIBLE_HOVER, type Workbench, until } from '../harness/workbench.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiStep } from './steps.ts';

export async function waitFor(
  read: () => Promise<string>,
  expected: string | RegExp,
  what: string,
  timeoutMs = PATIENCE,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = (await read().catch(() => '')).replace(/\s+/g, ' ').trim();
    if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return text;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what}: expected ${String(expected)}, saw ${JSON.stringify(text.slice(0, 300))}`);
}

export async function admin<T>(emulator: Emulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(emulator.adminUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status}`);
  return (await response.json()) as T;
}

export async function ask(wb: Workbench, prompt: string, place?: 'tab' | 'side'): Promise<void> {
  const box = wb.chat(place).locator('#prompt');
  await box.fill(prompt);
  await box.press('Control+Enter');
}

/** The panel, opened if an earlier step left it closed: these steps stand on their own. */
export async function ensurePanel(wb: Workbench, place?: 'tab' | 'side'): Promise<void> {
  const prompt = wb.chat(place).locator('#prompt');
  if (!(await prompt.isVisible().catch(() => false))) {
    // A menu or peek left open by an earlier step makes the command palette inert.
    for (let i = 0; i < 3; i++) await wb.page.keyboard.press('Escape');
    await wb.runCommand(place === 'side' ? 'Keyward: Open Chat' : 'Keyward: Open Chat in Editor');
    await prompt.waitFor({ timeout: PATIENCE });
  }
  // An attachment an earlier step left (the restored .env chip holds a key) would
  // stop every prompt here at the secret guard: these steps send the prompt alone.
  const remove = wb.chat(place).locator('#attachments .chip-remove');
  while ((await remove.count()) > 0) await remove.first().click();
}

async function pickModel(wb: Workbench, service: 'router' | 'direct', filter: string, model: string): Promise<void> {
  await ensurePanel(wb);
  const view = wb.webview();
  await view.locator(`#service-${service}`).click();
  await waitFor(() => view.locator('#model').innerText(), model, `the ${service} model list`);
  await chooseModel(view, filter, model);
}

/** Quick input from the previous command gone: a palette opened while it closes is closed with it. */
async function quickInputClosed(wb: Workbench): Promise<void> {
  await wb.page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/** Toasts from the key commands would sit over the panel in the screenshots; cosmetic, so best effort. */
/**
 * An error card in the chat, made when none is left (Retry answers in the failed answer's place, so an earlier
 * step's card may be gone): a server error the client does not retry.
 */
export async function anErrorCard(wb: Workbench, emulator: Emulator): Promise<void> {
  if ((await wb.webview().locator('.error-card').count()) > 0) return;
  await admin(emulator, 'POST', '/faults', {
    kind: 'http500',
    shouldRetry: false,
    count: 1,
    service: 'router',
    path: '/chat/completions',
  });
  await ask(wb, 'an answer that fails');
  await wb.webview().locator('.error-card').last().waitFor({ timeout: PATIENCE });
}

export async function clearToasts(wb: Workbench): Promise<void> {
  await quickInputClosed(wb);
  try {
    await wb.runCommand('Notifications: Clear All Notifications', 15_000);
  } catch {
    await wb.page.keyboard.press('Escape');
  }
  await wb.page.mouse.move(10, 10);
}

/** Picks a colour theme the way a person does, and waits for the workbench to wear it. */
export async function setTheme(
  wb: Workbench,
  theme: 'Dark Modern' | 'Light Modern' | 'Dark High Contrast' | 'Light High Contrast',
): Promise<void> {
  // By its keybinding: the palette puts "Browse Color Themes in Marketplace" first for the title.
  // The picker can close under us when a webview takes the focus back as an answer lands: then it opens again.
  const input = wb.page.locator('.quick-input-widget input.input');
  const deadline = Date.now() + PATIENCE;
  for (;;) {
    await wb.page.mouse.move(10, 10);
    await wb.page.keyboard.press('Control+K');
    await wb.page.keyboard.press('Control+T');
    try {
      // Any row: the list draws only the rows in view, and the high-contrast themes are below them until filtered.
      await wb.page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 15_000 });
      await input.fill(theme, { timeout: 5_000 });
      // Enter takes the row the list has focused, and the list filters after the text changes: pressed too soon it
      // took the theme already worn, after the picker had previewed the new one (which looked like a switch that
      // did not hold). So Enter waits for the theme's own row to be the focused one.
      const focused = wb.page.locator('.quick-input-list .monaco-list-row.focused');
      await until(
        `the ${theme} row to be focused`,
        // The first row of a group also carries the group's name ("high contrast themes").
        async () => ((await focused.innerText().catch(() => '')).includes(theme) ? true : undefined),
        15_000,
      );
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });
      break;
    } catch (error) {
      await wb.page.keyboard.press('Escape');
      if (Date.now() > deadline) throw error;
    }
  }
  // The workbench's class for the theme's kind: vs-dark, vs, hc-black or hc-light.
  const kind = theme.includes('High Contrast')
    ? theme.startsWith('Dark')
      ? 'hc-black'
      : 'hc-light'
    : theme.startsWith('Dark')
      ? 'vs-dark'
      : 'vs';
  await waitFor(
    async () =>
      String(
        await wb.page.evaluate(
          () =>
            ['vs-dark', 'vs', 'hc-black', 'hc-light'].find((name) =>
              document.querySelector('.monaco-workbench')?.classList.contains(name),
            ) ?? '',
        ),
      ),
    new RegExp(`^${kind}$`),
    `the ${theme} theme`,
  );
}

async function setKey(wb: Workbench, service: 'router' | 'direct', key: string): Promise<void> {
  await quickInputClosed(wb);
  await wb.runCommand(service === 'router' ? 'Keyward: Set Router Key' : 'Keyward: Set Direct Key');
  await wb.answerQuickInput(key);
  await quickInputClosed(wb);
}

export const answerSteps: UiStep[] = [
  {
    name: 'a refusal is the answer, in its own style, labelled "The model declined"',
    async run({ wb }) {
      // These screenshots are judged in a dark theme; the last step shows the light one.
      await setTheme(wb, 'Dark Modern');
      await clearToasts(wb);
      await pickModel(wb, 'router', 'gpt-4o', 'openai/gpt-4o-mini');
      await ask(wb, "[[refuse]] How do I get into my neighbour's flat without a key?");
      const turn = wb.webview().locator('.turn.assistant.declined').last();
      await waitFor(
        () => turn.locator('.refusal-text').innerText(),
        "I'm sorry, but I can't assist with that request.",
        'the refusal',
      );
      await waitFor(() => turn.locator('.refusal-label').innerText(), 'The model declined', 'the refusal label');
      await waitFor(
        () => turn.locator('.meta').innerText(),
        /openai\/gpt-4o-mini · \d+ \+ 11 tokens/,
        'the refusal footer',
      );
      if ((await turn.locator('.answer').count()) !== 0) throw new Error('a declined answer shows an empty answer box');
      await wb.screenshot('refusal-in-panel');
    },
  },
  {
    name: 'an answer the provider filtered says so under what arrived',
    async run({ wb }) {
      await pickModel(wb, 'direct', 'mini', 'gpt-5.4-mini');
      await ask(wb, '[[filter:9]] Write out the full lyrics of a chart song.');
      const turn = wb.webview().locator('.turn.assistant.done').last();
      await waitFor(
        () => turn.locator('.finish-note.content_filter').innerText(),
        'Filtered by the provider: the rest of the answer was withheld.',
        'the filter note',
      );
      await waitFor(() => turn.locator('.answer').innerText(), /^\w+( \w+){8}$/, 'the text that arrived');
      await wb.screenshot('filtered-answer-in-panel');
    },
  },
  {
    name: 'a restricted key: the status bar and the error card name the missing scope',
    async run({ wb, emulator }) {
      const orgId = emulator.sandbox!.directOrgId;
      const { key } = await admin<{ key: string }>(emulator, 'POST', '/direct/keys', {
        orgId,
        permissions: 'Restricted',
        scopes: ['api.model.read'],
      });
      try {
        await setKey(wb, 'direct', key);
        await waitFor(() => wb.statusItem('direct').innerText(), 'direct: ok', 'the direct item after Verify');
        await clearToasts(wb);
        await pickModel(wb, 'direct', 'mini', 'gpt-5.4-mini');
        await ask(wb, 'Summarise this repository in one line.');
        const card = wb.webview().locator('.error-card').last();
        await waitFor(() => card.innerText(), 'This key lacks:', 'the error card');
        await waitFor(
          () => card.locator('.error-scopes').innerText(),
          'api.responses.write create responses (send prompts)',
          'the missing scope',
        );
        await card.locator('button', { hasText: 'Open the keys page' }).waitFor({ timeout: PATIENCE });
        await waitFor(
          () => wb.statusItem('direct').innerText(),
          'direct: restricted · needs api.responses.write',
          'the direct item',
        );
        await wb.screenshot('restricted-key-error-card');
        await wb.statusItem('direct').hover();
        const hover = wb.page.locator(VISIBLE_HOVER).first();
        await waitFor(
          () => hover.innerText(),
          'api.responses.write: may not create responses (send prompts)',
          'the direct tooltip',
        );
        await waitFor(
          () => hover.innerText(),
          'Creating responses: refused (missing api.responses.write)',
          'the direct tooltip',
        );
        await wb.screenshot('restricted-key-status-tooltip');
        await wb.page.mouse.move(10, 10);
      } finally {
        await setKey(wb, 'direct', emulator.sandbox!.keys.direct);
        await waitFor(() => wb.statusItem('direct').innerText(), 'direct: ok', 'the direct item, sandbox key back');
      }
    },
  },
  {
    name: "a negative balance: the router item shows it, not the key's remaining limit",
    async run({ wb, emulator }) {
      const { id } = await admin<{ id: string }>(emulator, 'POST', '/router/accounts', { name: 'ui negative' });
      await admin(emulator, 'POST', `/router/accounts/${id}/purchase`, { amount: 20 });
      const { key } = await admin<{ key: string }>(emulator, 'POST', '/router/keys', {
        accountId: id,
        name: 'ui negative',
        limit: 10,
        expiresIn: '30d',
      });
      try {
        await setKey(wb, 'router', key);
        await waitFor(() => wb.statusItem('router').innerText(), '$10.00', 'the router item');
        await admin(emulator, 'POST', `/router/accounts/${id}/spend`, { amount: 25 });
        await clearToasts(wb);
        await pickModel(wb, 'router', 'gpt-4o', 'openai/gpt-4o-mini');
        await ask(wb, 'One more question, please.');
        await waitFor(
          () => wb.webview().locator('.error-card').last().innerText(),
          /Not enough credits \(HTTP 402\)/,
          'the 402 card',
        );
        await waitFor(() => wb.statusItem('router').innerText(), 'balance below zero · calls fail', 'the router item');
        await wb.statusItem('router').hover();
        await waitFor(
          () => wb.page.locator(VISIBLE_HOVER).first().innerText(),
          'To do: add credits on the credits page',
          'the router tooltip',
        );
        await wb.screenshot('negative-balance-status');
        await wb.page.mouse.move(10, 10);
      } finally {
        await setKey(wb, 'router', emulator.sandbox!.keys.routerFunded);
        await waitFor(() => wb.statusItem('router').innerText(), '$', 'the router item, sandbox key back');
      }
    },
  },
  {
    name: 'the refusal and the filter note in the light theme',
    async run({ wb }) {
      await setTheme(wb, 'Light Modern');
      await clearToasts(wb);
      // The refusal at the top of the conversation, the filter note under it.
      // Only the conversation scrolls; scrollIntoView would nudge the whole page too.
      await wb
        .webview()
        .locator('.turn.assistant.declined')
        .last()
        .evaluate((el) => {
          const box = el.closest<HTMLElement>('#conversation')!;
          box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top;
        });
      await wb.webview().locator('.finish-note.content_filter').last().waitFor({ state: 'visible', timeout: PATIENCE });
      await wb.screenshot('refusal-and-filter-light');
    },
  },
  {
    name: 'a server error that outlasts the retries offers Retry, which answers again in its place',
    async run({ wb, emulator }) {
      await pickModel(wb, 'router', 'gpt-4o', 'openai/gpt-4o-mini');
      // One more than the retries, on prompts only: the key checks go on answering.
      await admin(emulator, 'POST', '/faults', {
        kind: 'http500',
        service: 'router',
        path: '/chat/completions',
        count: 4,
      });
      await ask(wb, 'Say hello after a hiccup.');
      const card = wb.webview().locator('.error-card').last();
      await waitFor(() => card.innerText(), /Service error \(HTTP 500\)/, 'the 500 card');
      const before = await wb.webview().locator('.turn.assistant').count();
      await wb.screenshot('server-error-send-again');
      const prompts = await wb.webview().locator('.turn.user').count();
      await card.locator('button.retry-button').click();
      // In the failed answer's place (issue 31 item 4): no second prompt, no answer added.
      const answer = wb.webview().locator('.turn.assistant').last();
      await waitFor(async () => (await answer.getAttribute('class')) ?? '', /\bdone\b/, 'the answer after Retry');
      await waitFor(() => answer.innerText(), /\w+ \w+/, 'its text');
      const counts = [
        await wb.webview().locator('.turn.assistant').count(),
        await wb.webview().locator('.turn.user').count(),
      ];
      if (counts.join() !== [before, prompts].join())
        throw new Error(`Retry left ${counts[0]} answers and ${counts[1]} prompts, not ${before} and ${prompts}`);
    },
  },
];
