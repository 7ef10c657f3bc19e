// What Install Pre-commit Hook does once asked (preCommitHookCommand.ts holds the command and its ports): pick the
// folder, look at the hook there, say what Keyward's hook does, and write it only when the person agrees. Loaded
// with the other on-demand commands (onDemandCommands.ts, dist/commands.js); the hook's own reading and writing
// (core/scan/preCommitHook.ts) is loaded on the first install, from the same file.
import * as vscode from 'vscode';
import type { HookState } from '../../core/scan/preCommitHook.ts';
import { redactSecrets } from '../../core/redact.ts';
import type { Dialogs } from '../dialogs.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

/** A modal question with an explanation; undefined is no. Tests script it. */

export type HookCommandOutcome =
  | { kind: 'installed'; path: string; replaced: 'nothing' | 'keyward' | 'foreign' }
  | { kind: 'declined'; path: string }
  | { kind: 'no_folder' }
  | Extract<HookState, { kind: 'not_a_repository' | 'unsafe' | 'foreign' }>
  | { kind: 'failed'; message: string };

/** What the steps ask and say through: the command's dialogs and log. */
export interface HookCommandHost {
  readonly dialogs: Dialogs;
  readonly log: Log;
}

export async function installHookCommand(command: HookCommandHost): Promise<HookCommandOutcome> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder =
    folders.length > 1
      ? await vscode.window.showWorkspaceFolderPick({
          placeHolder: t('Install the pre-commit hook for which folder?'),
        })
      : folders[0];
  if (!folder) {
    if (folders.length === 0)
      command.dialogs.tell('error', t('Open a folder inside a git repository to install a pre-commit hook.'));
    return { kind: 'no_folder' };
  }
  try {
    // Loaded on the command's first run, from a file of its own (esbuild.js): activation never parses it.
    const { inspectPreCommitHook, installPreCommitHook } = await import('../../core/scan/preCommitHook.ts');
    const state = await inspectPreCommitHook(folder.uri.fsPath);
    switch (state.kind) {
      case 'not_a_repository':
        command.dialogs.tell(
          'error',
          t('{0} is not inside a git repository, so there is no pre-commit hook to install.', folder.name),
        );
        return state;
      case 'unsafe':
        command.dialogs.tell(
          'error',
          t(
            '{0} is a symbolic link or not a regular file; Keyward does not write through it. Remove it and try again.',
            state.path,
          ),
        );
        return state;
      case 'absent':
      case 'keyward':
      case 'foreign':
        break;
    }
    const what = t(
      'Before each commit, git will run "keyward scan --staged" and refuse the commit when the staged changes add an API key (any provider Keyward knows). The hook runs the keyward command found now on PATH outside this repository, by its full path, never one the repository supplies. Install keyward first (npm install --global keyward), or with npm install --save-dev keyward run "npx keyward install-hook" in a terminal instead. To commit once without the check: git commit --no-verify.',
    );
    const install = state.kind === 'keyward' ? t('Update') : state.kind === 'foreign' ? t('Replace') : t('Install');
    const answer =
      state.kind === 'foreign'
        ? await command.dialogs.ask(
            t("{0} already holds another pre-commit hook. Replace it with Keyward's?", state.path),
            t(
              'The hook there now would stop running. To keep it, add "keyward scan --staged" to it yourself instead.',
            ) +
              '\n\n' +
              what,
            install,
          )
        : await command.dialogs.ask(t("Install Keyward's pre-commit hook in {0}?", state.path), what, install);
    if (answer !== install) return { kind: 'declined', path: state.path };
    const result = await installPreCommitHook(folder.uri.fsPath, { force: state.kind === 'foreign' });
    if (result.kind !== 'installed') {
      // Another hook appeared between the question and the write: it stays.
      command.dialogs.tell('error', t('{0} changed while Keyward asked; nothing was written.', state.path));
      return result;
    }
    command.log.info(
      `Installed the pre-commit hook at ${result.path} (replaced: ${result.replaced}; runs: ${result.keyward.join(' ') || 'nothing found'}).`,
    );
    command.dialogs.tell('info', t("Keyward's pre-commit hook is installed at {0}.", result.path));
    if (result.keyward.length === 0)
      command.dialogs.tell(
        'error',
        t(
          'No keyward command was found on PATH outside this repository, so the hook refuses every commit until one is: install keyward (npm install --global keyward) and run this command again.',
        ),
      );
    return result;
  } catch (error) {
    const message = redactSecrets((error as Error).message);
    command.log.error(`Installing the pre-commit hook failed: ${message}`);
    command.dialogs.tell('error', t('Keyward could not install the pre-commit hook: {0}', message));
    return { kind: 'failed', message };
  }
}
