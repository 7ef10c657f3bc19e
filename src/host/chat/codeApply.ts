// Apply: a code block from an answer proposed as a change to the file the
// person was last in, shown in VS Code's diff editor (the file on the left, the
// file with the change on the right, a read-only virtual document). Nothing is
// written until the person accepts it, from the notification or the diff
// editor's title bar; Discard closes the diff and leaves the file as it was.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import { type Proposal, proposeChange } from '../../core/chat/codeProposal.ts';
import { PROPOSAL_SCHEME, revealChange } from './codeInsert.ts';

export { PROPOSAL_SCHEME };
const PENDING_CONTEXT = 'keyward.proposalPending';
const t = vscode.l10n.t;

interface Pending {
  target: vscode.Uri;
  /** The document version the proposal was made from: a file changed since is not overwritten. */
  version: number;
  proposal: Proposal;
}

export type ProposalOutcome = 'accepted' | 'discarded' | 'stale' | 'unknown';

export class CodeProposals extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly pending = new Map<string, Pending>();
  /** Registered on the first Apply, not at activation: a proposal's text never changes once made. */
  private registration: vscode.Disposable | undefined;
  /** For tests: answers the notification instead of a person (undefined leaves it to the title-bar actions). */
  answer: ((proposal: vscode.Uri) => Promise<'accept' | 'discard' | undefined>) | undefined;

  /** `onError` hears what goes wrong after the diff is open, when nobody awaits the answer any more. */
  private readonly onError: (error: Error) => void;

  constructor(onError: (error: Error) => void = () => undefined) {
    super();
    this.onError = onError;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.pending.get(uri.toString())?.proposal.text ?? '';
  }

  /** Opens the diff of `editor`'s file with the code applied; resolves with the proposal's address. */
  async propose(editor: vscode.TextEditor | undefined, code: string): Promise<vscode.Uri | undefined> {
    if (!editor || editor.document.isClosed) {
      void vscode.window.showInformationMessage(t('Open the file to apply the code to, then choose Apply again.'));
      return undefined;
    }
    const { document, selection } = editor;
    const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const proposal = proposeChange(
      document.getText(),
      document.offsetAt(selection.start),
      document.offsetAt(selection.end),
      code,
      eol,
    );
    // The same path, so the right side gets the file's language; the query keeps proposals apart.
    const uri = vscode.Uri.from({
      scheme: PROPOSAL_SCHEME,
      path: document.uri.path,
      query: randomBytes(6).toString('hex'),
    });
    this.registration ??= this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this));
    this.pending.set(uri.toString(), { target: document.uri, version: document.version, proposal });
    await this.updateContext();
    const name = vscode.workspace.asRelativePath(document.uri);
    // In the file's own column: the chat stays in view beside it.
    await vscode.commands.executeCommand('vscode.diff', document.uri, uri, t('{0} ↔ proposed change', name), {
      preview: false,
      ...(editor.viewColumn ? { viewColumn: editor.viewColumn } : {}),
    });
    void this.ask(uri, name).catch((error: unknown) => this.onError(error as Error));
    return uri;
  }

  private async ask(uri: vscode.Uri, name: string): Promise<void> {
    const accept = t('Accept');
    const discard = t('Discard');
    const choice = this.answer
      ? await this.answer(uri)
      : await vscode.window
          .showInformationMessage(t('Apply the proposed change to {0}?', name), accept, discard)
          .then((picked) => (picked === accept ? 'accept' : picked === discard ? 'discard' : undefined));
    // Dismissed: the proposal stays, with Accept and Discard in the diff editor's title bar.
    if (choice === 'accept') await this.accept(uri);
    else if (choice === 'discard') await this.discard(uri);
  }

  /**
   * The proposal `uri` names, or the one in the active diff editor, or the one for the file `uri` names, or the
   * only one pending. From the diff editor's title bar `uri` is the side that has focus: the file itself when the
   * person clicked into the left side.
   */
  private find(uri?: vscode.Uri): [string, Pending] | undefined {
    const key =
      (uri?.scheme === PROPOSAL_SCHEME ? uri.toString() : undefined) ??
      (() => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME)
          return input.modified.toString();
        const forFile = uri && [...this.pending].filter(([, p]) => p.target.toString() === uri.toString());
        if (forFile?.length === 1) return forFile[0]![0];
        return this.pending.size === 1 ? [...this.pending.keys()][0] : undefined;
      })();
    const pending = key === undefined ? undefined : this.pending.get(key);
    return key !== undefined && pending ? [key, pending] : undefined;
  }

  async accept(uri?: vscode.Uri): Promise<ProposalOutcome> {
    const found = this.find(uri);
    if (!found) return 'unknown';
    const [key, { target, version, proposal }] = found;
    this.pending.delete(key);
    await this.closeDiff(key);
    await this.updateContext();
    const document = await vscode.workspace.openTextDocument(target);
    if (document.version !== version) {
      void vscode.window.showWarningMessage(
        t('{0} changed after the proposal was made; it was not applied. Choose Apply again.', document.fileName),
      );
      return 'stale';
    }
    const range = new vscode.Range(document.positionAt(proposal.start), document.positionAt(proposal.end));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(target, range, proposal.replacement);
    if (!(await vscode.workspace.applyEdit(edit))) return 'stale';
    const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
    await revealChange(editor, range.start, proposal.replacement);
    return 'accepted';
  }

  async discard(uri?: vscode.Uri): Promise<ProposalOutcome> {
    const found = this.find(uri);
    if (!found) return 'unknown';
    const [key, { target }] = found;
    this.pending.delete(key);
    await this.closeDiff(key);
    await this.updateContext();
    // An untitled file closed while the diff was open cannot be shown again; it was discarded either way.
    await vscode.window.showTextDocument(target, { preserveFocus: false }).then(undefined, () => undefined);
    return 'discarded';
  }

  private async closeDiff(key: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === key);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', PENDING_CONTEXT, this.pending.size > 0);
  }

  override dispose(): void {
    this.pending.clear();
    super.dispose();
  }
}
