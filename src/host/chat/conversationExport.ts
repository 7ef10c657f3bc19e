// The conversation exported as Markdown: where the person chooses (by default
// in their home folder, never silently into the repository), keys masked on
// the way to disk, written without following a link planted at the target,
// and opened.
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatTurn } from '../../shared/protocol.ts';
import { conversationMarkdown } from '../../core/chat/conversation.ts';
import { type PersistOptions, scrubForDisk } from '../../core/guards/persistFilter.ts';
import { UnsafePath, safeTarget, writeTarget } from '../../core/safeWrite.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

/** A file name from the conversation's title: what it is about, in letters a file system takes. */
export function exportFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');
  return `keyward-${slug || 'conversation'}.md`;
}

/**
 * Writes `turns` to `target`, or where the person picks in the save dialog
 * (then opens the file); undefined when they cancel or the write is refused.
 */
export async function exportConversation(
  turns: readonly ChatTurn[],
  title: string,
  scanOptions: () => Promise<PersistOptions>,
  log: Log,
  target?: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      title: t('Export Conversation as Markdown'),
      saveLabel: t('Export'),
      filters: { Markdown: ['md'] },
      defaultUri: vscode.Uri.file(join(homedir(), exportFileName(title))),
    }));
  if (!uri) return undefined;
  if (uri.scheme !== 'file') {
    void vscode.window.showErrorMessage(t('Keyward exports only to a file on this machine.'));
    return undefined;
  }
  const text = conversationMarkdown(
    turns,
    {
      declined: t('The model declined'),
      cutOff: t('Cut off at the token limit.'),
      filtered: t('Filtered by the provider.'),
      tokens: t('Tokens: {0} in, {1} out', '{0}', '{1}'),
      cost: t('Cost: {0}', '{0}'),
    },
    title,
  );
  const options = await scanOptions().catch(() => ({}));
  try {
    const checked = await safeTarget(dirname(uri.fsPath), basename(uri.fsPath));
    await writeTarget(checked, scrubForDisk(text, options));
  } catch (error) {
    const reason =
      error instanceof UnsafePath
        ? t('{0} is a link or not a plain file; nothing was written.', basename(uri.fsPath))
        : (error as Error).message;
    log.warn(`Export to ${uri.fsPath} refused: ${reason}`);
    void vscode.window.showErrorMessage(t('Could not export the conversation: {0}', reason));
    return undefined;
  }
  log.info(`Exported the conversation to ${uri.fsPath}.`);
  // A target given by a script is only written; a file the person chose is shown to them.
  if (!target) await vscode.window.showTextDocument(uri, { preview: true });
  return uri;
}
