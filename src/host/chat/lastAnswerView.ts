// "Show Last Answer in Accessible View": the conversation's last answer as plain text in a read-only editor,
// where a screen reader reads it line by line with the editor's own keys, as Copilot Chat's Alt+F2 does
// (microsoft/vscode src/vs/workbench/contrib/chat/browser/chatResponseAccessibleView.ts).
import * as vscode from 'vscode';
import { redactSecrets } from '../../core/redact.ts';
import { Disposable } from '../../shared/dispose.ts';
import type { ChatTurn } from '../../shared/protocol.ts';

const SCHEME = 'keyward-answer';

/** The last answer with text, or none. */
export function lastAnswer(turns: readonly ChatTurn[]): ChatTurn | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role === 'assistant' && turn.text.trim() !== '') return turn;
  }
  return undefined;
}

export class LastAnswerView extends Disposable {
  // VS Code's emitter, not shared/event's: TextDocumentContentProvider.onDidChange must be a vscode.Event.
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  private text = '';
  private readonly turns: () => readonly ChatTurn[];

  constructor(turns: () => readonly ChatTurn[]) {
    super();
    this.turns = turns;
    // A content provider's documents are read-only: the answer is read, not edited by mistake.
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: () => this.text,
      }),
    );
  }

  async show(): Promise<void> {
    const turn = lastAnswer(this.turns());
    if (!turn) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no answer to show yet.'));
      return;
    }
    // The answer came from the network: it passes the redactor before it is shown anywhere new.
    this.text = redactSecrets(turn.text);
    const uri = vscode.Uri.from({ scheme: SCHEME, path: '/last-answer.md' });
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }
}
