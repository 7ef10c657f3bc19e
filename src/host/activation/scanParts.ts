// Key hygiene in the editor: diagnostics on a scan thread, quick fixes, hover, liveness checks, the workspace and
// history scans, and the pre-commit hook. Their commands are registered here; activate() owns the lifetimes.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CommandId } from '../commandIds.ts';
import type { Dialogs } from '../dialogs.ts';
import type { GitHistoryView, HistoryNode } from '../scan/gitHistoryView.ts';
import { KeyDiagnostics } from '../scan/keyDiagnostics.ts';
import { KeyFixes } from '../scan/keyFixes.ts';
import { KeyHover } from '../scan/keyHover.ts';
import { KeyLiveness } from '../scan/keyLiveness.ts';
import { PreCommitHookCommand } from '../scan/preCommitHookCommand.ts';
import { ScanThreadOnDemand } from '../scan/scanThreadOnDemand.ts';
import { command } from './command.ts';
import type { KeywardCore } from './keywardCore.ts';
import { onDemand } from './onDemand.ts';

export interface ScanParts {
  diagnostics: KeyDiagnostics;
  fixes: KeyFixes;
  preCommitHook: PreCommitHookCommand;
  /** The Keys in Git History view once a history scan built it. */
  historyView(): GitHistoryView | undefined;
}

export function buildScan(context: vscode.ExtensionContext, core: KeywardCore, dialogs: Dialogs): ScanParts {
  const { keys, configuration, log } = core;
  // Large documents are scanned on a thread of their own (dist/scanWorker.js), started on the first of them.
  // (This bundle is dist/extension.js: the thread's script is beside it.)
  const scanThread = new ScanThreadOnDemand(join(__dirname, 'scanWorker.js'));
  context.subscriptions.push(scanThread);
  const diagnostics = new KeyDiagnostics(keys, configuration, core.workspaceState(), scanThread);
  const fixes = new KeyFixes(diagnostics, configuration, keys, { dialogs });
  const liveness = new KeyLiveness(diagnostics, configuration, dialogs);
  const preCommitHook = new PreCommitHookCommand(log, dialogs);
  // The Keys in Git History view, built with dist/commands.js by the history scan's first run: until a scan it shows
  // nothing, and its node commands come only from the nodes it shows.
  let historyView: GitHistoryView | undefined;
  let historyLoading: Promise<GitHistoryView> | undefined;
  const history = (): Promise<GitHistoryView> =>
    (historyLoading ??= onDemand().then(({ GitHistoryView }) => (historyView = new GitHistoryView())));
  context.subscriptions.push(
    diagnostics,
    fixes,
    new KeyHover(diagnostics),
    liveness,
    command(CommandId.checkKeyLive, (uri?: vscode.Uri, range?: vscode.Range) => liveness.check(uri, range)),
    command(CommandId.scanWorkspace, async () => (await onDemand()).scanWorkspace(diagnostics, log)),
    { dispose: () => historyView?.dispose() },
    command(CommandId.scanHistory, async () => (await onDemand()).scanHistory(await history(), diagnostics, log)),
    command(CommandId.historyRotateKey, async (node?: HistoryNode) => (await history()).rotate(node)),
    command(CommandId.historyCopyCommit, async (node?: HistoryNode) => (await history()).copyCommit(node)),
    command(CommandId.historyOpen, async (node?: HistoryNode) => (await history()).open(node)),
    command(CommandId.installPreCommitHook, () => preCommitHook.run()),
  );
  return { diagnostics, fixes, preCommitHook, historyView: () => historyView };
}
