// Code from an answer into the editor the person was last in: the panel takes
// the focus, so the active editor is remembered as it changes.
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import type { InsertMode } from '../../shared/protocol.ts';
import { fitInsertion, fitReplacement } from '../../core/chat/codeProposal.ts';

/** The scheme of an Apply proposal, the read-only right side of its diff. */
export const PROPOSAL_SCHEME = 'keyward-proposal';
const t = vscode.l10n.t;

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

export async function insertCode(
  editor: vscode.TextEditor | undefined,
  code: string,
  mode: InsertMode,
): Promise<boolean> {
  if (!editor || editor.document.isClosed) {
    void vscode.window.showInformationMessage(t('Open an editor to insert the code into.'));
    return false;
  }
  const { document, selection } = editor;
  const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const edit = new vscode.WorkspaceEdit();
  let at: vscode.Position;
  let text: string;
  if (mode === 'replace') {
    text = fitReplacement(code, document.getText(selection), eol);
    at = selection.start;
    edit.replace(document.uri, selection, text);
  } else if (mode === 'below') {
    const line =
      selection.end.character === 0 && selection.end.line > selection.start.line
        ? selection.end.line - 1
        : selection.end.line;
    at = document.lineAt(line).range.end;
    text = `${eol}${fitInsertion(code.replace(/\r?\n$/, ''), eol)}`;
    edit.insert(document.uri, at, text);
  } else {
    at = selection.active;
    text = fitInsertion(code, eol);
    edit.insert(document.uri, at, text);
  }
  const applied = await vscode.workspace.applyEdit(edit);
  if (applied) await revealChange(editor, at, text);
  return applied;
}

/** The panel covers or sits beside the editor: bring it forward with the new text selected, so the change is seen. */
export async function revealChange(editor: vscode.TextEditor, at: vscode.Position, text: string): Promise<void> {
  const document = editor.document;
  const start = document.offsetAt(at);
  const range = new vscode.Range(document.positionAt(start), document.positionAt(start + text.length));
  const shown = await vscode.window.showTextDocument(document, {
    ...(editor.viewColumn ? { viewColumn: editor.viewColumn } : {}),
    preserveFocus: false,
    selection: range,
  });
  shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
