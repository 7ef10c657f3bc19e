// The two scan commands: every file of the workspace into the Problems panel
// (respecting files.exclude and a size cap, with progress and Cancel), and git
// history for keys that were ever committed.
import * as vscode from 'vscode';
import { GitStatusCache, runGit } from '../core/scan/gitStatus.ts';
import { scanLogPatch } from '../core/scan/history.ts';
import type { FileFinding } from '../core/scan/report.ts';
import { readSetting } from './configuration.ts';
import type { KeyDiagnostics } from './keyDiagnostics.ts';
import type { Log } from './log.ts';

const t = vscode.l10n.t;

export async function scanWorkspace(diagnostics: KeyDiagnostics, log: Log): Promise<{ files: number; findings: number; cancelled: boolean }> {
  const maxKb = Number(readSetting('scan.maxFileSizeKb') ?? 1024);
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Keyward: scanning the workspace for keys'), cancellable: true }, async (progress, token) => {
    // Leaving exclude undefined applies files.exclude, as the user expects.
    const files = await vscode.workspace.findFiles('**/*', undefined, undefined, token);
    let findings = 0;
    let done = 0;
    for (const uri of files) {
      if (token.isCancellationRequested) break;
      try {
        findings += await diagnostics.scanFile(uri, maxKb * 1024);
      } catch (error) {
        log.warn(`Could not scan ${vscode.workspace.asRelativePath(uri)}: ${(error as Error).message}`);
      }
      done += 1;
      if (done % 50 === 0) progress.report({ message: t('{0} of {1} files', String(done), String(files.length)), increment: (50 / files.length) * 100 });
    }
    const cancelled = token.isCancellationRequested;
    log.info(`Workspace scan: ${findings} key(s) in ${done} of ${files.length} files${cancelled ? ' (cancelled)' : ''}.`);
    if (findings > 0) void vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (!cancelled) void vscode.window.showInformationMessage(t('Keyward found no keys in {0} files.', String(done)));
    return { files: done, findings, cancelled };
  });
}

export async function scanHistory(diagnostics: KeyDiagnostics, log: Log): Promise<FileFinding[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const git = new GitStatusCache();
  const all: FileFinding[] = [];
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Keyward: scanning git history for keys'), cancellable: false }, async () => {
    const roots = new Set<string>();
    for (const folder of folders) {
      const root = await git.root(folder.uri.fsPath);
      if (root) roots.add(root);
    }
    for (const root of roots) {
      const log = await runGit(['log', '-p', '--all', '--no-color', '-U0', '--no-ext-diff', '--format=commit %H'], root);
      for (const finding of scanLogPatch(log.stdout, diagnostics.scanOptions())) all.push({ ...finding, path: `${root}/${finding.path}` });
    }
  });
  for (const hit of all) log.warn(`History: ${hit.finding.masked} (${hit.finding.ruleId}) added in ${hit.commit?.slice(0, 12)} to ${vscode.workspace.asRelativePath(hit.path)}:${hit.finding.line + 1}`);
  if (all.length === 0) {
    void vscode.window.showInformationMessage(t('Keyward found no key in the git history.'));
    return all;
  }
  const pick = await vscode.window.showQuickPick(all.map((hit) => ({
    label: `$(key) ${hit.finding.masked}`,
    description: `${vscode.workspace.asRelativePath(hit.path)}:${hit.finding.line + 1}`,
    detail: t('commit {0} · rotate this key: it stays in history', hit.commit?.slice(0, 12) ?? '?'),
    hit,
  })), { title: t('Keys ever committed ({0})', String(all.length)), matchOnDescription: true });
  if (pick) {
    const uri = vscode.Uri.file(pick.hit.path);
    try {
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pick.hit.finding.line, 0, pick.hit.finding.line, 0) });
    } catch {
      void vscode.window.showInformationMessage(t('That file no longer exists; the key is still in commit {0}.', pick.hit.commit ?? ''));
    }
  }
  return all;
}
