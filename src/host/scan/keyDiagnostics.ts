// Flags key strings in open documents as you type, graded by where git stands:
// tracked (Error: it is in history), would be committed (Warning), ignored
// (Information, or off), not in a repository (Warning). In Restricted Mode git
// is not run at all (a repository's config could run programs): Warning, said so.
import * as vscode from 'vscode';
import { redactSecrets } from '../../core/redact.ts';
import { type KeyStore, scannerKeys } from '../../core/keys/keyStore.ts';
import { GitStatusCache } from '../../core/scan/gitStatus.ts';
import { IncrementalScan } from '../../core/scan/incremental.ts';
import { isSourceMap } from '../../core/scan/sourceMapName.ts';
import { IGNORE_FILE, type Suppression } from '../../core/scan/ignoreFile.ts';
import { type Finding, type ScanOptions, optionsFor } from '../../core/scan/scanner.ts';
import type { ScanThread } from '../../core/scan/scanThread.ts';
import { isServiceOwner } from '../../core/scan/providerRules.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';
import type { Configuration } from '../configuration.ts';
import type { Verification } from '../../core/scan/verify.ts';
import {
  DIAGNOSTIC_SOURCE,
  type FileState,
  committedMessage,
  findingSeverity,
  message,
  notScannedMessage,
} from './diagnosticWording.ts';
import { triageNote } from './triageNote.ts';
import { fileGitState, realFilePath } from './realPath.ts';
import { type PlacedFinding, shippedFindings } from './shippedFindings.ts';
import { GitWatch } from './gitWatch.ts';
import { IgnoreFiles } from './ignoreFiles.ts';
import { TeamRuleFiles } from './teamRuleFiles.ts';
import {
  COMMITTED_KEY_CODE,
  type CommittedKey,
  CommittedKeys,
  type RotationSigns,
  committedFrom,
} from './committedKeys.ts';

export type { FileState, PlacedFinding };
export { DIAGNOSTIC_SOURCE, realFilePath };
/** The code of the notice on a document too large to scan as it is typed. */
export const NOT_SCANNED_CODE = 'not-scanned';
/**
 * Characters of a document scanned on the extension host's own thread; a larger one goes to the scanner thread, so
 * no scan holds the event loop every extension shares (a megabyte of crafted text is a second's work or more).
 */
export const IN_LINE_SCAN = 64 * 1024;
const COMMITTED_STATE = 'keyward.committedKeys';

export interface KeyDiagnostic {
  finding: Finding;
  range: vscode.Range;
  git: FileState;
  /** What the key's service said, once someone asked (never asked on its own). */
  verification?: Verification;
  /**
   * Where the key really is when it is inside the file rather than in its
   * text: an archive's entry (`extension/dist/x.js`) or a source map's original
   * source. The finding's line and column are there, the range is the file's
   * start, and no fix edits it.
   */
  inner?: string;
  /** The .keywardignore line that suppresses it: shown at Hint severity, saying so, never hidden. */
  suppression?: Suppression;
}

export class KeyDiagnostics extends Disposable {
  readonly collection = this._register(vscode.languages.createDiagnosticCollection('keyward'));
  private readonly ignoreFiles = this._register(new IgnoreFiles());
  private readonly teamRules = this._register(new TeamRuleFiles(() => this.rescanAll()));
  readonly git = new GitStatusCache();
  private readonly scans = new Map<string, IncrementalScan>();
  private readonly byUri = new Map<string, KeyDiagnostic[]>();
  /** The Uri each published key came from, to publish it again as it was. */
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly pending = new Map<string, vscode.TextDocumentContentChangeEvent[]>();
  private options: ScanOptions = {};
  private readonly keys: KeyStore;
  private readonly diagnosticsChanged = this._register(new Emitter<void>());
  /** Liveness answers by fingerprint, set by the "Check whether this key is live" action. */
  verificationOf: (fingerprint: string) => Verification | undefined = () => undefined;
  /** Keys moved out of tracked files: still findings there until they are rotated. */
  private readonly committed: CommittedKeys;

  /** Its settings, typed; the workspace scan reads its size cap here too. */
  readonly configuration: Configuration;

  /** Scans large documents off the extension host's thread; without one (unit tests) they are scanned in line. */
  private readonly thread: Pick<ScanThread, 'scan'> | undefined;
  /** Documents whose last scan was whole, off the thread or refused for size: every edit rescans them whole. */
  private readonly whole = new Set<string>();

  /** `state` (workspace state, through the filter for disk) keeps the keys moved out of tracked files across reloads. */
  constructor(keys: KeyStore, configuration: Configuration, state?: vscode.Memento, thread?: Pick<ScanThread, 'scan'>) {
    super();
    this.thread = thread;
    // Edits waiting for their rescan are dropped with the rest.
    this._register(toDisposable(() => this.timers.forEach((timer) => clearTimeout(timer))));
    this.keys = keys;
    this.configuration = configuration;
    this.committed = new CommittedKeys(committedFrom(state?.get(COMMITTED_STATE)), (list) => {
      void Promise.resolve(state?.update(COMMITTED_STATE, list)).catch(() => undefined);
    });
    let ignoredFiles = configuration.value.diagnostics.ignoredFiles;
    for (const disposable of [
      vscode.workspace.onDidOpenTextDocument((doc) => void this.full(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc.uri)),
      vscode.workspace.onDidChangeTextDocument((event) => this.changed(event)),
      vscode.workspace.onDidSaveTextDocument(() => void this.gitChanged()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.gitChanged()),
      // After Configuration has read the new value, which a listener of VS Code's own event may not see yet.
      configuration.onDidChange((config) => {
        if (config.diagnostics.ignoredFiles === ignoredFiles) return;
        ignoredFiles = config.diagnostics.ignoredFiles;
        this.rescanAll();
      }),
      keys.onDidChange(() => void this.reloadKeys()),
    ])
      this._register(disposable);
    this._register(new GitWatch(() => void this.gitChanged()));
    // A changed ignore file changes what is suppressed: read again, then word every finding again.
    const ignoreWatcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${IGNORE_FILE}`));
    for (const event of [ignoreWatcher.onDidChange, ignoreWatcher.onDidCreate, ignoreWatcher.onDidDelete])
      this._register(event(() => this.ignoreFileChanged()));
    void this.reloadKeys();
  }

  /** Reads the ignore files again and re-places every published finding. */
  ignoreFileChanged(): void {
    this.ignoreFiles.clear();
    this.reword();
  }

  /** The .keywardignore entry that suppresses a finding; never the key stored in Keyward, whatever the file says. */
  suppressionOf(uri: vscode.Uri, finding: Finding, inner: string | undefined): Suppression | undefined {
    return finding.stored === 'active' ? undefined : this.ignoreFiles.says(uri, finding, inner);
  }

  onDidChange(listener: () => void): Subscription {
    return this.diagnosticsChanged.event(listener);
  }

  /** Findings at a document position (for hovers and quick fixes). */
  at(uri: vscode.Uri, range: vscode.Range | vscode.Position): KeyDiagnostic[] {
    return (this.byUri.get(uri.toString()) ?? []).filter((d) =>
      range instanceof vscode.Position ? d.range.contains(range) : d.range.intersection(range) !== undefined,
    );
  }

  all(uri: vscode.Uri): readonly KeyDiagnostic[] {
    return this.byUri.get(uri.toString()) ?? [];
  }

  private async reloadKeys(): Promise<void> {
    this.options = await scannerKeys(this.keys).catch(() => ({}));
    // Each open document's scan takes the new options in full().
    this.rescanAll();
    // A rotation clears a moved key's finding in files that are not open too.
    this.replaceCommitted();
  }

  /**
   * A key was moved out of a file git tracks: it stays a finding there until it is rotated (see committedKeys.ts).
   * Called by a fix once the key is out of the line.
   */
  rememberCommitted(uri: vscode.Uri, entry: KeyDiagnostic): void {
    if (entry.git !== 'tracked' || entry.inner !== undefined) return;
    const { finding } = entry;
    // Rotation is known only for a service Keyward holds a key of (its stored key changes, or a live check).
    if (!isServiceOwner(finding.service)) return;
    this.committed.add({
      uri: uri.toString(),
      line: finding.line,
      column: finding.column,
      service: finding.service,
      masked: finding.masked,
      fingerprint: finding.fingerprint,
      storedAtMove: this.keys.metadata(finding.service)?.fingerprint ?? null,
    });
    this.place(
      uri,
      this.all(uri).map((e) => ({ finding: e.finding, ...(e.inner === undefined ? {} : { inner: e.inner }) })),
      'tracked',
    );
  }

  /** The moved keys whose finding is at a place in the document (for the quick fixes). */
  committedAt(uri: vscode.Uri, range: vscode.Range | vscode.Position): CommittedKey[] {
    return this.committed
      .of(uri.toString())
      .filter(
        (k) =>
          this.committedRange(k).intersection(
            range instanceof vscode.Position ? new vscode.Range(range, range) : range,
          ) !== undefined,
      );
  }

  private committedRange(key: CommittedKey): vscode.Range {
    return new vscode.Range(key.line, key.column, key.line, key.column);
  }

  private signs(): RotationSigns {
    return {
      stored: (service) => this.keys.metadata(service)?.fingerprint ?? null,
      retired: () => new Set(this.keys.retired().map((r) => r.fingerprint)),
      verification: (fingerprint) => this.verificationOf(fingerprint),
    };
  }

  /** Publishes again every file with a moved key, open or not, so a rotation clears its finding. */
  private replaceCommitted(): void {
    for (const key of this.committed.uris()) {
      const uri = vscode.Uri.parse(key);
      const entries = this.all(uri);
      this.place(
        uri,
        entries.map((e) => ({ finding: e.finding, ...(e.inner === undefined ? {} : { inner: e.inner }) })),
        entries[0]?.git ?? 'tracked',
      );
    }
  }

  private rescanAll(): void {
    for (const doc of vscode.workspace.textDocuments) void this.full(doc);
  }

  /** Every open document graded again: git asked once for them all, then each published. */
  private async gitChanged(): Promise<void> {
    this.git.invalidate();
    const docs = vscode.workspace.textDocuments.filter(
      (doc) => this.scans.has(doc.uri.toString()) || (this.tracked(doc) && isSourceMap(doc.uri.path)),
    );
    const files = docs.filter((doc) => doc.uri.scheme === 'file').map((doc) => doc.uri.fsPath);
    if (vscode.workspace.isTrusted && files.length > 1) {
      // All at once (dist/gitPrefetch.js). False: changed again meanwhile; the newest grading publishes instead.
      const { prefetchStates } = await import('../../core/scan/gitPrefetch.ts');
      if (!(await prefetchStates(this.git, files).catch(() => true))) return;
    }
    const publish = (doc: vscode.TextDocument, scan = this.scans.get(doc.uri.toString())) =>
      scan ? this.publish(doc, scan.findings) : isSourceMap(doc.uri.path) && this.publishSourceMap(doc);
    await Promise.all(docs.map((doc) => publish(doc)));
  }

  private tracked(doc: vscode.TextDocument): boolean {
    return doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled' || doc.uri.scheme === 'vscode-remote';
  }

  async full(doc: vscode.TextDocument): Promise<void> {
    if (!this.tracked(doc)) return;
    if (isSourceMap(doc.uri.path)) return this.publishSourceMap(doc);
    const key = doc.uri.toString();
    const options = await this.scanOptionsFor(doc.uri);
    const text = doc.getText();
    const bytes = Buffer.byteLength(text);
    const cap = this.configuration.value.scan.maxFileSizeKb * 1024;
    if (bytes > cap) {
      this.whole.add(key);
      this.scans.delete(key);
      return this.refuse(doc, bytes);
    }
    let scan = this.scans.get(key);
    if (!scan) this.scans.set(key, (scan = new IncrementalScan(options)));
    else scan.setOptions(options);
    if (text.length <= IN_LINE_SCAN || !this.thread) {
      this.whole.delete(key);
      return this.publish(doc, scan.reset(text));
    }
    this.whole.add(key);
    const findings = await this.thread.scan(key, text, options);
    // Superseded by a newer text, or the document closed meanwhile: its own scan publishes.
    if (findings === undefined || this.scans.get(key) !== scan) return;
    await this.publish(doc, scan.adopt(findings));
  }

  /**
   * A document over keyward.scan.maxFileSizeKb is not scanned as it is typed, and says so where its problems are
   * shown: no diagnostic would otherwise read as "no key here".
   */
  private async refuse(doc: vscode.TextDocument, bytes: number): Promise<void> {
    const state = doc.isUntitled ? 'unsaved' : await this.fileState(doc.uri);
    this.place(doc.uri, [], state);
    const notice = new vscode.Diagnostic(
      new vscode.Range(0, 0, 0, 0),
      notScannedMessage(bytes, this.configuration.value.scan.maxFileSizeKb),
      vscode.DiagnosticSeverity.Information,
    );
    notice.source = DIAGNOSTIC_SOURCE;
    notice.code = NOT_SCANNED_CODE;
    this.collection.set(doc.uri, [...(this.collection.get(doc.uri) ?? []), notice]);
  }

  private changed(event: vscode.TextDocumentChangeEvent): void {
    const doc = event.document;
    if (!this.tracked(doc) || event.contentChanges.length === 0) return;
    const key = doc.uri.toString();
    const list = this.pending.get(key) ?? [];
    list.push(...event.contentChanges);
    this.pending.set(key, list);
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => this.flush(doc), 150),
    );
  }

  /** Rescans only the lines the edits touched since the last pass. */
  private flush(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const changes = this.pending.get(key) ?? [];
    this.pending.delete(key);
    this.timers.delete(key);
    const scan = this.scans.get(key);
    if (!scan || changes.length !== 1 || this.whole.has(key)) {
      // Several edits at once (multi-cursor, format): one full pass is simpler and still fast. A large document is
      // always scanned whole, off the thread.
      void this.full(doc);
      return;
    }
    const change = changes[0]!;
    const addedLines = change.text.split('\n').length - 1;
    const startLine = change.range.start.line;
    const findings = scan.applyEdit(
      { startLine, oldEndLine: change.range.end.line, newEndLine: startLine + addedLines },
      (i) => (i < doc.lineCount ? doc.lineAt(i).text : undefined),
    );
    void this.publish(doc, findings);
  }

  /**
   * A source map open in the editor is read as `keyward scan` reads it: each
   * original source a file of its own for allow comments (read as one line,
   * one source's `keyward-ignore` hid the others' keys), whole at every change
   * (no edit of its one line is small).
   */
  private async publishSourceMap(doc: vscode.TextDocument): Promise<void> {
    const name = doc.uri.path.split('/').pop() ?? '';
    const placed = await shippedFindings(Buffer.from(doc.getText()), name, await this.scanOptionsFor(doc.uri));
    this.place(doc.uri, placed, doc.isUntitled ? 'unsaved' : await this.fileState(doc.uri));
  }

  private async publish(doc: vscode.TextDocument, findings: readonly Finding[]): Promise<void> {
    this.set(doc.uri, findings, doc.isUntitled ? 'unsaved' : await this.fileState(doc.uri));
  }

  /** Where git stands on a saved file (realPath.ts). */
  fileState(uri: vscode.Uri): Promise<FileState> {
    return fileGitState(this.git, uri, vscode.workspace.isTrusted);
  }

  /** Publishes findings for a file, open or not (the workspace scan uses this too). */
  set(uri: vscode.Uri, findings: readonly Finding[], state: FileState): void {
    this.place(
      uri,
      findings.map((finding) => ({ finding })),
      state,
    );
  }

  /** Publishes findings some of which are inside the file (an archive's entries, a source map's sources). */
  place(uri: vscode.Uri, placed: readonly PlacedFinding[], state: FileState): void {
    const ignoredLevel = this.configuration.value.diagnostics.ignoredFiles;
    const entries: KeyDiagnostic[] = [];
    const diagnostics: vscode.Diagnostic[] = [];
    const shown = uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri) : uri.path.split('/').pop();
    for (const { finding, inner } of placed) {
      const verification = this.verificationOf(finding.fingerprint);
      const graded = findingSeverity(finding, state, ignoredLevel, verification);
      if (graded === undefined) continue;
      const ignoreSays = this.ignoreFiles.says(uri, finding, inner);
      const suppression = finding.stored === 'active' ? undefined : ignoreSays;
      // Suppressed is shown, quietly, with where and why: a reader can still see the key is there.
      const level = suppression ? vscode.DiagnosticSeverity.Hint : graded;
      const range =
        inner === undefined
          ? new vscode.Range(finding.line, finding.column, finding.endLine, finding.endColumn)
          : new vscode.Range(0, 0, 0, 0);
      const where = inner === undefined ? undefined : redactSecrets(`${shown}!${inner}`);
      const text = message(finding, state, verification, where);
      const diagnostic = new vscode.Diagnostic(range, `${text}${triageNote(finding, ignoreSays)}`, level);
      diagnostic.source = DIAGNOSTIC_SOURCE;
      diagnostic.code = finding.ruleId;
      entries.push({
        finding,
        range,
        git: state,
        ...(verification ? { verification } : {}),
        ...(inner === undefined ? {} : { inner }),
        ...(suppression ? { suppression } : {}),
      });
      diagnostics.push(diagnostic);
    }
    this.committed.prune(this.signs());
    for (const key of this.committed.of(uri.toString())) {
      // Back in the text, it is flagged as any key is.
      if (entries.some((e) => e.finding.fingerprint === key.fingerprint)) continue;
      const live = this.verificationOf(key.fingerprint)?.status === 'live';
      const diagnostic = new vscode.Diagnostic(
        this.committedRange(key),
        committedMessage(key, live),
        vscode.DiagnosticSeverity.Error,
      );
      diagnostic.source = DIAGNOSTIC_SOURCE;
      diagnostic.code = COMMITTED_KEY_CODE;
      diagnostics.push(diagnostic);
    }
    this.byUri.set(uri.toString(), entries);
    this.uris.set(uri.toString(), uri);
    this.collection.set(uri, diagnostics);
    this.diagnosticsChanged.fire();
  }

  /** Words every published finding again (a liveness answer arrived); nothing is rescanned. */
  reword(): void {
    const moved = new Set(this.committed.uris());
    for (const [key, entries] of [...this.byUri]) {
      if (entries.length > 0 && !moved.has(key))
        this.place(
          this.uris.get(key) ?? vscode.Uri.parse(key),
          entries.map((e) => ({ finding: e.finding, ...(e.inner === undefined ? {} : { inner: e.inner }) })),
          entries[0]!.git,
        );
    }
    this.replaceCommitted();
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.scans.delete(key);
    this.whole.delete(key);
    this.byUri.delete(key);
    this.uris.delete(key);
    clearTimeout(this.timers.get(key));
    this.collection.delete(uri);
    // A closed file keeps the finding of a key moved out of it until the key is rotated.
    if (this.committed.of(key).length > 0) this.place(uri, [], 'tracked');
  }

  scanOptions(): ScanOptions {
    return this.options;
  }

  /** A file's scan options: the stored keys, what its name says (optionsFor) and the team rules at its root. */
  scanOptionsFor(uri: vscode.Uri): Promise<ScanOptions> {
    return this.teamRules.withRules(uri, optionsFor(uri.toString(), this.options));
  }
}
