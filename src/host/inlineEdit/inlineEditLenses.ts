// What an inline edit shows above its lines: the model it asked and what may be done now (Stop while it streams,
// Keep All and Undo All after), and above each hunk its own Keep and Undo with what it changes. The keys named are
// package.json's keybindings, bound only in a file with an edit (`resourcePath in keyward.inlineEditFiles`).
import * as vscode from 'vscode';
import type { KeywardConfig } from '../../core/config.ts';
import { CommandId } from '../commandIds.ts';
import { serviceLabel } from '../serviceNames.ts';
import type { PendingEdit } from './inlineEditSession.ts';

const t = vscode.l10n.t;

const INLINE_EDIT_COMMANDS = {
  keepAll: CommandId.inlineEditKeepAll,
  undoAll: CommandId.inlineEditUndoAll,
  keepHunk: CommandId.inlineEditKeepHunk,
  undoHunk: CommandId.inlineEditUndoHunk,
  stop: CommandId.inlineEditStop,
};

const lens = (line: number, title: string, command = '', args: unknown[] = [], tooltip?: string) =>
  new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
    title,
    command,
    arguments: args,
    ...(tooltip ? { tooltip } : {}),
  });

export function editLenses(edit: PendingEdit, config: KeywardConfig): vscode.CodeLens[] {
  const { service, model } = edit.ask.choice;
  const uri = edit.document.uri.toString();
  const top = edit.start;
  const who = `$(sparkle) ${t('Keyward: {0} on {1}', model, serviceLabel(service, config))}`;
  if (edit.state === 'asking' || edit.state === 'streaming')
    return [
      lens(top, who),
      lens(top, `$(loading~spin) ${t('Streaming the edit')}`),
      lens(
        top,
        `$(debug-stop) ${t('Stop (Escape)')}`,
        INLINE_EDIT_COMMANDS.stop,
        [],
        t('Stop the answer; then keep what arrived or put everything back'),
      ),
    ];
  const lenses = [
    lens(top, who),
    ...(edit.state === 'stopped' ? [lens(top, `$(info) ${t('Stopped after {0} lines', edit.arrived)}`)] : []),
    lens(
      top,
      `$(check-all) ${t('Keep All')}`,
      INLINE_EDIT_COMMANDS.keepAll,
      [uri],
      t('Keep every change (Ctrl+Shift+Enter)'),
    ),
    lens(
      top,
      `$(discard) ${t('Undo All')}`,
      INLINE_EDIT_COMMANDS.undoAll,
      [uri],
      t('Put back the code as it was (Ctrl+Shift+Backspace)'),
    ),
  ];
  for (const hunk of edit.hunks()) {
    const line = top + hunk.start;
    const what = t('−{0} +{1}', hunk.removed, hunk.added);
    lenses.push(
      lens(
        line,
        `$(check) ${t('Keep')}`,
        INLINE_EDIT_COMMANDS.keepHunk,
        [uri, hunk.start],
        t('Keep this change (Ctrl+Alt+Y)'),
      ),
      lens(
        line,
        `$(discard) ${t('Undo')}`,
        INLINE_EDIT_COMMANDS.undoHunk,
        [uri, hunk.start],
        t('Undo this change (Ctrl+Alt+N)'),
      ),
      lens(line, what),
    );
  }
  return lenses;
}
