// Issue 31 item 14: Alt+F2 did nothing inside the chat, as `focusedView` is not the chat while its webview's frame
// holds the focus. The webview says when it gains and loses the focus; the session keeps `keyward.chatFocus`, which
// the keybinding asks (package.json), true while either chat (side view or editor tab) has the focus.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../../src/host/chat/chatSession.ts';
import { CHAT_FOCUS_CONTEXT } from '../../../src/host/chat/chatFocusContext.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

const contexts: [string, unknown][] = [];
fake.state.commands.set('setContext', (key: unknown, value: unknown) => void contexts.push([String(key), value]));
afterEach(() => void (contexts.length = 0));

function session() {
  const log = new Log();
  const configuration = new Configuration(log);
  const chat = new ChatSession({} as never, { onDidChange: () => ({ dispose() {} }) } as never, configuration, log, {
    extensionUri: fileUri('/ext') as never,
    store: {} as never,
    lastEditor: { current: undefined } as never,
    clearHistory: async () => undefined,
    exportHistory: async () => undefined,
  });
  return {
    chat,
    dispose() {
      chat.dispose();
      configuration.dispose();
      log.dispose();
    },
  };
}

describe("the chat's focus context key", () => {
  it('is true while the side view or the editor tab holds the focus, and false once neither does', async () => {
    const { chat, dispose } = session();
    const view = {} as never;
    const tab = {} as never;
    try {
      chat.handleMessage({ type: 'focus/changed', focused: true }, view);
      await expect.poll(() => contexts).toEqual([[CHAT_FOCUS_CONTEXT, true]]);
      // The focus moves from the view to the tab: still in a chat, nothing to change.
      chat.handleMessage({ type: 'focus/changed', focused: true }, tab);
      chat.handleMessage({ type: 'focus/changed', focused: false }, view);
      chat.handleMessage({ type: 'focus/changed', focused: false }, tab);
      await expect
        .poll(() => contexts)
        .toEqual([
          [CHAT_FOCUS_CONTEXT, true],
          [CHAT_FOCUS_CONTEXT, false],
        ]);
    } finally {
      dispose();
    }
  });

  it('is what the Alt+F2 keybinding asks, beside the view focus it asked before', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      contributes: { keybindings: { command: string; key: string; when?: string }[] };
    };
    const binding = manifest.contributes.keybindings.find((k) => k.command === 'keyward.showLastAnswer');
    expect(binding?.key).toBe('alt+f2');
    expect(binding?.when).toBe(`focusedView == keyward.chat || ${CHAT_FOCUS_CONTEXT}`);
  });
});
