// The inline edit's commands (Edit with Keyward…, its Keep / Undo / Stop and the input's history keys), registered
// at activation; the inline edit itself is built from dist/commands.js on the first run of Edit with Keyward…, so
// activation parses none of it. Until then no edit waits, and the other commands have nothing to do.
import type * as vscode from 'vscode';
import { storedChoice } from '../chat/conversationStore.ts';
import type { InlineEdits, InlineEditPorts } from '../inlineEdit/inlineEdit.ts';
import { CommandId } from '../commandIds.ts';
import { command } from './command.ts';
import type { KeywardCore } from './keywardCore.ts';
import { onDemand } from './onDemand.ts';

export function inlineEditPartsOf(
  core: KeywardCore,
  ports: Partial<InlineEditPorts> = {},
): { disposables: vscode.Disposable[]; edits: () => InlineEdits | undefined } {
  const state = core.workspaceState();
  let built: InlineEdits | undefined;
  let loading: Promise<InlineEdits> | undefined;
  const edits = (): Promise<InlineEdits> =>
    (loading ??= onDemand().then(({ InlineEdits }) => {
      built = new InlineEdits({
        monitor: core.monitor,
        keys: core.keys,
        configuration: core.configuration,
        log: core.log,
        spend: core.spend,
        state,
        chatChoice: () => {
          const chat = storedChoice(state);
          return { service: chat.service, model: chat.selectedModel[chat.service] ?? '' };
        },
        ...ports,
      });
      return built;
    }));
  return {
    edits: () => built,
    disposables: [
      command(CommandId.editInline, () => edits().then((e) => e.run())),
      // From a lens (the file's URI, and the hunk's row) or a key (nothing: the active editor's edit, the cursor's hunk).
      command(CommandId.inlineEditKeepAll, (uri?: unknown) => built?.resolveAll(true, uri)),
      command(CommandId.inlineEditUndoAll, (uri?: unknown) => built?.resolveAll(false, uri)),
      command(CommandId.inlineEditKeepHunk, (uri?: unknown, row?: unknown) => built?.resolveHunk(true, uri, row)),
      command(CommandId.inlineEditUndoHunk, (uri?: unknown, row?: unknown) => built?.resolveHunk(false, uri, row)),
      command(CommandId.inlineEditStop, () => built?.stop()),
      command(CommandId.inlineEditHistoryPrevious, () => built?.historyPrevious()),
      command(CommandId.inlineEditHistoryNext, () => built?.historyNext()),
      { dispose: () => built?.dispose() },
    ],
  };
}
