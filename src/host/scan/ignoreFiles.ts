// The workspace's .keywardignore files for the key diagnostics: which entry covers a finding, and each refused line
// shown on its file as an Error (it suppresses nothing, and a silent refusal would read as a working entry).
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  IGNORE_FILE,
  IgnoreFileCache,
  type IgnoreRules,
  type Suppression,
  suppressionFor,
} from '../../core/scan/ignoreFile.ts';
import type { Finding } from '../../core/scan/scanner.ts';
import { Disposable } from '../../shared/dispose.ts';
import { DIAGNOSTIC_SOURCE } from './diagnosticWording.ts';

const t = vscode.l10n.t;

export class IgnoreFiles extends Disposable {
  private readonly cache = new IgnoreFileCache();
  /** The lines of each .keywardignore that were refused, on that file: they suppress nothing. */
  private readonly problems = this._register(vscode.languages.createDiagnosticCollection('keyward-ignore'));

  constructor() {
    super();
    this.cache.onLoad = (root, rules) => this.showProblems(root, rules);
  }

  /** Forgets what was read: the files are read again on the next lookup. */
  clear(): void {
    this.cache.clear();
    this.problems.clear();
  }

  /** The .keywardignore entry that covers a finding in a file (or an entry inside it), if any. */
  says(uri: vscode.Uri, finding: Finding, inner: string | undefined): Suppression | undefined {
    if (uri.scheme !== 'file') return undefined;
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const found = this.cache.lookup(uri.fsPath, folders);
    if (!found) return undefined;
    return suppressionFor(found.rules, inner === undefined ? found.rel : `${found.rel}!${inner}`, finding.fingerprint);
  }

  private showProblems(root: string, rules: IgnoreRules | undefined): void {
    const uri = vscode.Uri.file(join(root, IGNORE_FILE));
    this.problems.set(
      uri,
      (rules?.problems ?? []).map((p) => {
        const line = Math.max(0, p.line - 1);
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
          t('This line of .keywardignore suppresses nothing: {0}', p.message),
          vscode.DiagnosticSeverity.Error,
        );
        diagnostic.source = DIAGNOSTIC_SOURCE;
        return diagnostic;
      }),
    );
  }
}
