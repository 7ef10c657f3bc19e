// Keyward: Install Pre-commit Hook, for the repository of a workspace folder. Says what
// the hook does before writing it, and replaces another tool's hook only when asked. The command's steps
// (preCommitHookRun.ts) load with the other on-demand commands (dist/commands.js) on its first run.
import { type Dialogs, windowDialogs } from '../dialogs.ts';
import type { Log } from '../log.ts';
import type { HookCommandOutcome } from './preCommitHookRun.ts';

export type { HookCommandOutcome };

export class PreCommitHookCommand {
  readonly log: Log;
  /** Where the command asks and tells (dialogs.ts). */
  readonly dialogs: Dialogs;

  constructor(log: Log, dialogs: Dialogs = windowDialogs) {
    this.log = log;
    this.dialogs = dialogs;
  }

  async run(): Promise<HookCommandOutcome> {
    return (await import('../onDemandCommands.ts')).installHookCommand(this);
  }
}
