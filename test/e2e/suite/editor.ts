// What the in-host tests do in the editor: write and open workspace files, wait
// for Keyward's diagnostics, ask for its code actions and run them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { e2eEnv, waitFor } from './env.ts';

export const folder = (): string => e2eEnv().workspace.folder;

const absolute = (path: string) => (isAbsolute(path) ? path : join(folder(), path));

export function keyward(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Keyward');
}

/** Opens a file by its path in the workspace (or an absolute path). */
export async function open(path: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(absolute(path)));
  return vscode.window.showTextDocument(document);
}

export async function diagnosticsOf(path: string, count = 1): Promise<vscode.Diagnostic[]> {
  const editor = await open(path);
  return waitFor(`${count} diagnostic(s) in ${path}`, () => {
    const list = keyward(editor.document.uri);
    return list.length === count ? list : undefined;
  });
}

export async function actions(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  // The API hands actions back without their diagnostics; Keyward's titles are its own.
  // Markers can be between two publications when asked: ask again, as the light bulb does.
  // A request the editor cancels (the document changed under it) is asked again too.
  return waitFor("Keyward's code actions", async () => {
    const all = await vscode.commands
      .executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)
      .then(
        (list) => list,
        () => [],
      );
    return all.some((a) => /keyward-ignore|Rotate this key/.test(a.title)) ? all : undefined;
  });
}

/** Applies an action's edit and runs its command; gives the command's result. */
export async function run(action: vscode.CodeAction): Promise<unknown> {
  if (action.edit) await vscode.workspace.applyEdit(action.edit);
  return action.command
    ? vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []))
    : undefined;
}

export function write(path: string, text: string): vscode.Uri {
  mkdirSync(dirname(absolute(path)), { recursive: true });
  writeFileSync(absolute(path), text);
  return vscode.Uri.file(absolute(path));
}
