// Ticks the walkthrough's steps that no command of ours completes. An
// `onContext:` completion event alone is not enough: VS Code creates its
// walkthrough service only when the Welcome page first needs it, and a context
// key that is already true then is noted without ticking the step
// (microsoft/vscode src/vs/workbench/contrib/welcomeGettingStarted/browser/
// gettingStartedService.ts, registerDoneListeners). So the step is also marked
// complete by its id, through the workbench's own command.
import * as vscode from 'vscode';

/** `<publisher>.<name>#<walkthrough id>#<step id>`, as package.json declares them. */
export const FIRST_PROMPT_STEP = 'keyward.keyward#keyward.start#free';

/** After an answer: the context key (for `when` clauses) and the step itself; ticking it again changes nothing. */
export function tickFirstPrompt(): void {
  void vscode.commands.executeCommand('setContext', 'keyward.promptSent', true);
  // A host without the Welcome page (or an older one) lacks the command: the walkthrough is a courtesy, not a duty.
  void vscode.commands.executeCommand('welcome.markStepComplete', FIRST_PROMPT_STEP).then(undefined, () => undefined);
}
