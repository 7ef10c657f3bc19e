// The chat's `+` menu on the host: the selection, the whole active file, or
// another open file, each attached only because the person picked it. Every
// attachment passes the secret guard when the prompt is sent, like any other.
import * as vscode from 'vscode';
import type { Attachment, AttachSource } from '../../shared/protocol.ts';
import type { LastEditor } from './lastEditor.ts';
import type { ConversationStore } from './conversationStore.ts';
import { attachSelection, attachWholeFile } from './panelAttachments.ts';

const t = vscode.l10n.t;

export async function attachFrom(
  source: AttachSource,
  lastEditor: LastEditor,
  store: ConversationStore,
): Promise<Attachment | undefined> {
  const editor = lastEditor.current;
  switch (source) {
    case 'selection':
      if (!editor || editor.document.isClosed) {
        void vscode.window.showInformationMessage(t('Open a file and select the code to attach.'));
        return undefined;
      }
      // With nothing selected this asks before it attaches the whole file.
      return attachSelection(editor, 'ask', store);
    case 'activeFile':
      if (!editor || editor.document.isClosed) {
        void vscode.window.showInformationMessage(t('Open the file to attach first.'));
        return undefined;
      }
      return attachWholeFile(editor.document, store);
    case 'openFile': {
      const current = editor?.document.uri.toString();
      const uris = new Map<string, vscode.Uri>();
      for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs))
        if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() !== current)
          uris.set(tab.input.uri.toString(), tab.input.uri);
      if (uris.size === 0) {
        void vscode.window.showInformationMessage(t('No other file is open.'));
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        [...uris.values()].map((uri) => ({
          label: vscode.workspace.asRelativePath(uri),
          uri,
        })),
        { title: t('Attach an open file (the whole file)'), placeHolder: t('Choose the file to attach') },
      );
      if (!pick) return undefined;
      return attachWholeFile(await vscode.workspace.openTextDocument(pick.uri), store);
    }
  }
}
