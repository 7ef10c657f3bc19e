// Quick fixes for a flagged key; they share the diagnostic's code (the rule id).
// Every fix that moves a key writes its new home first and changes the source
// line only once that write is done, so the key is never lost nor left in two
// places; nothing is written through a symbolic link or outside the folder.
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { checkKey } from '../../core/keys/keyCheck.ts';
import { fingerprint } from '../../core/keys/keyFormats.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { maskKey, redactSecrets } from '../../core/redact.ts';
import {
  type SafeTarget,
  UnsafePath,
  readTarget,
  restoreTarget,
  safeTarget,
  writeTarget,
} from '../../core/safeWrite.ts';
import {
  ENV_VAR,
  appendDotenv,
  appendGitignore,
  envReplacement,
  ignoreComment,
  ignoreNextLine,
  isDotenvFile,
  planDotenv,
} from '../../core/scan/fixes.ts';
import { COMMITTED_KEY_CODE } from './committedKeys.ts';
import type { Configuration } from '../configuration.ts';
import { DIAGNOSTIC_SOURCE, type KeyDiagnostic, type KeyDiagnostics, realFilePath } from './keyDiagnostics.ts';
import { Disposable } from '../../shared/dispose.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';
import { PROVIDERS, isServiceOwner, ownerName } from '../../core/scan/providerRules.ts';

const t = vscode.l10n.t;

/** Findings whose text is not the key itself (pieces, base64): no fix moves them. */
const INDIRECT_RULES: ReadonlySet<string> = new Set(['split-key', 'encoded-key']);

export const FixCommand = {
  moveToEnv: 'keyward.fix.moveToEnv',
  storeAndRemove: 'keyward.fix.storeAndRemove',
  gitignoreFile: 'keyward.fix.gitignoreFile',
} as const;

/** Asks the person to pick one of the items; undefined is no. Tests script it. */
export type Ask = (message: string, ...items: string[]) => Thenable<string | undefined>;

function unsafeText(error: UnsafePath): string {
  switch (error.reason) {
    case 'symlink':
      return t('{0} is a symbolic link, and Keyward does not write through one.', error.path);
    case 'outside':
      return t('{0} would land outside the workspace folder.', error.path);
    case 'not_a_file':
      return t('{0} is not a regular file.', error.path);
    default:
      return t('{0} is not a folder of the workspace.', error.path);
  }
}

/**
 * Saves the document and waits on the save itself, however long a busy machine takes. VS Code's answer can be false
 * while its text still reaches the disk: a save already running takes ours as the next one, a save participant is
 * slow, or the text changed during the save and left the document dirty. So a false answer is followed by waiting
 * for the document's next save (or change) and asking again; only a document still dirty when `patienceMs` has
 * passed without a save is a failed save. The ceiling decides nothing on a working machine: events do.
 */
export async function saveToDisk(document: vscode.TextDocument, patienceMs: number): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    if (await document.save()) return true;
    if (!document.isDirty) return true;
    const left = deadline - Date.now();
    if (document.isClosed || left <= 0) return false;
    await nextSaveOrChange(document, left);
  }
}

/** Resolves when the document is saved or changed, or after `ms` at the latest. */
function nextSaveOrChange(document: vscode.TextDocument, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      saved.dispose();
      changed.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const saved = vscode.workspace.onDidSaveTextDocument((d) => d === document && done());
    const changed = vscode.workspace.onDidChangeTextDocument((e) => e.document === document && done());
  });
}

export class KeyFixes extends Disposable implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  private readonly diagnostics: KeyDiagnostics;
  private readonly configuration: Configuration;
  private readonly keys: KeyStore;
  ask: Ask = (message, ...items) => vscode.window.showWarningMessage(message, { modal: true }, ...items);
  /** How long a dirty document may go without a save before the move says it could not be saved (tests shorten it). */
  savePatienceMs = 60_000;
  /** What the fixes told the person, newest last (the in-host tests read why a fix refused). */
  readonly said: string[] = [];

  constructor(diagnostics: KeyDiagnostics, configuration: Configuration, keys: KeyStore) {
    super();
    this.diagnostics = diagnostics;
    this.configuration = configuration;
    this.keys = keys;
    for (const disposable of [
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, { providedCodeActionKinds: KeyFixes.kinds }),
      vscode.commands.registerCommand(FixCommand.moveToEnv, (uri: vscode.Uri, range: vscode.Range) =>
        this.moveToEnv(uri, range),
      ),
      vscode.commands.registerCommand(FixCommand.storeAndRemove, (uri: vscode.Uri, range: vscode.Range) =>
        this.storeAndRemove(uri, range),
      ),
      vscode.commands.registerCommand(FixCommand.gitignoreFile, (uri: vscode.Uri) => this.gitignoreFile(uri)),
    ])
      this._register(disposable);
  }

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    // Restricted Mode: no fix that writes a file or stores a key, only the way to rotate it.
    const trusted = vscode.workspace.isTrusted;
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    for (const diagnostic of ours) {
      if (diagnostic.code === COMMITTED_KEY_CODE) {
        // A key moved out of a tracked file: only rotating it ends the finding.
        for (const moved of this.diagnostics.committedAt(document.uri, diagnostic.range)) {
          const rotate = this.rotateAction(moved.service, moved.storedAtMove === moved.fingerprint);
          rotate.diagnostics = [diagnostic];
          rotate.isPreferred = true;
          actions.push(rotate);
        }
        continue;
      }
      const entry = this.diagnostics.at(document.uri, diagnostic.range)[0];
      // A key inside an archive or a source map's sources is not in this text: nothing here can edit it.
      if (!entry || entry.inner !== undefined) continue;
      const service = entry.finding.service;
      const name = ENV_VAR[service];
      const start = actions.length;
      // A split or encoded key is not the text under the finding: nothing can move it as it stands.
      const movable = !INDIRECT_RULES.has(entry.finding.ruleId);
      const make = (title: string, preferred = false) => {
        const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = preferred;
        return action;
      };
      const lineNumber = entry.range.start.line;
      const line = document.lineAt(lineNumber).text;
      const dotenv = isDotenvFile(document.fileName);
      if (
        trusted &&
        movable &&
        !dotenv &&
        envReplacement(document.languageId, line, entry.range.start.character, entry.range.end.character, name)
      ) {
        const action = make(t('Read {0} from the environment and move the key to .env', name), true);
        action.command = { title: action.title, command: FixCommand.moveToEnv, arguments: [document.uri, entry.range] };
        actions.push(action);
      }
      if (trusted && movable && isServiceOwner(service) && entry.finding.stored !== 'retired') {
        const action = make(
          entry.finding.stored === 'active'
            ? t('Remove the key from this file (it is stored in Keyward)')
            : t('Store the key in Keyward and remove it from this file'),
        );
        action.command = {
          title: action.title,
          command: FixCommand.storeAndRemove,
          arguments: [document.uri, entry.range],
        };
        actions.push(action);
      }
      if (trusted && entry.git === 'untracked' && document.uri.scheme === 'file') {
        const action = make(t('Add {0} to .gitignore', vscode.workspace.asRelativePath(document.uri)));
        action.command = { title: action.title, command: FixCommand.gitignoreFile, arguments: [document.uri] };
        actions.push(action);
      }
      const comment = dotenv ? ignoreNextLine(line) : ignoreComment(document.languageId);
      if (trusted && comment) {
        const base = dotenv
          ? t('Ignore this line (keyward-ignore-next-line above it)')
          : t('Ignore this line (keyward-ignore)');
        // Ignoring hides the finding; a committed key stays in every clone of the history.
        const action = make(
          entry.git === 'tracked' ? t('{0}: the key stays in git history, so rotate it too', base) : base,
        );
        action.edit = new vscode.WorkspaceEdit();
        if (dotenv) action.edit.insert(document.uri, new vscode.Position(lineNumber, 0), comment);
        else action.edit.insert(document.uri, document.lineAt(lineNumber).range.end, comment);
        actions.push(action);
      }
      let rotate: vscode.CodeAction;
      if (isServiceOwner(service)) rotate = this.rotateAction(service, entry.finding.stored === 'active');
      else {
        // Another provider's key is rotated on its own page.
        rotate = make(t('Rotate this key at {0}', ownerName(service)));
        rotate.command = {
          title: rotate.title,
          command: 'vscode.open',
          arguments: [vscode.Uri.parse(PROVIDERS[service].keysPage)],
        };
      }
      rotate.diagnostics = [diagnostic];
      if (entry.git === 'tracked') {
        // In a tracked file the key is in history: moving or ignoring it does not end the leak, rotating does
        // (GitGuardian keeps such an incident open until the secret is revoked).
        for (const action of actions.slice(start)) action.isPreferred = false;
        rotate.isPreferred = true;
        actions.splice(start, 0, rotate);
      } else actions.push(rotate);
    }
    return actions;
  }

  /** Rotating a key: Keyward's own Rotate for the stored key, else the service's key page. */
  private rotateAction(service: ServiceId, stored: boolean): vscode.CodeAction {
    const rotate = new vscode.CodeAction(
      t('Rotate this key at the {0}', SERVICE_NAMES[service]),
      vscode.CodeActionKind.QuickFix,
    );
    rotate.isPreferred = false;
    const keysPage = pagesOf(this.configuration.value, service).keys;
    rotate.command =
      stored || keysPage === null
        ? { title: rotate.title, command: SERVICES[service].commands.rotateKey }
        : { title: rotate.title, command: 'vscode.open', arguments: [vscode.Uri.parse(keysPage)] };
    return rotate;
  }

  private say(level: 'warning' | 'error', text: string): void {
    this.said.push(text);
    if (this.said.length > 50) this.said.shift();
    void (level === 'error' ? vscode.window.showErrorMessage(text) : vscode.window.showWarningMessage(text));
  }

  private entry(uri: vscode.Uri, range: vscode.Range): KeyDiagnostic | undefined {
    return this.diagnostics.at(uri, range).find((d) => d.inner === undefined);
  }

  /** The fixes that write are refused in Restricted Mode, however they are invoked. */
  private trusted(): boolean {
    if (vscode.workspace.isTrusted) return true;
    this.say(
      'warning',
      t(
        'Restricted Mode: Keyward does not change files or store keys for an untrusted folder. Trust the folder to use this fix.',
      ),
    );
    return false;
  }

  private refuse(text: string): false {
    this.say('error', t('Keyward did not move the key: {0} The key stays where it is.', text));
    return false;
  }

  /**
   * Replaces the literal with a read of the environment variable. Order: .env is
   * checked (no link, inside the folder, not tracked), git is made to ignore it,
   * the key is written to it, and only then is the source line changed.
   */
  async moveToEnv(uri: vscode.Uri, range: vscode.Range): Promise<boolean> {
    if (!this.trusted()) return false;
    const entry = this.entry(uri, range);
    if (!entry || INDIRECT_RULES.has(entry.finding.ruleId)) return false;
    const document = await vscode.workspace.openTextDocument(uri);
    const key = document.getText(entry.range);
    const line = document.lineAt(entry.range.start.line).text;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const base = ENV_VAR[entry.finding.service];
    if (
      !folder ||
      folder.uri.scheme !== 'file' ||
      !envReplacement(document.languageId, line, entry.range.start.character, entry.range.end.character, base)
    ) {
      this.say('warning', t('Keyward cannot rewrite this line for the environment; use another fix.'));
      return false;
    }

    let env: SafeTarget;
    try {
      env = await safeTarget(folder.uri.fsPath, '.env');
    } catch (error) {
      return this.refuse(error instanceof UnsafePath ? unsafeText(error) : redactSecrets((error as Error).message));
    }
    // A safety decision asks git afresh, not a cached answer from before the last commit.
    this.diagnostics.git.invalidate();
    let state = await this.diagnostics.git.status(env.path);
    if (state === 'tracked') {
      return this.refuse(
        t(
          '.env is tracked by git, so a key written there would be committed. Untrack it ("git rm --cached .env") or store the key in Keyward instead.',
        ),
      );
    }

    const existing = await readTarget(env);
    const plan = planDotenv(existing, base, key);
    let name = plan.name;
    if (plan.action === 'conflict') {
      const use = t('Use {0}', plan.alternative);
      const answer = await this.ask(
        t(
          '.env already sets {0} to another value ({1}), and Keyward does not overwrite it. Add this key as {2} instead?',
          base,
          maskKey(plan.existing),
          plan.alternative,
        ),
        use,
      );
      if (answer !== use) return false;
      name = plan.alternative;
    }

    if (state === 'untracked') {
      const ignored = await this.ignoreInGit(folder.uri.fsPath, '.env');
      if (ignored !== true) return this.refuse(ignored);
      state = await this.diagnostics.git.status(env.path);
      if (state !== 'ignored')
        return this.refuse(
          t(
            'git still does not ignore .env after adding it to .gitignore (another rule brings it back), so the key would be committed.',
          ),
        );
    }

    if (plan.action !== 'reuse') {
      try {
        await writeTarget(env, appendDotenv(existing, name, key));
      } catch (error) {
        return this.refuse(t('writing .env failed: {0}.', redactSecrets((error as Error).message)));
      }
    }

    const replacement = envReplacement(
      document.languageId,
      line,
      entry.range.start.character,
      entry.range.end.character,
      name,
    )!;
    const edit = new vscode.WorkspaceEdit();
    const unchanged = document.getText(entry.range) === key;
    const lineNumber = entry.range.start.line;
    edit.replace(uri, new vscode.Range(lineNumber, replacement.start, lineNumber, replacement.end), replacement.text);
    if (document.languageId === 'python' && !/^\s*(import\s+os\b|from\s+os\s+import)/m.test(document.getText()))
      edit.insert(uri, new vscode.Position(0, 0), 'import os\n');
    // The line may have been edited while a question was open: then it is not rewritten blind.
    const applied = unchanged && (await vscode.workspace.applyEdit(edit));
    if (!applied) {
      // The line kept its key: take it back out of .env rather than leave it in two places.
      if (plan.action !== 'reuse') await restoreTarget(env, existing).catch(() => undefined);
      return this.refuse(t('the editor did not accept the change to this line.'));
    }
    // Out of the line is not out of history: the finding stays until the key is rotated.
    this.diagnostics.rememberCommitted(uri, entry);
    // The key is in .env and out of the line; until the file is saved its old text is still on disk.
    if (!(await saveToDisk(document, this.savePatienceMs)))
      this.say(
        'warning',
        t(
          'The key is in .env and {0} reads it from the environment, but the file could not be saved yet: save it to take the key off the disk.',
          vscode.workspace.asRelativePath(uri),
        ),
      );
    return true;
  }

  /** Adds an entry to the folder's .gitignore, written safely; true, or why not. */
  private async ignoreInGit(folder: string, entry: string): Promise<true | string> {
    let gitignore: SafeTarget;
    try {
      gitignore = await safeTarget(folder, '.gitignore');
    } catch (error) {
      return error instanceof UnsafePath ? unsafeText(error) : redactSecrets((error as Error).message);
    }
    try {
      const text = await readTarget(gitignore);
      const next = appendGitignore(text, entry);
      if (next !== text) await writeTarget(gitignore, next, 0o644);
    } catch (error) {
      return t('writing .gitignore failed: {0}.', redactSecrets((error as Error).message));
    }
    this.diagnostics.git.invalidate();
    return true;
  }

  /**
   * Moves the key into Keyward's secret storage, then out of the file. The key
   * is checked with the service first: a key it refuses is never stored, and a
   * stored key is replaced only when the person says so.
   */
  async storeAndRemove(uri: vscode.Uri, range: vscode.Range): Promise<boolean> {
    if (!this.trusted()) return false;
    const document = await vscode.workspace.openTextDocument(uri);
    const entry = this.entry(uri, range);
    if (!entry) return false;
    const key = document.getText(entry.range);
    const service = entry.finding.service;
    if (!isServiceOwner(service) || INDIRECT_RULES.has(entry.finding.ruleId)) return false;
    if (entry.finding.stored !== 'active') {
      const stored = await this.store(service, key);
      if (!stored) return false;
    }
    if (document.getText(entry.range) !== key) return false;
    const edit = new vscode.WorkspaceEdit();
    const line = document.lineAt(entry.range.start.line).text;
    const replacement = isDotenvFile(document.fileName)
      ? undefined
      : envReplacement(
          document.languageId,
          line,
          entry.range.start.character,
          entry.range.end.character,
          ENV_VAR[service],
        );
    const lineNumber = entry.range.start.line;
    if (replacement)
      edit.replace(uri, new vscode.Range(lineNumber, replacement.start, lineNumber, replacement.end), replacement.text);
    else edit.delete(uri, entry.range);
    if (!(await vscode.workspace.applyEdit(edit))) return false;
    // Out of the line is not out of history: the finding stays until the key is rotated.
    this.diagnostics.rememberCommitted(uri, entry);
    return true;
  }

  private async store(service: ServiceId, key: string): Promise<boolean> {
    const name = SERVICE_NAMES[service];
    const masked = maskKey(key);
    const check = await checkKey(service, key, this.configuration.value);
    if (!check.ok && check.error.kind === 'auth') {
      this.say(
        'error',
        t(
          'The {0} refuses the key {1} ({2}), so Keyward did not store it and left the file as it is. Rotate it: a refused key in a file is still worth removing.',
          name,
          masked,
          redactSecrets(check.error.message, [key]),
        ),
      );
      return false;
    }
    if (!check.ok) {
      const anyway = t('Store Without Checking');
      const answer = await this.ask(
        t(
          'Keyward could not check the key {0} with the {1} ({2}). Store it anyway?',
          masked,
          name,
          redactSecrets(check.error.message, [key]),
        ),
        anyway,
      );
      if (answer !== anyway) return false;
    }
    const current = this.keys.metadata(service);
    if (current && current.fingerprint !== fingerprint(key)) {
      const replace = t('Replace Stored Key');
      const answer = await this.ask(
        t(
          'Keyward already stores a {0} key, {1}. Replace it with the key from this file, {2}? The stored key is then remembered as rotated out.',
          name,
          current.masked,
          masked,
        ),
        replace,
      );
      if (answer !== replace) return false;
    }
    const slot = await vscode.commands.executeCommand<ServiceId | undefined>(SERVICES[service].commands.setKey, {
      key,
      quiet: false,
    });
    // The file changes only when the key is really in secret storage.
    if (!slot) return false;
    return (await this.keys.getKey(slot).catch(() => undefined)) === key.trim();
  }

  /** Ignores the file in the workspace folder's own .gitignore (a path anchored there), never above it. */
  async gitignoreFile(uri: vscode.Uri): Promise<boolean> {
    if (!this.trusted()) return false;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || uri.scheme !== 'file' || folder.uri.scheme !== 'file') return false;
    const root = await realFilePath(folder.uri.fsPath);
    const rel = relative(root, await realFilePath(uri.fsPath));
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`))
      return this.refuse(unsafeText(new UnsafePath('outside', vscode.workspace.asRelativePath(uri))));
    const ignored = await this.ignoreInGit(root, `/${rel.split(sep).join('/')}`);
    if (ignored !== true) {
      this.say('error', t('Keyward did not change .gitignore: {0}', ignored));
      return false;
    }
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document) await this.diagnostics.full(document);
    return true;
  }
}
