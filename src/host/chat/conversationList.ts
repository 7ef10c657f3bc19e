// The conversation list (Keyward: Show Conversations): searched by the text of every turn as the person types, a
// row's buttons rename or delete it, and a deleted row is undone from the list itself. ConversationCommands shows
// it; it loads with the other on-demand commands (onDemandCommands.ts, dist/commands.js) on the first.
import * as vscode from 'vscode';
import { relativeTime } from '../../core/chat/relativeTime.ts';
import type { ChatConversations } from './chatConversations.ts';

const t = vscode.l10n.t;
export interface ConversationItem extends vscode.QuickPickItem {
  id: string;
}

/** What the list reads and runs: ConversationCommands, whose shown list the tests read. */
export interface ConversationListHost {
  readonly conversations: ChatConversations;
  rename(id: string): Promise<void>;
  choose(id: string): Promise<void>;
  shownList: vscode.QuickPick<ConversationItem> | undefined;
}

/**
 * The list, searched by the text of every turn as the person types; Enter switches. Its rows are conversations
 * only, so the count the list shows ("3 results") counts conversations: New Conversation and Undo Delete are
 * buttons in its title bar, as the chat history list of VS Code keeps its actions out of the rows.
 */
export async function showConversationList(commands: ConversationListHost): Promise<void> {
  const rename: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: t('Rename') };
  const remove: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: t('Delete') };
  const create: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('add'), tooltip: t('New Conversation') };
  const pick = vscode.window.createQuickPick<ConversationItem>();
  pick.title = t('Keyward Conversations');
  pick.placeholder = t('Search the conversations by text');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  const now = Date.now();
  const when = (ms: number) => relativeTime(ms, now, vscode.env.language);
  /** The last row deleted from this list, with its way back (a title-bar button while the list is open). */
  let deleted: { title: string; undo: () => Promise<void>; button: vscode.QuickInputButton } | undefined;
  const fill = () => {
    // The search runs over every turn, not only the titles: the items come pre-filtered and always show.
    const found = commands.conversations.list(pick.value).map((c) => ({
      id: c.id,
      label: `${c.active ? '$(comment-discussion) ' : ''}${c.title}`,
      description: `${t('{0} messages', String(c.turnCount))} · ${when(c.updatedAt)}`,
      ...(c.excerpt ? { detail: c.excerpt } : {}),
      alwaysShow: true,
      buttons: [rename, remove],
    }));
    pick.items = found;
    pick.buttons = deleted ? [deleted.button, create] : [create];
  };
  fill();
  let renaming = false;
  const done = new Promise<void>((resolve) => {
    pick.onDidChangeValue(fill);
    pick.onDidTriggerItemButton(async ({ button, item }) => {
      if (button === rename) {
        // The input box takes the quick input's place and hides the list; it comes back after it.
        renaming = true;
        try {
          await commands.rename(item.id);
        } finally {
          renaming = false;
        }
        pick.show();
      } else {
        // No modal question here: a dialog would close the list. The row's delete is undone from the list itself.
        const title = item.label.replace(/^\$\([^)]*\) /, '');
        const undo = await commands.conversations.remove(item.id);
        const button = { iconPath: new vscode.ThemeIcon('discard'), tooltip: t('Undo Delete "{0}"', title) };
        deleted = { title, undo, button };
      }
      fill();
    });
    pick.onDidTriggerButton(async (button) => {
      if (button === create) {
        pick.hide();
        await commands.choose('');
        return;
      }
      const undo = deleted?.undo;
      deleted = undefined;
      await undo?.();
      fill();
    });
    pick.onDidAccept(async () => {
      const chosen = pick.selectedItems[0];
      pick.hide();
      if (chosen) await commands.choose(chosen.id);
    });
    pick.onDidHide(() => {
      if (renaming) return;
      if (commands.shownList === pick) commands.shownList = undefined;
      pick.dispose();
      resolve();
    });
  });
  pick.show();
  commands.shownList = pick;
  return done;
}
