// Keyward: Install Pre-commit Hook, for the repository of a workspace folder. Says what
// the hook does before writing it, and replaces another tool's hook only when asked. The command's steps
// (preCommitHookRun.ts) load with the other on-demand commands (dist/commands.js) on its first run.
import * as vscode from 'vscode';
import type { Log } from '../log.ts';
import type { AskWithDetail, HookCommandOutcome } from './preCommitHookRun.ts';

export type { AskWithDetail, HookCommandOutcome };

export class PreCommitHookCommand {
  readonly log: Log;
  ask: AskWithDetail = (message, detail, ...items) =>
    vscode.window.showWarningMessage(message, { modal: true, detail }, ...items);
  /** What the command told the person, newest last (the in-host tests read it). */
  readonly said: string[] = [];

  constructor(log: Log) {
    this.log = log;
  }

  /** Tells the person, and keeps it in `said`. */
  tell(kind: 'info' | 'error', message: string): void {
    this.said.push(message);
    void (kind === 'info' ? vscode.window.showInformationMessage(message) : vscode.window.showErrorMessage(message));
  }

  async run(): Promise<HookCommandOutcome> {
    return (await import('../onDemandCommands.ts')).installHookCommand(this);
  }
}
