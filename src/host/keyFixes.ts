// Quick fixes for a flagged key; they share the diagnostic's code (the rule id).
import * as vscode from 'vscode';
import type { ServiceId } from '../shared/errorKinds.ts';
import { SERVICE_NAMES } from '../core/errors.ts';
import { ENV_VAR, appendGitignore, envReplacement, ignoreComment, isDotenvFile, upsertDotenv } from '../core/scan/fixes.ts';
import { CommandId } from './commandIds.ts';
import type { Configuration } from './configuration.ts';
import { DIAGNOSTIC_SOURCE, type KeyDiagnostic, type KeyDiagnostics } from './keyDiagnostics.ts';

const t = vscode.l10n.t;

export const FixCommand = {
  moveToEnv: 'keyward.fix.moveToEnv',
  storeAndRemove: 'keyward.fix.storeAndRemove',
  gitignoreFile: 'keyward.fix.gitignoreFile',
} as const;

function serviceOf(entry: KeyDiagnostic): ServiceId {
  return entry.finding.service;
}

async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
  } catch {
    return '';
  }
}

export class KeyFixes implements vscode.CodeActionProvider, vscode.Disposable {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  private readonly diagnostics: KeyDiagnostics;
  private readonly configuration: Configuration;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(diagnostics: KeyDiagnostics, configuration: Configuration) {
    this.diagnostics = diagnostics;
    this.configuration = configuration;
    this.disposables.push(
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, { providedCodeActionKinds: KeyFixes.kinds }),
      vscode.commands.registerCommand(FixCommand.moveToEnv, (uri: vscode.Uri, range: vscode.Range) => this.moveToEnv(uri, range)),
      vscode.commands.registerCommand(FixCommand.storeAndRemove, (uri: vscode.Uri, range: vscode.Range) => this.storeAndRemove(uri, range)),
      vscode.commands.registerCommand(FixCommand.gitignoreFile, (uri: vscode.Uri) => this.gitignoreFile(uri)),
    );
  }

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    for (const diagnostic of ours) {
      const entry = this.diagnostics.at(document.uri, diagnostic.range)[0];
      if (!entry) continue;
      const service = serviceOf(entry);
      const name = ENV_VAR[service];
      const make = (title: string, preferred = false) => {
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = preferred;
        return action;
      };
      const line = document.lineAt(entry.range.start.line).text;
      if (!isDotenvFile(document.fileName) && envReplacement(document.languageId, line, entry.range.start.character, entry.range.end.character, name)) {
        const action = make(t('Read {0} from the environment and move the key to .env', name), true);
        action.command = { title: action.title, command: FixCommand.moveToEnv, arguments: [document.uri, entry.range] };
        actions.push(action);
      }
      if (entry.finding.stored !== 'retired') {
        const action = make(entry.finding.stored === 'active' ? t('Remove the key from this file (it is stored in Keyward)') : t('Store the key in Keyward and remove it from this file'));
        action.command = { title: action.title, command: FixCommand.storeAndRemove, arguments: [document.uri, entry.range] };
        actions.push(action);
      }
      if (entry.git === 'untracked' && document.uri.scheme === 'file') {
        const action = make(t('Add {0} to .gitignore', vscode.workspace.asRelativePath(document.uri)));
        action.command = { title: action.title, command: FixCommand.gitignoreFile, arguments: [document.uri] };
        actions.push(action);
      }
      const comment = ignoreComment(document.languageId);
      if (comment) {
        const action = make(t('Ignore this line (keyward-ignore)'));
        action.edit = new vscode.WorkspaceEdit();
        action.edit.insert(document.uri, document.lineAt(entry.range.start.line).range.end, comment);
        actions.push(action);
      }
      const rotate = make(t('Rotate this key at the {0}', SERVICE_NAMES[service]));
      rotate.command = entry.finding.stored === 'active'
        ? { title: rotate.title, command: service === 'router' ? CommandId.rotateRouterKey : CommandId.rotateDirectKey }
        : { title: rotate.title, command: 'vscode.open', arguments: [vscode.Uri.parse(service === 'router' ? this.configuration.value.router.keysUrl : this.configuration.value.direct.keysUrl)] };
      actions.push(rotate);
    }
    return actions;
  }

  private entry(uri: vscode.Uri, range: vscode.Range): KeyDiagnostic | undefined {
    return this.diagnostics.at(uri, range)[0];
  }

  /** Replaces the literal with a read of the environment variable; the value goes to .env, and .env is git-ignored. */
  async moveToEnv(uri: vscode.Uri, range: vscode.Range): Promise<boolean> {
    const document = await vscode.workspace.openTextDocument(uri);
    const entry = this.entry(uri, range);
    if (!entry) return false;
    const key = document.getText(entry.range);
    const service = serviceOf(entry);
    const name = ENV_VAR[service];
    const line = document.lineAt(entry.range.start.line).text;
    const replacement = envReplacement(document.languageId, line, entry.range.start.character, entry.range.end.character, name);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!replacement || !folder) {
      void vscode.window.showWarningMessage(t('Keyward cannot rewrite this line for the environment; use another fix.'));
      return false;
    }
    const edit = new vscode.WorkspaceEdit();
    const lineNumber = entry.range.start.line;
    edit.replace(uri, new vscode.Range(lineNumber, replacement.start, lineNumber, replacement.end), replacement.text);
    if (document.languageId === 'python' && !/^\s*(import\s+os\b|from\s+os\s+import)/m.test(document.getText())) edit.insert(uri, new vscode.Position(0, 0), 'import os\n');
    const envUri = vscode.Uri.joinPath(folder.uri, '.env');
    const gitignoreUri = vscode.Uri.joinPath(folder.uri, '.gitignore');
    const envText = upsertDotenv(await readText(envUri), name, key);
    await vscode.workspace.fs.writeFile(envUri, Buffer.from(envText));
    const state = await this.diagnostics.git.status(envUri.fsPath);
    if (state === 'untracked' || state === 'tracked') {
      await vscode.workspace.fs.writeFile(gitignoreUri, Buffer.from(appendGitignore(await readText(gitignoreUri), '.env')));
      this.diagnostics.git.invalidate();
    }
    const applied = await vscode.workspace.applyEdit(edit);
    if (applied) await document.save();
    if (state === 'tracked') {
      void vscode.window.showWarningMessage(t('.env is tracked by git: adding it to .gitignore does not untrack it. Run "git rm --cached .env", and rotate the key.'));
    }
    return applied;
  }

  async storeAndRemove(uri: vscode.Uri, range: vscode.Range): Promise<boolean> {
    const document = await vscode.workspace.openTextDocument(uri);
    const entry = this.entry(uri, range);
    if (!entry) return false;
    const key = document.getText(entry.range);
    if (entry.finding.stored !== 'active') {
      const stored = await vscode.commands.executeCommand<ServiceId | undefined>(entry.finding.service === 'router' ? CommandId.setRouterKey : CommandId.setDirectKey, { key, quiet: false });
      if (!stored) return false;
    }
    const edit = new vscode.WorkspaceEdit();
    const line = document.lineAt(entry.range.start.line).text;
    const replacement = isDotenvFile(document.fileName) ? undefined : envReplacement(document.languageId, line, entry.range.start.character, entry.range.end.character, ENV_VAR[entry.finding.service]);
    const lineNumber = entry.range.start.line;
    if (replacement) edit.replace(uri, new vscode.Range(lineNumber, replacement.start, lineNumber, replacement.end), replacement.text);
    else edit.delete(uri, entry.range);
    return vscode.workspace.applyEdit(edit);
  }

  async gitignoreFile(uri: vscode.Uri): Promise<boolean> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return false;
    const root = (await this.diagnostics.git.root(vscode.Uri.joinPath(uri, '..').fsPath)) ?? folder.uri.fsPath;
    const rootUri = vscode.Uri.file(root);
    const relative = uri.fsPath.slice(root.length + 1).split('\\').join('/');
    const gitignoreUri = vscode.Uri.joinPath(rootUri, '.gitignore');
    await vscode.workspace.fs.writeFile(gitignoreUri, Buffer.from(appendGitignore(await readText(gitignoreUri), `/${relative}`)));
    this.diagnostics.git.invalidate();
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document) await this.diagnostics.full(document);
    return true;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
