// UI step for the OpenAI-compatible service: the run's settings point it at the
// emulator's keyless local-server route as "Local LLM"; a person sees its
// status-bar item, picks it in the panel's switch, picks a model and is answered.
import { answerText } from '../../emulator/answers.ts';
import { PATIENCE } from '../harness/workbench.ts';
import { ensurePanel } from './answerSteps.ts';
import { chooseModel } from './chatAnswerSteps.ts';
import type { UiStep } from './steps.ts';

async function waitFor(read: () => Promise<string>, expected: string, what: string): Promise<void> {
  const deadline = Date.now() + PATIENCE;
  let text = '';
  while (Date.now() < deadline) {
    text = (await read().catch(() => '')).replace(/\s+/g, ' ').trim();
    if (text.includes(expected)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what}: expected ${expected}, saw ${JSON.stringify(text.slice(0, 300))}`);
}

export const compatibleSteps: UiStep[] = [
  {
    name: 'an OpenAI-compatible server: its own status item and switch button, and the panel prompts it',
    async run({ wb }) {
      await waitFor(() => wb.statusItem('compatible').innerText(), 'Local LLM', 'the compatible status item');
      await ensurePanel(wb);
      const view = wb.webview();
      const button = view.locator('#service-compatible');
      await waitFor(() => button.innerText(), 'Local LLM', 'the switch button');
      await button.click();
      await waitFor(() => view.locator('#model').innerText(), 'qwen2.5-coder:7b', 'the server model list');
      await chooseModel(view, 'llama', 'llama3.2:3b');
      const box = view.locator('#prompt');
      await box.fill('hello local model');
      await box.press('Control+Enter');
      await waitFor(
        () => view.locator('.turn.assistant.done .answer').last().innerText(),
        answerText('hello local model', { tokens: 12 }),
        'the answer from the compatible server',
      );
      await wb.screenshot('compatible-service-answer');
      // The steps after this one prompt the direct service.
      await view.locator('#service-direct').click();
    },
  },
];
