// What a person does with conversations outside the chat's own box: the list
// (search by text, switch, rename, delete), New, Clear with Undo, and Export
// to a place they choose. The chat view's title bar and the palette call these. Built from dist/commands.js on
// the first of them (src/host/activation/chatParts.ts): activation registers the commands without parsing them.
import * as vscode from 'vscode';
import { conversationTitle } from '../../core/chat/conversations.ts';
import { type KeyStore, scannerKeys } from '../../core/keys/keyStore.ts';
import type { ChatConversations } from './chatConversations.ts';
import { idArg, textArg, uriArg } from './commandArgs.ts';
import { type ConversationItem, showConversationList } from './conversationList.ts';
import { exportConversation } from './conversationExport.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

/**
 * Offers Clear's Undo inside the chat ("Conversation cleared — Undo"); false when no chat is open to show it, and
 * the Undo then comes as a notification instead.
 */
export type OfferClearUndo = (title: string, undo: () => Promise<void>) => boolean;

export class ConversationCommands {
  readonly conversations: ChatConversations;
  private readonly keys: KeyStore;
  private readonly log: Log;
  private readonly offerUndo: OfferClearUndo;
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

  /** The list, searched by the text of every turn (conversationList.ts). */
  show(): Promise<void> {
    return showConversationList(this);
  }

  /** What Enter on an item of the list does: switch to it, or start one from "New Conversation" (id ''). */
  choose(id: string): Promise<void> {
    return id ? this.conversations.switchTo(id) : this.conversations.create();
  }

  /** From the palette or the "…" menu (whose argument is its context, not an id): the active conversation. */
  async rename(idArgument?: unknown, titleArgument?: unknown): Promise<void> {
    const id = this.knownId(idArgument);
    const title = textArg(titleArgument);
    // Also the new, empty conversation shown, which the list leaves out: a person may name it before writing.
    const current = this.conversations.describe(id);
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
    const current = this.conversations.describe(id);
    if (!current) return false;
    const yes = t('Delete');
    const ok =
      confirmed ||
      (await vscode.window.showWarningMessage(
        t('Delete the conversation "{0}"?', current.title),
        { modal: true, detail: t('Its {0} messages cannot be brought back.', String(current.turnCount)) },
        yes,
      )) === yes;
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
  async export(target?: unknown): Promise<vscode.Uri | undefined> {
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
