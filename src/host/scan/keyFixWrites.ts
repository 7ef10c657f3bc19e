// What the quick fixes that write do (keyFixes.ts offers them): move a key to .env, store it in Keyward and take it out
// of the file, ignore the file in git. Each writes the key's new home first and changes the source line only once
// that write is done, so the key is never lost nor left in two places; nothing is written through a symbolic link or
// outside the folder. Loaded with the other on-demand commands (onDemandCommands.ts, dist/commands.js) when a fix
// first runs, so that activation does not parse it (bench/bundle.ts).
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { checkKey } from '../../core/services/keyCheck.ts';
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
  INDIRECT_RULES,
  appendDotenv,
  appendGitignore,
  envReplacement,
  isDotenvFile,
  type DotenvPlan,
  planDotenv,
} from '../../core/scan/fixes.ts';
import type { GitState } from '../../core/scan/gitStatus.ts';
import type { Configuration } from '../configuration.ts';
import { type KeyDiagnostic, type KeyDiagnostics, realFilePath } from './keyDiagnostics.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { isServiceOwner } from '../../core/scan/providerRules.ts';

const t = vscode.l10n.t;

/** What the fixes read and say through: the provider's parts, and its dialogs (host/dialogs.ts). */
export interface FixHost {
  readonly diagnostics: KeyDiagnostics;
  readonly configuration: Configuration;
  readonly keys: KeyStore;
  /** Asks the person to pick one of the items; undefined is no. */
  ask(message: string, ...items: string[]): Thenable<string | undefined>;
  say(level: 'warning' | 'error', text: string): void;
  /** How long a dirty document may go without a save before the move says it could not be saved. */
  savePatience(): number;
}

/** The folder's .env, checked safe to write, and what git says of it. */
interface DotenvFile {
  target: SafeTarget;
  state: GitState;
}

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
async function saveToDisk(document: vscode.TextDocument, patienceMs: number): Promise<boolean> {
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

export class KeyFixWrites {
  private readonly host: FixHost;

  constructor(host: FixHost) {
    this.host = host;
  }

  private entry(uri: vscode.Uri, range: vscode.Range): KeyDiagnostic | undefined {
    return this.host.diagnostics.at(uri, range).find((d) => d.inner === undefined);
  }

  /** The fixes that write are refused in Restricted Mode, however they are invoked. */
  private trusted(): boolean {
    if (vscode.workspace.isTrusted) return true;
    this.host.say(
      'warning',
      t(
        'Restricted Mode: Keyward does not change files or store keys for an untrusted folder. Trust the folder to use this fix.',
      ),
    );
    return false;
  }

  private refuse(text: string): false {
    this.host.say('error', t('Keyward did not move the key: {0} The key stays where it is.', text));
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
      this.host.say('warning', t('Keyward cannot rewrite this line for the environment; use another fix.'));
      return false;
    }
    const env = await this.envFile(folder.uri.fsPath);
    if (typeof env === 'string') return this.refuse(env);
    const existing = await readTarget(env.target);
    const plan = planDotenv(existing, base, key);
    const name = await this.nameFor(plan, base);
    if (name === undefined) return false;
    const ignored = await this.ensureIgnored(folder.uri.fsPath, env);
    if (ignored !== true) return this.refuse(ignored);
    if (plan.action !== 'reuse') {
      try {
        await writeTarget(env.target, appendDotenv(existing, name, key));
      } catch (error) {
        return this.refuse(t('writing .env failed: {0}.', redactSecrets((error as Error).message)));
      }
    }
    const replaced = await this.readFromEnv(document, entry, key, line, name);
    if (!replaced) {
      // The line kept its key: take it back out of .env rather than leave it in two places.
      if (plan.action !== 'reuse') await restoreTarget(env.target, existing).catch(() => undefined);
      return this.refuse(t('the editor did not accept the change to this line.'));
    }
    // Out of the line is not out of history: the finding stays until the key is rotated.
    this.host.diagnostics.rememberCommitted(uri, entry);
    // The key is in .env and out of the line; until the file is saved its old text is still on disk.
    if (!(await saveToDisk(document, this.host.savePatience())))
      this.host.say(
        'warning',
        t(
          'The key is in .env and {0} reads it from the environment, but the file could not be saved yet: save it to take the key off the disk.',
          vscode.workspace.asRelativePath(uri),
        ),
      );
    return true;
  }

  /** The folder's .env, safe to write (no link, inside the folder) and not tracked by git; else why not. */
  private async envFile(folder: string): Promise<DotenvFile | string> {
    let target: SafeTarget;
    try {
      target = await safeTarget(folder, '.env');
    } catch (error) {
      return error instanceof UnsafePath ? unsafeText(error) : redactSecrets((error as Error).message);
    }
    // A safety decision asks git afresh, not a cached answer from before the last commit.
    this.host.diagnostics.git.invalidate();
    const state = await this.host.diagnostics.git.status(target.path);
    if (state === 'tracked')
      return t(
        '.env is tracked by git, so a key written there would be committed. Untrack it ("git rm --cached .env") or store the key in Keyward instead.',
      );
    return { target, state };
  }

  /** The variable's name: the plan's, or, when .env holds another value under it, the alternative if the person agrees. */
  private async nameFor(plan: DotenvPlan, base: string): Promise<string | undefined> {
    if (plan.action !== 'conflict') return plan.name;
    const use = t('Use {0}', plan.alternative);
    const answer = await this.host.ask(
      t(
        '.env already sets {0} to another value ({1}), and Keyward does not overwrite it. Add this key as {2} instead?',
        base,
        maskKey(plan.existing),
        plan.alternative,
      ),
      use,
    );
    return answer === use ? plan.alternative : undefined;
  }

  /** An untracked .env is added to .gitignore, and git is asked again that it now ignores it; true, or why not. */
  private async ensureIgnored(folder: string, env: DotenvFile): Promise<true | string> {
    if (env.state !== 'untracked') return true;
    const ignored = await this.ignoreInGit(folder, '.env');
    if (ignored !== true) return ignored;
    if ((await this.host.diagnostics.git.status(env.target.path)) !== 'ignored')
      return t(
        'git still does not ignore .env after adding it to .gitignore (another rule brings it back), so the key would be committed.',
      );
    return true;
  }

  /** Rewrites the line to read the variable (and imports os in Python); false when the editor refused it. */
  private async readFromEnv(
    document: vscode.TextDocument,
    entry: KeyDiagnostic,
    key: string,
    line: string,
    name: string,
  ): Promise<boolean> {
    const uri = document.uri;
    const { start, end } = entry.range;
    const replacement = envReplacement(document.languageId, line, start.character, end.character, name)!;
    const edit = new vscode.WorkspaceEdit();
    const unchanged = document.getText(entry.range) === key;
    edit.replace(uri, new vscode.Range(start.line, replacement.start, start.line, replacement.end), replacement.text);
    if (document.languageId === 'python' && !/^\s*(import\s+os\b|from\s+os\s+import)/m.test(document.getText()))
      edit.insert(uri, new vscode.Position(0, 0), 'import os\n');
    // The line may have been edited while a question was open: then it is not rewritten blind.
    return unchanged && (await vscode.workspace.applyEdit(edit));
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
    this.host.diagnostics.git.invalidate();
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
    this.host.diagnostics.rememberCommitted(uri, entry);
    return true;
  }

  private async store(service: ServiceId, key: string): Promise<boolean> {
    const name = SERVICE_NAMES[service];
    const masked = maskKey(key);
    const check = await checkKey(service, key, this.host.configuration.value);
    if (!check.ok && check.error.kind === 'auth') {
      this.host.say(
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
      const answer = await this.host.ask(
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
    const current = this.host.keys.metadata(service);
    if (current && current.fingerprint !== fingerprint(key)) {
      const replace = t('Replace Stored Key');
      const answer = await this.host.ask(
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
    return (await this.host.keys.getKey(slot).catch(() => undefined)) === key.trim();
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
      this.host.say('error', t('Keyward did not change .gitignore: {0}', ignored));
      return false;
    }
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document) await this.host.diagnostics.full(document);
    return true;
  }
}
