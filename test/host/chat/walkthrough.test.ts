// The walkthrough's "Send a first prompt" step (issue 21 item 13). VS Code creates its walkthrough service only
// when the Welcome page needs it, and a context key already true by then is noted without ticking the step
// (microsoft/vscode src/vs/workbench/contrib/welcomeGettingStarted/browser/gettingStartedService.ts,
// registerDoneListeners), so an answer also marks the step complete by id. The real host shows the tick (UI step
// "the walkthrough ticks Send a first prompt after an answer").
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_PROMPT_STEP, tickFirstPrompt } from '../../../src/host/chat/walkthrough.ts';
import { fake } from '../vscodeShim.ts';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  publisher: string;
  contributes: { walkthroughs: { id: string; steps: { id: string; completionEvents: string[] }[] }[] };
};
const nls = JSON.parse(readFileSync('package.nls.json', 'utf8')) as Record<string, string>;

describe('walkthrough', () => {
  afterEach(() => fake.state.commands.delete('welcome.markStepComplete'));

  it('marks the step that waits for a first prompt complete by the id VS Code gives it', async () => {
    const marked: unknown[] = [];
    fake.state.commands.set('welcome.markStepComplete', (id) => marked.push(id));
    tickFirstPrompt();
    await new Promise((resolve) => setImmediate(resolve));
    const walkthrough = manifest.contributes.walkthroughs[0]!;
    const step = walkthrough.steps.find((s) => s.completionEvents.includes('onContext:keyward.promptSent'))!;
    // VS Code's step id: `${extension id}#${walkthrough id}#${step id}`.
    expect(marked).toEqual([`${manifest.publisher}.${manifest.name}#${walkthrough.id}#${step.id}`]);
    expect(FIRST_PROMPT_STEP).toBe(marked[0]);
  });

  // Step descriptions render ``code`` (double backticks), **bold** and __italic__ only: VS Code's
  // contributes.walkthroughs schema (gettingStartedExtensionPoint.ts). A single backtick shows as itself.
  it('writes code in step descriptions the way the Welcome page renders it, never as raw backticks', () => {
    const descriptions = Object.entries(nls).filter(([key]) => /^walkthrough\..*description$/.test(key));
    expect(descriptions.length).toBeGreaterThan(0);
    for (const [key, text] of descriptions) expect(text.replace(/``[^`]+``/g, ''), key).not.toContain('`');
  });
});
