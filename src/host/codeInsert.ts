// Code from an answer into the editor the person was last in: the panel takes
// the focus, so the active editor is remembered as it changes.
import * as vscode from 'vscode';
import type { InsertMode } from '../shared/protocol.ts';

const t = vscode.l10n.t;

export class LastEditor implements vscode.Disposable {
  private editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) this.editor = editor;
  });

  get current(): vscode.TextEditor | undefined {
    return this.editor;
  }

  /** An editor the person chose explicitly (ask about selection) wins over the last active one. */
  set current(editor: vscode.TextEditor | undefined) {
    this.editor = editor;
  }

  dispose(): void {
    this.subscription.dispose();
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
  const edit = new vscode.WorkspaceEdit();
  if (mode === 'replace') edit.replace(document.uri, selection, code);
  else if (mode === 'below') {
    const line =
      selection.end.character === 0 && selection.end.line > selection.start.line
        ? selection.end.line - 1
        : selection.end.line;
    edit.insert(document.uri, document.lineAt(line).range.end, `\n${code.replace(/\n$/, '')}`);
  } else edit.insert(document.uri, selection.active, code);
  return vscode.workspace.applyEdit(edit);
}
