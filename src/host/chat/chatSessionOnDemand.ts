// The chat session, loaded on first use: the editor tab, the side view and the commands hold this stand-in from
// activation, and the session itself (its webview connection, Apply, attachments, the panel's HTML and strings) is
// built from dist/chatSession.js (esbuild.js, ON_DEMAND) when a chat first opens or is sent a message. Activation
// then neither holds nor parses the chat stack (bench/bundle.ts). Calls made while it loads run, in order, once
// it has loaded.
import * as vscode from 'vscode';
import type { ChatSession } from './chatSession.ts';
import type { CodeProposals, ProposalOutcome } from './codeApply.ts';
import type { HostMessage } from '../../shared/protocol.ts';
import type { Log } from '../log.ts';
import { redactSecrets } from '../../core/redact.ts';
import { Disposable } from '../../shared/dispose.ts';

/** What the editor tab and the side view use of the session. */
export type ChatSessionView = Pick<
  ChatSession,
  'connect' | 'focusPrompt' | 'showConversation' | 'post' | 'handleMessage' | 'proposals'
>;

export class ChatSessionOnDemand extends Disposable implements ChatSessionView {
  private session: ChatSession | undefined;
  private loading: Promise<ChatSession> | undefined;
  private readonly build: () => Promise<ChatSession>;
  private readonly log: Log;

  constructor(build: () => Promise<ChatSession>, log: Log) {
    super();
    this.build = build;
    this.log = log;
  }

  /** Loads and builds the session once; a failure is said in the log and to the person, then given to the caller. */
  private load(): Promise<ChatSession> {
    this.loading ??= this.build().then(
      (session) => {
        if (this.isDisposed) {
          session.dispose();
          throw new Error('Keyward was deactivated while the chat loaded.');
        }
        this.session = this._register(session);
        return session;
      },
      (error: unknown) => {
        const message = redactSecrets(error instanceof Error ? error.message : String(error));
        this.log.error(`Could not load the chat: ${message}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Keyward could not load the chat: {0}', message));
        throw error;
      },
    );
    return this.loading;
  }

  /** Runs `use` now when the session is loaded, else once it is (in the order of the calls). */
  private use(use: (session: ChatSession) => void): void {
    if (this.session) use(this.session);
    else this.load().then(use, () => undefined);
  }

  connect(webview: vscode.Webview): vscode.Disposable & { whenReady: Promise<void> } {
    if (this.session) return this.session.connect(webview);
    let connection: vscode.Disposable | undefined;
    let closed = false;
    const whenReady = this.load().then((session) => {
      if (closed) return;
      const connected = session.connect(webview);
      connection = connected;
      return connected.whenReady;
    });
    // The load's failure is already said; a caller that does not wait for the webview must not see it again.
    whenReady.catch(() => undefined);
    const disposable = new vscode.Disposable(() => {
      closed = true;
      connection?.dispose();
    });
    return Object.assign(disposable, { whenReady });
  }

  focusPrompt(): void {
    this.use((session) => session.focusPrompt());
  }

  /** Before the session loads no chat shows a conversation: the one that opens is sent the state it then finds. */
  showConversation(): void {
    this.session?.showConversation();
  }

  post(message: HostMessage): void {
    this.use((session) => session.post(message));
  }

  handleMessage(raw: unknown): void {
    this.use((session) => session.handleMessage(raw));
  }

  /** False before the session loads: no chat is open to show the Undo. */
  offerClearUndo(title: string, undo: () => Promise<void>): boolean {
    return this.session?.offerClearUndo(title, undo) ?? false;
  }

  /** Apply's changes, which only a loaded session can have made: Keep and Undo find none before. */
  keepProposal(arg?: unknown): Promise<ProposalOutcome> {
    return this.session ? this.session.proposals.keep(arg) : Promise.resolve('unknown');
  }

  undoProposal(arg?: unknown): Promise<ProposalOutcome> {
    return this.session ? this.session.proposals.undo(arg) : Promise.resolve('unknown');
  }

  /** For the tests, which answer Apply's questions once a chat is open. */
  get proposals(): CodeProposals {
    if (!this.session) throw new Error('The chat session has not loaded yet: open a chat first.');
    return this.session.proposals;
  }
}
