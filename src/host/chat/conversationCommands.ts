// What a person does with conversations outside the chat's own box: the list
// (search by text, switch, rename, delete), New, Clear with Undo, and Export
// to a place they choose. The chat view's title bar and the palette call these.
import * as vscode from 'vscode';
import { conversationTitle } from '../../core/chat/conversations.ts';
import { type KeyStore, scannerKeys } from '../../core/keys/keyStore.ts';
import { relativeTime } from '../../core/chat/relativeTime.ts';
import type { ChatConversations } from './chatConversations.ts';
import { idArg, textArg, uriArg } from './commandArgs.ts';
import { exportConversation } from './conversationExport.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;
/** The id of the list's "Undo Delete" row; conversation ids are hex, so it cannot clash. */
const UNDO_DELETE = 'undo-delete';

/**
 * Offers Clear's Undo inside the chat ("Conversation cleared — Undo"); false when no chat is open to show it, and
 * the Undo then comes as a notification instead.
 */
export type OfferClearUndo = (title: string, undo: () => Promise<void>) => boolean;

interface ConversationItem extends vscode.QuickPickItem {
  /** Empty on the "New Conversation" item. */
  id: string;
}

export class ConversationCommands {
  private readonly conversations: ChatConversations;
  private readonly keys: KeyStore;
  private readonly log: Log;
  private readonly offerUndo: OfferClearUndo;
  /** For tests: the answer a modal question gets instead of showing it. */
  confirmAnswer: boolean | undefined;
  /** For tests: the list while it is shown, whose items they read. */
  shownList: vscode.QuickPick<ConversationItem> | undefined;

  constructor(conversations: ChatConversations, keys: KeyStore, log: Log, offerUndo: OfferClearUndo = () => false) {
    this.conversations = conversations;
    this.keys = keys;
    this.log = log;
    this.offerUndo = offerUndo;
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
    const now = Date.now();
    const when = (ms: number) => relativeTime(ms, now, vscode.env.language);
    const fresh: ConversationItem = { id: '', label: `$(add) ${t('New Conversation')}`, alwaysShow: true };
    /** The last row deleted from this list, with its way back (an item at the top while the list is open). */
    let deleted: { title: string; undo: () => Promise<void> } | undefined;
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
            await this.rename(item.id);
          } finally {
            renaming = false;
          }
          pick.show();
        } else {
          // No modal question here: a dialog would close the list. The row's delete is undone from the list itself.
          const title = item.label.replace(/^\$\([^)]*\) /, '');
          const undo = await this.conversations.remove(item.id);
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
        if (chosen) await this.choose(chosen.id);
      });
      pick.onDidHide(() => {
        if (renaming) return;
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

  /** From the palette or the "…" menu (whose argument is its context, not an id): the active conversation. */
  async rename(idArgument?: unknown, titleArgument?: unknown): Promise<void> {
    const id = this.knownId(idArgument);
    const title = textArg(titleArgument);
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

  async remove(idArgument?: unknown, confirmed = false): Promise<boolean> {
    const id = this.knownId(idArgument);
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

  private knownId(arg: unknown): string {
    return (
      idArg(
        arg,
        this.conversations.list().map((c) => c.id),
      ) ?? this.conversations.activeId
    );
  }

  /**
   * Sets the conversation aside for a fresh one (it stays in the list) and offers Undo, instead of asking first:
   * in the chat itself when one is open (a notification can be missed or hidden), else as a notification.
   */
  async clear(): Promise<void> {
    const title = conversationTitle(this.conversations.activeConversation(), t('New conversation'));
    const undo = await this.conversations.clear();
    if (!undo) return;
    if (this.offerUndo(title, undo)) return;
    const again = t('Undo');
    void vscode.window
      .showInformationMessage(t('Conversation cleared.'), again)
      .then((answer) => (answer === again ? undo() : undefined));
  }

  /** Exports the conversation shown now; a Uri `target` skips the dialog (tests, scripts), a menu's context does not. */
  export(target?: unknown): Promise<vscode.Uri | undefined> {
    const conversation = this.conversations.activeConversation();
    return exportConversation(
      conversation.turns,
      conversationTitle(conversation, t('New conversation')),
      () => scannerKeys(this.keys),
      this.log,
      uriArg(target),
    );
  }
}
