// The editor the person was last in, where code from an answer goes: the panel takes the focus, so the active editor
// is remembered as it changes. Kept from activation; what inserts the code (codeInsert.ts) loads with the chat.
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';

/** The scheme of an Apply proposal, the read-only right side of its diff. */
export const PROPOSAL_SCHEME = 'keyward-proposal';

export class LastEditor extends Disposable {
  private editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = this._register(
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      // The right side of an Apply diff is a read-only proposal: the code still belongs in the file beside it.
      if (editor && editor.document.uri.scheme !== PROPOSAL_SCHEME) this.editor = editor;
    }),
  );

  get current(): vscode.TextEditor | undefined {
    // The active editor is the truth when there is one: the change event can arrive after a message from the chat.
    const active = vscode.window.activeTextEditor;
    return active && active.document.uri.scheme !== PROPOSAL_SCHEME ? active : this.editor;
  }

  /** An editor the person chose explicitly (ask about selection) wins over the last active one. */
  set current(editor: vscode.TextEditor | undefined) {
    this.editor = editor;
  }
}
