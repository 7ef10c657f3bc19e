// How Keyward asks the person a question and tells them something, as a port the classes that do so take in their
// constructor: VS Code's window in an ordinary run, the probe (dialogProbe.ts) when VS Code runs Keyward's own tests,
// whose host refuses modal dialogs. No class carries a member for the tests to swap.
import * as vscode from 'vscode';

export interface Dialogs {
  /** A modal question with its items (a `detail` under it when given); the item picked, or undefined for none. */
  ask(message: string, detail: string | undefined, ...items: string[]): Thenable<string | undefined>;
  /** A message to the person; nothing waits for it. */
  tell(level: 'info' | 'warning' | 'error', message: string): void;
}

export const windowDialogs: Dialogs = {
  ask: (message, detail, ...items) =>
    vscode.window.showWarningMessage(
      message,
      detail === undefined ? { modal: true } : { modal: true, detail },
      ...items,
    ),
  tell: (level, message) =>
    void (level === 'info'
      ? vscode.window.showInformationMessage(message)
      : level === 'warning'
        ? vscode.window.showWarningMessage(message)
        : vscode.window.showErrorMessage(message)),
};
