// What a person does with conversations outside the chat's own box: the list
// (search by text, switch, rename, delete), New, Clear with Undo, and Export
// to a place they choose. The chat view's title bar and the palette call these.
import * as vscode from 'vscode';
import { conversationTitle } from '../../core/chat/conversations.ts';
import { type KeyStore, scannerKeys } from '../../core/keys/keyStore.ts';
import type { ChatConversations } from './chatConversations.ts';
import { exportConversation } from './conversationExport.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

interface ConversationItem extends vscode.QuickPickItem {
  /** Empty on the "New Conversation" item. */
  id: string;
}

export class ConversationCommands {
  private readonly conversations: ChatConversations;
  private readonly keys: KeyStore;
  private readonly log: Log;
  /** For tests: the answer a modal question gets instead of showing it. */
  confirmAnswer: boolean | undefined;
  /** For tests: the list while it is shown, whose items they read. */
  shownList: vscode.QuickPick<ConversationItem> | undefined;

  constructor(conversations: ChatConversations, keys: KeyStore, log: Log) {
    this.conversations = conversations;
    this.keys = keys;
    this.log = log;
  }

  newConversation(): Promise<void> {
    return this.conversations.create();
  }

  /** The list, searched by the text of every turn as the person types; Enter switches; the first item starts one. */
  async show(): Promise<void> {
    const rename: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: t('Rename') };
    const remove: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: t('Delete') };
    const pick = vscode.window.createQuickPick<ConversationItem>();
    pick.title = t('Keyward Conversations');
    pick.placeholder = t('Search the conversations by text');
    pick.matchOnDescription = false;
    pick.matchOnDetail = false;
    const when = (ms: number) => new Date(ms).toLocaleString();
    const fresh: ConversationItem = { id: '', label: `$(add) ${t('New Conversation')}`, alwaysShow: true };
    const fill = () => {
      // The search runs over every turn, not only the titles: the items come pre-filtered and always show.
      const found = this.conversations.list(pick.value).map((c) => ({
        id: c.id,
        label: `${c.active ? '$(comment-discussion) ' : ''}${c.title}`,
        description: `${t('{0} messages', String(c.turnCount))} · ${when(c.updatedAt)}`,
        ...(c.excerpt ? { detail: c.excerpt } : {}),
        alwaysShow: true,
        buttons: [rename, remove],
      }));
      pick.items = [fresh, ...found];
      // While searching, the first match is what Enter takes, not "New Conversation".
      if (pick.value && found[0]) pick.activeItems = [found[0]];
    };
    fill();
    const done = new Promise<void>((resolve) => {
      pick.onDidChangeValue(fill);
      pick.onDidTriggerItemButton(async ({ button, item }) => {
        if (button === rename) await this.rename(item.id);
        else await this.remove(item.id);
        fill();
      });
      pick.onDidAccept(async () => {
        const chosen = pick.selectedItems[0];
        pick.hide();
        if (chosen) await this.choose(chosen.id);
      });
      pick.onDidHide(() => {
        if (this.shownList === pick) this.shownList = undefined;
        pick.dispose();
        resolve();
      });
    });
    pick.show();
    this.shownList = pick;
    return done;
  }

  /** What Enter on an item of the list does: switch to it, or start one from "New Conversation" (id ''). */
  choose(id: string): Promise<void> {
    return id ? this.conversations.switchTo(id) : this.conversations.create();
  }

  async rename(id = this.conversations.activeId, title?: string): Promise<void> {
    const current = this.conversations.list().find((c) => c.id === id);
    if (!current) return;
    const next =
      title ??
      (await vscode.window.showInputBox({
        title: t('Rename Conversation'),
        value: current.title,
        prompt: t('A name for this conversation'),
      }));
    if (next === undefined || !next.trim()) return;
    await this.conversations.rename(id, next);
  }

  async remove(id = this.conversations.activeId, confirmed = false): Promise<boolean> {
    const current = this.conversations.list().find((c) => c.id === id);
    if (!current) return false;
    const yes = t('Delete');
    const ok =
      confirmed ||
      (this.confirmAnswer ??
        (await vscode.window.showWarningMessage(
          t('Delete the conversation "{0}"?', current.title),
          { modal: true, detail: t('Its {0} messages cannot be brought back.', String(current.turnCount)) },
          yes,
        )) === yes);
    if (!ok) return false;
    await this.conversations.remove(id);
    return true;
  }

  /** Empties the conversation at once and offers Undo, instead of asking first. */
  async clear(): Promise<void> {
    const undo = await this.conversations.clear();
    if (!undo) return;
    const again = t('Undo');
    void vscode.window
      .showInformationMessage(t('Conversation cleared.'), again)
      .then((answer) => (answer === again ? undo() : undefined));
  }

  /** Exports the conversation shown now; `target` skips the dialog (tests, scripts). */
  export(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const conversation = this.conversations.activeConversation();
    return exportConversation(
      conversation.turns,
      conversationTitle(conversation, t('New conversation')),
      () => scannerKeys(this.keys),
      this.log,
      target,
    );
  }
}
