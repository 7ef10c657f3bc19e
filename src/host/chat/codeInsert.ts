// Code from an answer into the editor the person was last in (lastEditor.ts remembers it).
import * as vscode from 'vscode';
import type { InsertMode } from '../../shared/protocol.ts';
import { fitInsertion, fitReplacement } from '../../core/chat/codeProposal.ts';

const t = vscode.l10n.t;

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
