// The conversation exported as Markdown, keys masked on the way to disk.
import * as vscode from 'vscode';
import type { ChatTurn } from '../shared/protocol.ts';
import { conversationMarkdown } from '../core/conversation.ts';
import type { ScanOptions } from '../core/scan/scanner.ts';
import { scrubForDisk } from '../core/persistFilter.ts';

const t = vscode.l10n.t;

/** Writes `turns` to `target`, or where the person picks; undefined when they cancel. */
export async function exportConversation(
  turns: readonly ChatTurn[],
  scanOptions: () => Promise<ScanOptions>,
  fallbackFolder: vscode.Uri,
  target?: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      filters: { Markdown: ['md'] },
      defaultUri: vscode.Uri.joinPath(
        vscode.workspace.workspaceFolders?.[0]?.uri ?? fallbackFolder,
        'keyward-conversation.md',
      ),
    }));
  if (!uri) return undefined;
  const text = conversationMarkdown(turns, {
    declined: t('The model declined'),
    cutOff: t('Cut off at the token limit.'),
    filtered: t('Filtered by the provider.'),
  });
  const options = await scanOptions().catch(() => ({}));
  await vscode.workspace.fs.writeFile(uri, Buffer.from(scrubForDisk(text, options)));
  return uri;
}
