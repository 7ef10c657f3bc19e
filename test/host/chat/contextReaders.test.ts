// The host's readers of the `#` references where the fake host can stand in for VS Code: #terminal reads the
// active terminal's selection through the terminal's own Copy (VS Code has no API for it) and puts the clipboard
// back as it was; nothing selected and no terminal are refused in words. The real readers run in the real host
// (test/e2e/ui/contextSteps.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { contextRefusalText, resolveContextRefs } from '../../../src/host/chat/contextReaders.ts';
import { fake } from '../vscodeShim.ts';

const window = fake.api.window as unknown as { activeTerminal: { name: string } | undefined };
const env = fake.api.env as unknown as {
  clipboard: { readText(): Promise<string>; writeText(t: string): Promise<void> };
};
const COPY = 'workbench.action.terminal.copySelection';

/** A clipboard holding `held`, and a terminal whose Copy puts `selected` there (or nothing, as with no selection). */
function terminalWith(selected: string | undefined, held = 'what the person copied before') {
  let clipboard = held;
  const writes: string[] = [];
  env.clipboard = {
    readText: async () => clipboard,
    writeText: async (text) => {
      writes.push(text);
      clipboard = text;
    },
  };
  window.activeTerminal = { name: 'bash' };
  fake.state.commands.set(COPY, () => {
    if (selected !== undefined) clipboard = selected;
  });
  return { clipboard: () => clipboard, writes };
}

afterEach(() => {
  fake.state.commands.delete(COPY);
  window.activeTerminal = undefined;
});

describe('#terminal', () => {
  it('is the terminal selection, as a piece named after the terminal; the clipboard is put back', async () => {
    const terminal = terminalWith('$ npm test\r\nFAIL src/a.test.ts');
    const resolved = await resolveContextRefs('Why does this fail? #terminal', undefined);
    expect(resolved.refused).toEqual([]);
    expect(resolved.prompt).toBe('Why does this fail?');
    expect(resolved.attachments).toMatchObject([
      { context: 'terminal', fileName: 'bash', languageId: 'text', text: '$ npm test\nFAIL src/a.test.ts' },
    ]);
    expect(terminal.clipboard()).toBe('what the person copied before');
  });

  it('with nothing selected the Copy leaves the marker, and the refusal says to select first', async () => {
    const terminal = terminalWith(undefined);
    const resolved = await resolveContextRefs('#terminal', undefined);
    expect(resolved.attachments).toEqual([]);
    expect(resolved.refused.map(contextRefusalText)).toEqual([
      '#terminal: nothing is selected in the terminal. Select the lines to send first.',
    ]);
    expect(terminal.clipboard()).toBe('what the person copied before');
  });

  it('with no terminal open, says so', async () => {
    const resolved = await resolveContextRefs('#terminal', undefined);
    expect(resolved.refused.map(contextRefusalText)).toEqual(['#terminal: no terminal is open.']);
  });

  it('the editor references without an editor are refused, each by name', async () => {
    const resolved = await resolveContextRefs('#file #selection #problems', undefined);
    expect(resolved.refused.map(contextRefusalText)).toEqual([
      '#file: open a file first.',
      '#selection: open a file first.',
      '#problems: open a file first.',
    ]);
  });

  it('says what is too big, with the size and the limit', () => {
    expect(contextRefusalText({ name: 'changes', why: 'tooLarge', chars: 312_000, limit: 200_000 })).toBe(
      '#changes is too big to send: 312,000 characters, and one reference may add 200,000 at most. Select a part of it instead.',
    );
  });
});
