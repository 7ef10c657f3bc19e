// The chat in a side-bar view (the Keyward view container; people may drag it
// to the secondary side bar): the same webview bundle and chat session as the
// editor panel, so both show one conversation.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import type { ChatConversations } from './chatConversations.ts';
import type { ChatSessionView } from './chatSessionOnDemand.ts';
import { promptWebviewOptions } from './webviewOptions.ts';

export const CHAT_VIEW_ID = 'keyward.chat';
const READY_WAIT_MS = 15_000;

export class ChatView extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private connection: (vscode.Disposable & { whenReady: Promise<void> }) | undefined;
  private readonly extensionUri: vscode.Uri;
  private readonly session: ChatSessionView;
  private readonly conversations: ChatConversations;

  constructor(extensionUri: vscode.Uri, session: ChatSessionView, conversations: ChatConversations) {
    super();
    this.extensionUri = extensionUri;
    this.session = session;
    this.conversations = conversations;
    // The view's header names the conversation shown, so a switch, a rename or a new one is seen at a glance.
    this._register(conversations.onDidChange(() => this.showTitle()));
    // Kept alive while hidden: a streaming answer goes on when the person looks at another view.
    this._register(
      vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this, {
        webviewOptions: { retainContextWhenHidden: true },
      }),
    );
    // The connection of the view shown now: replaced when VS Code resolves the view again.
    this._register(toDisposable(() => this.connection?.dispose()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.connection?.dispose();
    this.view = view;
    view.webview.options = promptWebviewOptions(this.extensionUri);
    this.showTitle();
    const connection = this.session.connect(view.webview);
    this.connection = connection;
    view.onDidDispose(() => {
      connection.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.connection = undefined;
      }
    });
  }

  /** Reveals the view and puts the cursor in its prompt box. */
  async show(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    // A view shown for the first time is still loading, and the focus given to it then is lost: give it again.
    // Not forever: a view hidden again before it loaded never says it is ready.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.connection?.whenReady,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, READY_WAIT_MS))),
    ]);
    clearTimeout(timer);
    this.view?.show(false);
    this.session.focusPrompt();
  }

  private showTitle(): void {
    // The title, not the description: a container with this view alone shows "Keyward: <title>", and drops descriptions.
    if (this.view) this.view.title = this.conversations.activeTitle();
  }

  /** What the view's header says; undefined before the view was first shown. */
  get title(): string | undefined {
    return this.view?.title;
  }

  get isResolved(): boolean {
    return this.view !== undefined;
  }
}
