// Attachments from the editor: the selection (or, when the person says so, the
// whole file) becomes a chip; a chip restored after a reload has no text, and
// its text is read again from the file, only for attachments this host made.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Attachment } from '../../shared/protocol.ts';
import type { ConversationStore } from './conversationStore.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

export const newId = () => randomBytes(9).toString('hex');

/**
 * The selection of `editor` as an attachment. With nothing selected it asks:
 * the whole file (a .env, say) is attached only when the person chooses it, or
 * when `scope` says so. Undefined when nothing is to be attached.
 */
export async function attachSelection(
  editor: vscode.TextEditor,
  scope: 'ask' | 'wholeFile',
  store: ConversationStore,
): Promise<Attachment | undefined> {
  const document = editor.document;
  let selection: vscode.Range = editor.selection;
  if (selection.isEmpty) {
    if (scope !== 'wholeFile') {
      const pick = await vscode.window.showQuickPick(
        [
          {
            label: t(
              'Attach the whole file ({0} lines)',
              String(
                document.lineCount -
                  (document.lineAt(document.lineCount - 1).isEmptyOrWhitespace && document.lineCount > 1 ? 1 : 0),
              ),
            ),
            whole: true,
          },
          { label: t('Attach nothing'), whole: false },
        ],
        {
          title: t('Nothing is selected in {0}', vscode.workspace.asRelativePath(document.uri)),
          placeHolder: t('Select the code to ask about, or attach the whole file'),
        },
      );
      if (!pick?.whole) return undefined;
    }
    selection = new vscode.Range(0, 0, document.lineCount, 0);
  }
  return attachRange(document, document.validateRange(selection), store);
}

/** The whole of `document`, attached because the person chose that file. */
export function attachWholeFile(document: vscode.TextDocument, store: ConversationStore): Promise<Attachment> {
  return attachRange(document, document.validateRange(new vscode.Range(0, 0, document.lineCount, 0)), store);
}

async function attachRange(
  document: vscode.TextDocument,
  range: vscode.Range,
  store: ConversationStore,
): Promise<Attachment> {
  const attachment: Attachment = {
    id: newId(),
    fileName: vscode.workspace.asRelativePath(document.uri),
    languageId: document.languageId,
    startLine: range.start.line + 1,
    endLine: Math.max(
      range.start.line + 1,
      range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1,
    ),
    text: document.getText(range),
  };
  await store.rememberAttachment({
    id: attachment.id,
    uri: document.uri.toString(),
    range: [range.start.line, range.start.character, range.end.line, range.end.character],
  });
  return attachment;
}

/**
 * The webview keeps attachments as references only (its state is written to
 * disk): a chip without text gets it back here from the file it came from.
 */
export async function resolveAttachments(
  attachments: Attachment[],
  store: ConversationStore,
  log: Log,
): Promise<Attachment[]> {
  const refs = store.attachmentRefs();
  const resolved: Attachment[] = [];
  for (const attachment of attachments) {
    if (attachment.text !== '') {
      resolved.push(attachment);
      continue;
    }
    const ref = refs.find((r) => r.id === attachment.id);
    try {
      if (!ref) throw new Error('no longer known');
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.uri));
      resolved.push({
        ...attachment,
        text: document.getText(document.validateRange(new vscode.Range(...ref.range))),
      });
    } catch (error) {
      log.warn(
        `Left out the attachment ${attachment.fileName}:${attachment.startLine}-${attachment.endLine}: ${(error as Error).message}.`,
      );
    }
  }
  return resolved;
}
