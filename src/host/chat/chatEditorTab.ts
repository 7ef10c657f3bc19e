// The prompt panel as an editor tab: created on demand, restored after a
// reload, one at a time. What it shows and does is the chat session's; the
// panel is one surface for it.
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/protocol.ts';
import type { ChatSessionView } from './chatSessionOnDemand.ts';
import type { LastEditor } from './lastEditor.ts';
import type { ChatConversations } from './chatConversations.ts';
import type { ConversationCommands } from './conversationCommands.ts';
import type { ConversationStore } from './conversationStore.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { promptWebviewOptions } from './webviewOptions.ts';

export const PANEL_VIEW_TYPE = 'keyward.prompt';
const t = vscode.l10n.t;

/** The conversations the panel and the side-bar view share, and where Ask About Selection shows the chat. */
export interface ChatPlaces {
  conversations: ChatConversations;
  /** Built on first use (dist/commands.js). */
  commands: () => Promise<ConversationCommands>;
  /** Reveals the chat view beside the code; the editor panel is used instead while it is open. */
  showView: () => Promise<void>;
}

export class ChatEditorTab extends Disposable implements vscode.WebviewPanelSerializer {
  private panel: vscode.WebviewPanel | undefined;
  private readonly context: vscode.ExtensionContext;
  private readonly places: ChatPlaces;
  /** Borrowed: the session is built and disposed by whoever builds this tab (extension.ts), which hands it to the side view too. */
  readonly session: ChatSessionView;
  private readonly store: ConversationStore;
  private readonly lastEditor: LastEditor;

  constructor(
    context: vscode.ExtensionContext,
    session: ChatSessionView,
    store: ConversationStore,
    lastEditor: LastEditor,
    places: ChatPlaces,
  ) {
    super();
    this.context = context;
    this.session = session;
    this.store = store;
    this.lastEditor = lastEditor;
    this.places = places;
    this._register(
      places.conversations.onDidChange(({ activeChanged }) => {
        if (activeChanged) this.session.showConversation();
        this.showTitle();
      }),
    );
    this._register(vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, this));
    // Closing the tab is the tab's; what it showed stays with the session.
    this._register(toDisposable(() => this.panel?.dispose()));
  }

  open(): vscode.WebviewPanel {
    // Opening the chat puts the cursor in its prompt box (sent now, delivered once the webview is ready).
    this.session.focusPrompt();
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      this.title(),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      promptWebviewOptions(this.context.extensionUri),
    );
    this.attach(panel);
    return panel;
  }

  /** VS Code restores the panel after a reload. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = promptWebviewOptions(this.context.extensionUri);
    this.attach(panel);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    panel.title = this.title();
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'icon.svg');
    const connection = this.session.connect(panel.webview);
    const closed = panel.onDidDispose(() => {
      // Closing the panel stops what it was waiting for.
      connection.dispose();
      closed.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
  }

  /** The tab names the conversation shown, as the side-bar view's header does. */
  private title(): string {
    return t('Keyward: {0}', this.places.conversations.activeTitle());
  }

  private showTitle(): void {
    if (this.panel) this.panel.title = this.title();
  }

  /** The editor tab's title while the panel is open. */
  get tabTitle(): string | undefined {
    return this.panel?.title;
  }

  /** Validates and handles a message as if the webview had sent it. */
  handleMessage(raw: unknown): void {
    this.session.handleMessage(raw);
  }

  /**
   * Adds the selection of the active editor to the panel, as a removable chip.
   * With nothing selected it asks: the whole file (a .env, say) is attached only
   * when the person chooses it, or when `scope` says so.
   */
  async askAboutSelection(
    editor = vscode.window.activeTextEditor,
    scope: 'ask' | 'wholeFile' = 'ask',
  ): Promise<Attachment | undefined> {
    if (!editor) {
      await this.show();
      return undefined;
    }
    // Loaded with the chat session (dist/chatSession.js), which this opens anyway.
    const { attachSelection } = await import('./chatSession.ts');
    const attachment = await attachSelection(editor, scope, this.store);
    await this.show();
    if (!attachment) return undefined;
    this.lastEditor.current = editor;
    this.session.post({ type: 'attachment/add', attachment });
    return attachment;
  }

  /** The editor panel while it is open, else the side-bar view: either way the code stays in sight. */
  private async show(): Promise<void> {
    if (this.panel) this.open();
    else await this.places.showView();
  }

  /** Sets the conversation shown aside for a fresh one, with Undo. */
  async clearHistory(): Promise<void> {
    return (await this.places.commands()).clear();
  }

  /** Writes the conversation as Markdown; `target` skips the save dialog (tests, scripts). */
  async exportHistory(target?: unknown): Promise<vscode.Uri | undefined> {
    return (await this.places.commands()).export(target);
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }
}
