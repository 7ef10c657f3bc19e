// Issue 31 item 15: each New Conversation left an empty "New conversation · 0 messages" row in the list, and the
// list's result count counted its action rows. Over the fake vscode's QuickPick, as the person meets the list.
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../../src/shared/protocol.ts';
import { ChatConversations } from '../../../src/host/chat/chatConversations.ts';
import { type ConversationItem, showConversationList } from '../../../src/host/chat/conversationList.ts';
import { ConversationCommands } from '../../../src/host/chat/conversationCommands.ts';
import { Log } from '../../../src/host/log.ts';
import { FakeMemento } from '../fakeVscode.ts';
import type { FakeQuickPick } from '../fakeQuickPick.ts';
import { fake } from '../vscodeShim.ts';

const turn = (id: string, text: string): ChatTurn => ({
  id,
  role: 'user',
  text,
  service: 'router',
  model: 'm',
  status: 'done',
});

async function listUnderTest() {
  const conversations = new ChatConversations(new FakeMemento() as never);
  const chosen: string[] = [];
  const host = {
    conversations,
    rename: async () => undefined,
    async choose(id: string) {
      chosen.push(id);
      await (id ? conversations.switchTo(id) : conversations.create());
    },
    shownList: undefined,
  };
  for (const text of ['tide tables', 'bread', 'sse streams']) {
    await conversations.setTurns(conversations.activeId, [turn(text, text)]);
    // New Conversation, as the view's title bar runs it, twice: the second reuses the first.
    await conversations.create();
    await conversations.create();
  }
  const shown = showConversationList(host);
  const pick = fake.state.quickPick as unknown as FakeQuickPick<ConversationItem>;
  return { conversations, chosen, pick, shown };
}

describe('the conversation list', () => {
  it('lists conversations only: no empty row, no action row, so its count is the number of conversations', async () => {
    const { pick, shown } = await listUnderTest();
    expect(pick.items.map((item) => item.label)).toEqual(['sse streams', 'bread', 'tide tables']);
    expect(pick.items.some((item) => /\b0 messages/.test(item.description ?? ''))).toBe(false);
    expect(pick.buttons.map((b) => b.tooltip)).toEqual(['New Conversation']);
    pick.type('bread');
    expect(pick.items.map((item) => item.label)).toEqual(['bread']);
    pick.hide();
    await shown;
  });

  it('starts a conversation from its title bar, and undoes a row deleted there', async () => {
    const { conversations, chosen, pick, shown } = await listUnderTest();
    pick.pressOnRow(pick.items[1]!, 'Delete');
    await expect.poll(() => pick.items.map((item) => item.label)).toEqual(['sse streams', 'tide tables']);
    expect(pick.buttons.map((b) => b.tooltip)).toEqual(['Undo Delete "bread"', 'New Conversation']);
    pick.press(/^Undo Delete/);
    await expect.poll(() => pick.items.map((item) => item.label)).toEqual(['sse streams', 'bread', 'tide tables']);
    expect(pick.buttons.map((b) => b.tooltip)).toEqual(['New Conversation']);
    const before = conversations.activeId;
    pick.press(/^New Conversation$/);
    await shown;
    expect(chosen).toEqual(['']);
    // The empty one shown already was reused: still three conversations listed and none empty.
    expect(conversations.activeId).toBe(before);
    expect(conversations.list()).toHaveLength(3);
  });

  it('still renames the new, empty conversation shown, which it does not list', async () => {
    const conversations = new ChatConversations(new FakeMemento() as never);
    await conversations.setTurns(conversations.activeId, [turn('t', 'tides')]);
    await conversations.create();
    const log = new Log();
    try {
      const commands = new ConversationCommands(conversations, {} as never, log);
      await commands.rename(undefined, 'Named before a word');
      expect(conversations.activeTitle()).toBe('Named before a word');
      // Named, it is kept and listed though it holds no message yet.
      expect(conversations.list().map((c) => c.title)).toEqual(['Named before a word', 'tides']);
    } finally {
      log.dispose();
    }
  });
});
