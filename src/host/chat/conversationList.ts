// The conversation list (Keyward: Show Conversations): searched by the text of every turn as the person types, a
// row's buttons rename or delete it, and a deleted row is undone from the list itself. ConversationCommands shows
// it; it loads with the other on-demand commands (onDemandCommands.ts, dist/commands.js) on the first.
import * as vscode from 'vscode';
import { relativeTime } from '../../core/chat/relativeTime.ts';
import type { ChatConversations } from './chatConversations.ts';

const t = vscode.l10n.t;
/** The id of the list's "Undo Delete" row; conversation ids are hex, so it cannot clash. */
const UNDO_DELETE = 'undo-delete';

export interface ConversationItem extends vscode.QuickPickItem {
  /** Empty on the "New Conversation" item. */
  id: string;
}

/** What the list reads and runs: ConversationCommands, whose shown list the tests read. */
export interface ConversationListHost {
  readonly conversations: ChatConversations;
  rename(id: string): Promise<void>;
  choose(id: string): Promise<void>;
  shownList: vscode.QuickPick<ConversationItem> | undefined;
}

/** The list, searched by the text of every turn as the person types; Enter switches; the first item starts one. */
export async function showConversationList(commands: ConversationListHost): Promise<void> {
  const rename: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: t('Rename') };
  const remove: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: t('Delete') };
  const pick = vscode.window.createQuickPick<ConversationItem>();
  pick.title = t('Keyward Conversations');
  pick.placeholder = t('Search the conversations by text');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  const now = Date.now();
  const when = (ms: number) => relativeTime(ms, now, vscode.env.language);
  const fresh: ConversationItem = { id: '', label: `$(add) ${t('New Conversation')}`, alwaysShow: true };
  /** The last row deleted from this list, with its way back (an item at the top while the list is open). */
  let deleted: { title: string; undo: () => Promise<void> } | undefined;
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
    const undoItem: ConversationItem[] = deleted
      ? [{ id: UNDO_DELETE, label: `$(discard) ${t('Undo Delete "{0}"', deleted.title)}`, alwaysShow: true }]
      : [];
    pick.items = [...undoItem, fresh, ...found];
    // While searching, the first match is what Enter takes, not "New Conversation".
    if (pick.value && found[0]) pick.activeItems = [found[0]];
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
        deleted = { title, undo };
      }
      fill();
    });
    pick.onDidAccept(async () => {
      const chosen = pick.selectedItems[0];
      if (chosen?.id === UNDO_DELETE) {
        const undo = deleted?.undo;
        deleted = undefined;
        await undo?.();
        fill();
        return;
      }
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
