// The workspace's team rules for the key diagnostics: .keyward.toml at the root of the repository holding a file,
// else of its workspace folder, as `keyward scan` reads it. The reader (with the TOML parser and the regex checks) is
// loaded on the first root that has such a file (dist/teamRules.js). Every problem is shown on the file's line: a
// refused rule as an Error (the editor runs the others), a field not supported as a Warning, one that only describes
// as Information. The rules are only read; nothing a file names is run.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { repositoryAbove } from '../../core/scan/ignoreFile.ts';
import type { TeamRules } from '../../core/scan/teamRules.ts';
import { TEAM_RULES_FILE, type TeamRuleProblem } from '../../core/scan/teamRuleProblem.ts';
import type { ScanOptions } from '../../core/scan/scanTypes.ts';
import { Disposable } from '../../shared/dispose.ts';
import { DIAGNOSTIC_SOURCE } from './diagnosticWording.ts';

const t = vscode.l10n.t;

type TeamRule = NonNullable<ScanOptions['teamRules']>[number];
const NONE: readonly TeamRule[] = [];

const SEVERITY: Record<TeamRuleProblem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  unsupported: vscode.DiagnosticSeverity.Warning,
  ignored: vscode.DiagnosticSeverity.Information,
};

export class TeamRuleFiles extends Disposable {
  private readonly roots = new Map<string, string | undefined>();
  private readonly loaded = new Map<string, Promise<readonly TeamRule[]>>();
  private readonly problems = this._register(vscode.languages.createDiagnosticCollection('keyward-team-rules'));

  /** `changed`: a rules file was written, created or deleted (read again, then rescan what is open). */
  constructor(changed: () => void) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${TEAM_RULES_FILE}`));
    for (const event of [watcher.onDidChange, watcher.onDidCreate, watcher.onDidDelete])
      this._register(
        event(() => {
          this.clear();
          changed();
        }),
      );
  }

  /** `base` with the team rules that apply to the file, if any. */
  async withRules(uri: vscode.Uri, base: ScanOptions): Promise<ScanOptions> {
    const rules = await this.rulesFor(uri);
    return rules.length > 0 ? { ...base, teamRules: rules } : base;
  }

  /** Forgets what was read: the files are read again on the next lookup. */
  clear(): void {
    this.roots.clear();
    this.loaded.clear();
    this.problems.clear();
  }

  /** The team rules that apply to a file: none outside the workspace or without a .keyward.toml at its root. */
  rulesFor(uri: vscode.Uri): Promise<readonly TeamRule[]> {
    if (uri.scheme !== 'file') return Promise.resolve(NONE);
    const root = this.rootOf(uri.fsPath);
    if (root === undefined) return Promise.resolve(NONE);
    let rules = this.loaded.get(root);
    if (!rules) {
      rules = existsSync(join(root, TEAM_RULES_FILE)) ? this.load(root) : Promise.resolve(NONE);
      this.loaded.set(root, rules);
    }
    return rules;
  }

  private rootOf(path: string): string | undefined {
    const folder = dirname(path);
    if (!this.roots.has(folder)) {
      const inside = (vscode.workspace.workspaceFolders ?? [])
        .map((f) => f.uri.fsPath)
        .filter((f) => folder === f || folder.startsWith(f.endsWith(sep) ? f : f + sep))
        .sort((a, b) => b.length - a.length)[0];
      // As .keywardignore is found (ignoreFile.ts IgnoreFileCache): the repository's root, else the folder's.
      this.roots.set(folder, repositoryAbove(folder, inside) ?? inside);
    }
    return this.roots.get(folder);
  }

  private async load(root: string): Promise<readonly TeamRule[]> {
    const shown = (path: string) => relative(root, path).split(sep).join('/');
    let read: TeamRules | undefined;
    try {
      const { loadTeamRules } = await import('../../core/scan/teamRulesFile.ts');
      read = loadTeamRules(root, shown);
    } catch (error) {
      // Named on the file, never a silent scan without the team's rules.
      const message = `team rules not read: ${(error as Error).message}`;
      read = {
        file: TEAM_RULES_FILE,
        rules: [],
        problems: [{ file: TEAM_RULES_FILE, line: 0, severity: 'error', message }],
      };
    }
    if (read) this.show(root, read);
    return read?.rules ?? NONE;
  }

  private show(root: string, read: TeamRules): void {
    this.problems.set(
      vscode.Uri.file(join(root, TEAM_RULES_FILE)),
      read.problems.map((p) => {
        const line = Math.max(0, p.line - 1);
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
          p.severity === 'error'
            ? t('This team rule does not run: {0}', p.message)
            : t('Keyward team rules: {0}', p.message),
          SEVERITY[p.severity],
        );
        diagnostic.source = DIAGNOSTIC_SOURCE;
        return diagnostic;
      }),
    );
  }
}
