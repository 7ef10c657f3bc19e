// The two scan commands: every file of the workspace into the Problems panel
// (respecting files.exclude and a size cap, with progress and Cancel), and git
// history for keys that were ever committed, into the Keys in Git History view.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { redactSecrets } from '../../core/redact.ts';
import { GitStatusCache } from '../../core/scan/gitStatus.ts';
import { SKIP_REASONS, skipMessage } from '../../core/scan/report.ts';
import { TEAM_RULES_FILE } from '../../core/scan/teamRuleProblem.ts';
import { type HistoryResults, type GitHistoryView, historyHit } from './gitHistoryView.ts';
import type { KeyDiagnostics } from './keyDiagnostics.ts';
import type { Log } from '../log.ts';
import { scanUnopenedFile } from './unopenedFile.ts';

const t = vscode.l10n.t;

export interface WorkspaceScanOutcome {
  files: number;
  findings: number;
  cancelled: boolean;
  /** Files not scanned, with why: never counted as clean. */
  notScanned: { path: string; reason: string }[];
}

export async function scanWorkspace(diagnostics: KeyDiagnostics, log: Log): Promise<WorkspaceScanOutcome> {
  const maxKb = diagnostics.configuration.value.scan.maxFileSizeKb;
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: t('Keyward: scanning the workspace for keys'),
      cancellable: true,
    },
    async (progress, token) => {
      // Leaving exclude undefined applies files.exclude, as the user expects.
      const files = await vscode.workspace.findFiles('**/*', undefined, undefined, token);
      let findings = 0;
      let suppressed = 0;
      let done = 0;
      const notScanned: WorkspaceScanOutcome['notScanned'] = [];
      for (const uri of files) {
        if (token.isCancellationRequested) break;
        const path = vscode.workspace.asRelativePath(uri);
        try {
          const outcome = await scanUnopenedFile(diagnostics, uri, maxKb * 1024);
          if ('skipped' in outcome)
            notScanned.push({ path, reason: t('larger than keyward.scan.maxFileSizeKb ({0} KB)', String(maxKb)) });
          else {
            findings += outcome.findings;
            suppressed += outcome.suppressed;
            // What an archive's limits left unpacked is named like a file that was not read.
            for (const inner of outcome.notScanned)
              notScanned.push({
                path: redactSecrets(inner.inner === '' ? path : `${path}!${inner.inner}`),
                reason: redactSecrets(inner.message),
              });
          }
        } catch (error) {
          notScanned.push({ path, reason: redactSecrets((error as Error).message) });
        }
        done += 1;
        if (done % 50 === 0)
          progress.report({
            message: t('{0} of {1} files', String(done), String(files.length)),
            increment: (50 / files.length) * 100,
          });
      }
      const cancelled = token.isCancellationRequested;
      log.info(
        `Workspace scan: ${findings} key(s) in ${done - notScanned.length} of ${files.length} files${suppressed > 0 ? `, ${suppressed} more suppressed by .keywardignore (shown as hints)` : ''}${cancelled ? ' (cancelled)' : ''}.`,
      );
      for (const skipped of notScanned) log.warn(`Not scanned: ${skipped.path}: ${skipped.reason}`);
      if (findings > 0) void vscode.commands.executeCommand('workbench.actions.view.problems');
      if (notScanned.length > 0) {
        // Never a silent clean: what was not looked at is named, and the log lists every path.
        const shown = notScanned
          .slice(0, 3)
          .map((s) => `${s.path} (${s.reason})`)
          .join(', ');
        void vscode.window
          .showWarningMessage(
            t(
              'Keyward could not scan {0} of {1} files, so it cannot call them clean: {2}{3}',
              String(notScanned.length),
              String(done),
              shown,
              notScanned.length > 3 ? t(' and more (see the log)') : '',
            ),
            t('Show Log'),
          )
          .then((choice) => {
            if (choice) log.show();
          });
      } else if (findings === 0 && !cancelled)
        void vscode.window.showInformationMessage(t('Keyward found no keys in {0} files.', String(done)));
      return { files: done, findings, cancelled, notScanned };
    },
  );
}

export interface HistoryScanOutcome extends HistoryResults {
  repositories: number;
}

/**
 * Streams every repository's `git log -p` through the scanner with progress
 * and Cancel, and lists the keys in the Keys in Git History view. A failed git
 * is said as a failure, never as "no key found". Restricted Mode runs no git.
 */
export async function scanHistory(
  view: GitHistoryView,
  diagnostics: KeyDiagnostics,
  log: Log,
): Promise<HistoryScanOutcome> {
  const empty: HistoryScanOutcome = { hits: [], commits: 0, total: 0, cancelled: false, repositories: 0 };
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      t(
        'Scanning git history runs git, which Keyward does only in a trusted workspace. Trust this workspace to scan its history.',
      ),
    );
    return { ...empty, failure: 'untrusted workspace' };
  }
  const git = new GitStatusCache();
  const roots = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = await git.root(folder.uri.fsPath);
    if (root) roots.add(root);
  }
  if (roots.size === 0) {
    void vscode.window.showInformationMessage(
      t('No folder of this workspace is in a git repository: there is no history to scan.'),
    );
    return empty;
  }
  const outcome = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: t('Keyward: scanning git history for keys'),
      cancellable: true,
    },
    (progress, token) => readHistory(roots, diagnostics, progress, token),
  );
  await showHistory(outcome, view, log);
  return outcome;
}

/** Every repository's history through the scanner, with progress; a failure or a part not read is named. */
async function readHistory(
  roots: Set<string>,
  diagnostics: KeyDiagnostics,
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  token: vscode.CancellationToken,
): Promise<HistoryScanOutcome> {
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  // Loaded on the first history scan, from a file of its own (esbuild.js): activation never parses it.
  const { countCommits, scanHistory: scanGitHistory } = await import('../../core/scan/history.ts');
  const counts = await Promise.all([...roots].map((root) => countCommits(root)));
  const total = counts.every((c) => c !== undefined) ? counts.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;
  const result: HistoryScanOutcome = { hits: [], commits: 0, total, cancelled: false, repositories: roots.size };
  let shown = 0;
  try {
    for (const root of roots) {
      const before = result.commits;
      let scan;
      try {
        // The team rules of the repository, as for a file at its root (`keyward scan --history` reads the same).
        const options = await diagnostics.scanOptionsFor(vscode.Uri.file(join(root, TEAM_RULES_FILE)));
        scan = await scanGitHistory(root, options, {
          signal: controller.signal,
          onProgress: (commits) => {
            result.commits = before + commits;
            // Report whole percents only: progress is drawn on every report.
            const percent = total ? Math.floor((result.commits / total) * 100) : 0;
            if (percent > shown || !total) {
              progress.report({
                message: total
                  ? t('{0} of {1} commits', String(result.commits), String(total))
                  : t('{0} commits', String(result.commits)),
                increment: total ? percent - shown : undefined,
              });
              shown = percent;
            }
          },
        });
      } catch (error) {
        result.failure = redactSecrets((error as Error).message);
        break;
      }
      result.commits = before + scan.commits;
      for (const finding of scan.findings) result.hits.push(historyHit(root, finding));
      // History not read whole (a shallow or partial clone, a graft file) is said as a failure, never as clean;
      // the other repositories are still read.
      const notRead = scan.skipped.filter((s) => SKIP_REASONS[s.reason].incomplete);
      if (notRead.length > 0) {
        const said = notRead.map((s) => `${root}${s.path ? `/${s.path}` : ''}: ${skipMessage(s)}`).join('; ');
        result.failure = redactSecrets(result.failure ? `${result.failure}; ${said}` : said);
      }
      if (scan.cancelled) {
        result.cancelled = true;
        break;
      }
    }
  } finally {
    cancel.dispose();
  }
  return result;
}

/** The findings in the log and the view, and one message: failed, cancelled, clean, or keys to rotate. */
async function showHistory(outcome: HistoryScanOutcome, view: GitHistoryView, log: Log): Promise<void> {
  for (const hit of outcome.hits)
    log.warn(
      `History: ${hit.masked} added in ${hit.commit.slice(0, 12)} to ${redactSecrets(hit.path)}:${hit.line + 1}`,
    );
  log.info(
    `History scan: ${outcome.hits.length} key(s) in ${outcome.commits}${outcome.total === undefined ? '' : ` of ${outcome.total}`} commits${outcome.cancelled ? ' (cancelled)' : ''}${outcome.failure ? `; failed: ${outcome.failure}` : ''}.`,
  );
  await view.show(outcome);
  if (outcome.failure)
    void vscode.window.showErrorMessage(
      t('Keyward could not read the git history, so it cannot say whether a key was committed: {0}', outcome.failure),
    );
  else if (outcome.cancelled)
    void vscode.window.showInformationMessage(
      t(
        'History scan cancelled after {0} commits; what was found so far is in Keys in Git History.',
        String(outcome.commits),
      ),
    );
  else if (outcome.hits.length === 0)
    void vscode.window.showInformationMessage(
      t('Keyward found no key in {0} commits of the git history.', String(outcome.commits)),
    );
  else
    void vscode.window.showWarningMessage(
      t(
        '{0} key(s) were committed at some point: see Keys in Git History, and rotate each one.',
        String(new Set(outcome.hits.map((h) => h.fingerprint)).size),
      ),
    );
}
