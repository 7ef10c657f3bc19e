// The chat: one set of conversations and one session (built when a chat first opens), shown in the editor tab and
// the side view, with the conversation list's and Apply's commands. activate() owns the lifetimes.
import * as vscode from 'vscode';
import { ChatConversations } from '../chat/chatConversations.ts';
import { ChatEditorTab } from '../chat/chatEditorTab.ts';
import { ChatSessionOnDemand } from '../chat/chatSessionOnDemand.ts';
import { ChatView } from '../chat/chatView.ts';
import type { ConversationCommands } from '../chat/conversationCommands.ts';
import { ConversationStore } from '../chat/conversationStore.ts';
import { LastAnswerView } from '../chat/lastAnswerView.ts';
import { LastEditor } from '../chat/lastEditor.ts';
import { ModelSettingsStore } from '../chat/modelSettingsStore.ts';
import type { PanelProbe } from '../chat/panelProbe.ts';
import { CommandId } from '../commandIds.ts';
import { command } from './command.ts';
import type { KeywardCore } from './keywardCore.ts';
import { onDemand } from './onDemand.ts';

export interface ChatParts {
  conversations: ChatConversations;
  /** The conversation list's commands, built on the first one run (dist/commands.js). */
  conversationCommands: () => Promise<ConversationCommands>;
  panel: ChatEditorTab;
  chatView: ChatView;
  modelSettings: ModelSettingsStore;
}

export function buildChat(
  context: vscode.ExtensionContext,
  core: KeywardCore,
  probe: PanelProbe | undefined,
): ChatParts {
  const { keys, log } = core;
  const modelSettings = new ModelSettingsStore(core.globalState);
  // One set of conversations for the side-bar view and the editor panel, stored through the filter for disk.
  const conversations = new ChatConversations(core.workspaceState());
  // Clear's Undo is shown in the chat when one is open (the session is built below; it is asked only after a Clear).
  let commandsLoading: Promise<ConversationCommands> | undefined;
  const conversationCommands = (): Promise<ConversationCommands> =>
    (commandsLoading ??= onDemand().then(
      ({ ConversationCommands }) =>
        new ConversationCommands(conversations, keys, log, (title, undo): boolean =>
          session.offerClearUndo(title, undo),
        ),
    ));
  const lastEditor = new LastEditor();
  const chatStore = new ConversationStore(core.workspaceState(), conversations);
  // Built from dist/chatSession.js when a chat first opens (host/chat/chatSessionOnDemand.ts).
  const session: ChatSessionOnDemand = new ChatSessionOnDemand(async () => {
    const { ChatSession } = await import('../chat/chatSession.ts');
    return new ChatSession(core.monitor, keys, core.configuration, log, {
      extensionUri: context.extensionUri,
      store: chatStore,
      lastEditor,
      ...probe?.ports,
      modelSettings,
      editModelSettings: async (service, model, support) =>
        (await onDemand()).editModelSettings(modelSettings, service, model, support),
      spend: core.spend,
      clearHistory: async () => (await conversationCommands()).clear(),
      exportHistory: async () => (await conversationCommands()).export(),
    });
  }, log);
  const panel: ChatEditorTab = new ChatEditorTab(context, session, chatStore, lastEditor, {
    conversations,
    commands: conversationCommands,
    showView: (): Promise<void> => chatView.show(),
  });
  const chatView: ChatView = new ChatView(context.extensionUri, session, conversations);
  const lastAnswerView = new LastAnswerView(() => conversations.turns());
  context.subscriptions.push(conversations, panel, chatView, session, lastEditor, lastAnswerView, modelSettings);
  context.subscriptions.push(...chatCommands(panel, chatView, session, conversationCommands, lastAnswerView));
  return { conversations, conversationCommands, panel, chatView, modelSettings };
}

function chatCommands(
  panel: ChatEditorTab,
  chatView: ChatView,
  session: ChatSessionOnDemand,
  conversationCommands: () => Promise<ConversationCommands>,
  lastAnswerView: LastAnswerView,
): vscode.Disposable[] {
  return [
    command(CommandId.openPanel, () => void panel.open()),
    command(CommandId.openChat, () => chatView.show()),
    command(CommandId.showLastAnswer, () => lastAnswerView.show()),
    command(CommandId.newConversation, async () => (await conversationCommands()).newConversation()),
    command(CommandId.showConversations, async () => (await conversationCommands()).show()),
    // Each place passes its own argument (a menu its context, a row an id): the commands read what they can trust.
    command(CommandId.renameConversation, async (id?: unknown, title?: unknown) =>
      (await conversationCommands()).rename(id, title),
    ),
    command(CommandId.deleteConversation, async (id?: unknown, confirmed?: unknown) =>
      (await conversationCommands()).remove(id, confirmed === true),
    ),
    command(CommandId.askAboutSelection, () => panel.askAboutSelection()),
    command(CommandId.clearHistory, () => panel.clearHistory()),
    command(CommandId.exportHistory, (target?: unknown) => panel.exportHistory(target)),
    // From the CodeLens (the Apply's id), the editor title (the file) or the palette (nothing).
    command(CommandId.acceptProposal, (arg?: unknown) => session.keepProposal(arg)),
    command(CommandId.discardProposal, (arg?: unknown) => session.undoProposal(arg)),
  ];
}
