import * as vscode from 'vscode';

/** A command whose handler names the arguments it reads (each place that runs it passes its own). */
export const command = <A extends unknown[]>(id: string, run: (...args: A) => unknown): vscode.Disposable =>
  vscode.commands.registerCommand(id, run as (...args: unknown[]) => unknown);
