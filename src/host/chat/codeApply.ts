// Apply, as Copilot's "Apply in Editor" does it (issue 21 item 8): an answer's code block goes into the file it is
// for (applyTarget.ts), merged into the region it rewrites (core/chat/applyRegion.ts), written into the editor
// (not saved), the changed lines highlighted, and Keep / Undo offered in words: above the change (a CodeLens), in
// the editor's title bar, and under the block in the chat. Undo puts back exactly the text that was replaced.
// The banner says what happened ("replaced `greet`", "added at line 9") and, for a file that runs code, what it runs.
// With files.autoSave on, the change is shown as a diff and reaches the document only on Keep (issue 31 item 12):
// an edit in the document would be saved behind the person before they chose.
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import { Emitter } from '../../shared/event.ts';
import type { ApplyState } from '../../shared/protocol.ts';
import { type AppliedBlock, firstLineOf, mergeBlock } from '../../core/chat/applyRegion.ts';
import type { CodeRisk } from '../../core/chat/applyRisk.ts';
import { type ChooseFile, applyTarget, quickPickFile, riskWords } from './applyTarget.ts';
import { PROPOSAL_SCHEME } from './lastEditor.ts';

export { PROPOSAL_SCHEME };
const PENDING_CONTEXT = 'keyward.proposalPending';
/** The files with a change waiting, as `resourcePath` names them: the editor title's Keep and Undo show there. */
const PENDING_PATHS_CONTEXT = 'keyward.applyPendingPaths';
const t = vscode.l10n.t;

interface Pending {
  id: string;
  uri: vscode.Uri;
  /** Shown to the person: the workspace-relative name. */
  file: string;
  /** Where the applied text starts now, and the text there (both follow later edits around and inside it). */
  start: number;
  current: string;
  /** The text the Apply replaced: what Undo puts back. */
  original: string;
  /** Changes up to this version are Apply's own. */
  version: number;
  /** What happened, in words: "replaced `greet`", "added at line 9". */
  where: string;
  risk?: CodeRisk;
  /** Shown as a diff against this read-only proposal, not yet in the document (files.autoSave is on). */
  preview?: vscode.Uri;
}

export type ProposalOutcome = 'kept' | 'undone' | 'stale' | 'unknown';

export interface ApplyRequest {
  code: string;
  languageId: string;
  /** Names the Apply in the chat; one is made up when the chat did not give one. */
  applyId?: string;
  /** Files attached to the prompt the block answers. */
  attached: readonly vscode.Uri[];
  /** What the prompt was about (its attached lines): replaced only by a block that rewrites them. */
  about?: readonly vscode.Location[];
  /** The editor the person was last in: the file is shown in its column. */
  editor: vscode.TextEditor | undefined;
}

/** Answers "which file?" in place of the Quick Pick, which it is given to fall back on. */
export type ChooseFilePort = (
  candidates: vscode.Uri[],
  placeHolder: string,
  quickPick: ChooseFile,
) => Promise<vscode.Uri | undefined>;

export class CodeProposals extends Disposable implements vscode.CodeLensProvider {
  private readonly pending = new Map<string, Pending>();
  /** The text of each proposal shown as a diff, by its URI. */
  private readonly previews = new Map<string, string>();
  private readonly lensesChanged = this._register(new Emitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private decoration: vscode.TextEditorDecorationType | undefined;
  private providing = false;
  private counter = 0;
  /** Asks "which file?": the Quick Pick unless the session was given another way (tests answer without one). */
  private readonly choose: ChooseFile;

  /** `onError` hears what goes wrong when nobody awaits; `onState` tells the chat where an Apply stands. */
  private readonly onError: (error: Error) => void;
  private readonly onState: (applyId: string, state: ApplyState, file: string, text?: string) => void;

  constructor(
    onError: (error: Error) => void = () => undefined,
    onState: (applyId: string, state: ApplyState, file: string, text?: string) => void = () => undefined,
    choose?: ChooseFilePort,
  ) {
    super();
    this.onError = onError;
    this.onState = onState;
    this.choose = choose ? (candidates, placeHolder) => choose(candidates, placeHolder, quickPickFile) : quickPickFile;
  }

  /** Registered on the first Apply, not at activation. */
  private register(): void {
    if (this.providing) return;
    this.providing = true;
    this.decoration = this._register(
      vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
        overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      }),
    );
    this._register(
      vscode.languages.registerCodeLensProvider(
        [{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: PROPOSAL_SCHEME }],
        this,
      ),
    );
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, {
        provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '',
      }),
    );
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.follow(event)));
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()));
  }

  /** Applies `request` and resolves with its id once the change is in the editor (undefined if it is not). */
  async apply(request: ApplyRequest): Promise<string | undefined> {
    const id = request.applyId ?? `apply${++this.counter}`;
    const target = await applyTarget(request.code, request.languageId, request.attached, this.choose);
    if (target.kind === 'cancelled') {
      this.onState(id, 'refused', '', t('Apply cancelled: no file was chosen.'));
      return undefined;
    }
    if (target.kind === 'refused') {
      void vscode.window.showWarningMessage(target.message);
      this.onState(id, 'refused', '', target.message);
      return undefined;
    }
    const document = await vscode.workspace.openTextDocument(target.uri);
    const file = vscode.workspace.asRelativePath(document.uri);
    if ([...this.pending.values()].some((p) => p.uri.toString() === document.uri.toString())) {
      const message = t('A change applied to {0} waits for Keep or Undo: choose one first, then Apply again.', file);
      void vscode.window.showInformationMessage(message);
      this.onState(id, 'refused', file, message);
      return undefined;
    }
    const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const editor = request.editor?.document === document ? request.editor : undefined;
    const about = (request.about ?? [])
      .filter((place) => place.uri.toString() === document.uri.toString())
      .map((place) => ({ start: document.offsetAt(place.range.start), end: document.offsetAt(place.range.end) }))
      // The whole file attached says nothing about which part the block rewrites.
      .filter((region) => region.start > 0 || region.end < document.getText().length);
    const before = document.getText();
    const merged = mergeBlock(before, request.code, eol, about);
    const p: Pending = {
      id,
      uri: document.uri,
      file,
      start: merged.start,
      current: merged.replacement,
      original: before.slice(merged.start, merged.end),
      version: document.version,
      where: placeWords(merged, document),
      ...(target.risk ? { risk: target.risk } : {}),
    };
    this.register();
    if (autoSaves(document)) await this.showPreview(p, merged.text, editor?.viewColumn);
    else if (!(await this.write(p, merged))) return undefined;
    this.pending.set(id, p);
    await this.changed();
    if (!p.preview) await this.reveal(id, editor?.viewColumn);
    this.onState(id, 'pending', file, this.banner(p));
    return id;
  }

  /** Writes the change into the document (unsaved); false, and the chat told, when the editor refuses it. */
  private async write(p: Pending, merged: AppliedBlock): Promise<boolean> {
    const document = await vscode.workspace.openTextDocument(p.uri);
    const range = new vscode.Range(document.positionAt(merged.start), document.positionAt(merged.end));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, range, merged.replacement);
    if (await vscode.workspace.applyEdit(edit)) {
      p.version = document.version;
      return true;
    }
    const message = t('{0} could not be changed (it may be read-only).', p.file);
    void vscode.window.showWarningMessage(message);
    this.onState(p.id, 'refused', p.file, message);
    return false;
  }

  /** The change as a diff (the file, and the read-only proposal); the document is not touched before Keep. */
  private async showPreview(p: Pending, text: string, viewColumn: vscode.ViewColumn | undefined): Promise<void> {
    p.preview = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: p.uri.path, query: p.id });
    this.previews.set(p.preview.toString(), text);
    // The diff editor shows no CodeLens (diffEditor.codeLens is off by default): its title is the banner.
    const title = p.risk
      ? t('{0}: {1}, written only on Keep. This file runs code: {2}.', p.file, p.where, riskWords(p.risk))
      : t('{0}: {1}, written only on Keep', p.file, p.where);
    await vscode.commands.executeCommand('vscode.diff', p.uri, p.preview, title, {
      viewColumn: viewColumn ?? vscode.ViewColumn.One,
      preview: false,
    });
  }

  /** The chat's line for a waiting change: where it went, what the file runs, and the two choices. */
  private banner(p: Pending): string {
    const risk = p.risk ? ` ${t('This file runs code: {0}.', riskWords(p.risk))}` : '';
    const shown = p.preview ? ` ${t('Shown as a diff: files.autoSave is on, so nothing is written before Keep.')}` : '';
    return `${t('Applied to {0}: {1}.', p.file, p.where)}${risk}${shown} ${t('Keep the change or undo it:')}`;
  }

  /** Keep and Undo above the change; they name the file (one change waits per file), so a lens not yet redrawn still works. */
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return [...this.pending.values()]
      .filter((p) => (p.preview ?? p.uri).toString() === document.uri.toString())
      .flatMap((p) => {
        const at = new vscode.Range(document.positionAt(p.start), document.positionAt(p.start));
        // What happened and what the file runs, as text above the change (a lens without a command is not a link).
        const said = [
          `$(info) ${p.where}`,
          ...(p.risk ? [`$(warning) ${t('This file runs code: {0}.', riskWords(p.risk))}`] : []),
        ];
        return [
          ...said.map((title) => new vscode.CodeLens(at, { title, command: '' })),
          new vscode.CodeLens(at, {
            title: `$(check) ${t('Keep')}`,
            tooltip: t('Keep the applied change'),
            command: 'keyward.acceptProposal',
            arguments: [p.uri],
          }),
          new vscode.CodeLens(at, {
            title: `$(discard) ${t('Undo')}`,
            tooltip: t('Undo the applied change: the file gets back its text from before'),
            command: 'keyward.discardProposal',
            arguments: [p.uri],
          }),
        ];
      });
  }

  /** Later edits move the applied text, or change it: Undo follows them. */
  private follow(event: vscode.TextDocumentChangeEvent): void {
    let moved = false;
    for (const p of this.pending.values()) {
      if (p.preview || p.uri.toString() !== event.document.uri.toString() || event.document.version <= p.version)
        continue;
      for (const change of event.contentChanges) {
        const end = p.start + p.current.length;
        const changeEnd = change.rangeOffset + change.rangeLength;
        if (changeEnd <= p.start) p.start += change.text.length - change.rangeLength;
        else if (change.rangeOffset >= end) continue;
        else if (change.rangeOffset >= p.start && changeEnd <= end) {
          const from = change.rangeOffset - p.start;
          p.current = p.current.slice(0, from) + change.text + p.current.slice(from + change.rangeLength);
        } else p.current = '\u0000'; // An edit across its edge: Undo can no longer tell what to put back.
        moved = true;
      }
      p.version = event.document.version;
    }
    if (moved) {
      this.decorate();
      this.lensesChanged.fire();
    }
  }

  private decorate(): void {
    if (!this.decoration) return;
    for (const editor of vscode.window.visibleTextEditors) {
      const ranges = [...this.pending.values()]
        .filter((p) => !p.preview && p.uri.toString() === editor.document.uri.toString())
        .map((p) => {
          const end = editor.document.positionAt(p.start + p.current.length);
          // A change ending in a line break ends on the line before.
          const last = end.character === 0 && end.line > 0 ? end.line - 1 : end.line;
          return new vscode.Range(editor.document.positionAt(p.start), new vscode.Position(last, 0));
        });
      editor.setDecorations(this.decoration, ranges);
    }
  }

  private async reveal(id: string, viewColumn: vscode.ViewColumn | undefined): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    const document = await vscode.workspace.openTextDocument(p.uri);
    const range = new vscode.Range(document.positionAt(p.start), document.positionAt(p.start + p.current.length));
    const shown = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: viewColumn ?? shown?.viewColumn ?? vscode.ViewColumn.One,
      preserveFocus: false,
      preview: false,
      selection: new vscode.Range(range.start, range.start),
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.decorate();
  }

  /** The Apply `arg` names (its id, or the file from the editor title), else the only one waiting, else the active file's. */
  private find(arg?: unknown): Pending | undefined {
    if (typeof arg === 'string') return this.pending.get(arg);
    const all = [...this.pending.values()];
    const uri =
      arg instanceof vscode.Uri ? arg : all.length === 1 ? all[0]!.uri : vscode.window.activeTextEditor?.document.uri;
    // The editor title of a diff passes its right side, the proposal.
    return uri && all.find((p) => p.uri.toString() === uri.toString() || p.preview?.toString() === uri.toString());
  }

  /** Keep: the change stays in the editor as it is (not saved behind the person); the highlight and buttons go. */
  async keep(arg?: unknown): Promise<ProposalOutcome> {
    const p = this.find(arg);
    if (!p) return 'unknown';
    if (p.preview) return this.keepPreview(p);
    this.pending.delete(p.id);
    await this.changed();
    this.onState(p.id, 'kept', p.file);
    return 'kept';
  }

  /** Keep of a change shown as a diff: now it goes into the document, if the text it replaces is still there. */
  private async keepPreview(p: Pending): Promise<ProposalOutcome> {
    this.pending.delete(p.id);
    await this.closePreview(p);
    const document = await vscode.workspace.openTextDocument(p.uri);
    const range = new vscode.Range(document.positionAt(p.start), document.positionAt(p.start + p.original.length));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.uri, range, p.current);
    const done = document.getText(range) === p.original && (await vscode.workspace.applyEdit(edit));
    await this.changed();
    if (!done) {
      const message = t(
        '{0} changed since Apply; nothing was written. Apply again to see the change on its text.',
        p.file,
      );
      void vscode.window.showWarningMessage(message);
      this.onState(p.id, 'stale', p.file, message);
      return 'stale';
    }
    this.onState(p.id, 'kept', p.file);
    return 'kept';
  }

  private async closePreview(p: Pending): Promise<void> {
    const shown = p.preview?.toString();
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === shown);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    if (shown) this.previews.delete(shown);
  }

  /** Undo: the applied text is replaced by exactly what was there before. */
  async undo(arg?: unknown): Promise<ProposalOutcome> {
    const p = this.find(arg);
    if (!p) return 'unknown';
    if (p.preview) {
      this.pending.delete(p.id);
      await this.closePreview(p);
      await this.changed();
      this.onState(p.id, 'undone', p.file);
      return 'undone';
    }
    const document = await vscode.workspace.openTextDocument(p.uri);
    const range = new vscode.Range(document.positionAt(p.start), document.positionAt(p.start + p.current.length));
    if (document.getText(range) !== p.current) {
      this.pending.delete(p.id);
      await this.changed();
      const message = t(
        '{0} changed across the applied lines; Undo could not tell what to put back. Use Edit > Undo instead.',
        p.file,
      );
      void vscode.window.showWarningMessage(message);
      this.onState(p.id, 'stale', p.file, message);
      return 'stale';
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.uri, range, p.original);
    this.pending.delete(p.id);
    const done = await vscode.workspace.applyEdit(edit);
    await this.changed();
    if (!done) {
      this.onState(p.id, 'stale', p.file, t('{0} could not be changed (it may be read-only).', p.file));
      return 'stale';
    }
    this.onState(p.id, 'undone', p.file);
    return 'undone';
  }

  /** Keep or Undo from the chat's buttons. */
  resolve(applyId: string, keep: boolean): Promise<ProposalOutcome> {
    return (keep ? this.keep(applyId) : this.undo(applyId)).catch((error: unknown) => {
      this.onError(error as Error);
      return 'unknown';
    });
  }

  private async changed(): Promise<void> {
    this.decorate();
    this.lensesChanged.fire();
    const paths = [...new Set([...this.pending.values()].map((p) => p.uri.fsPath))];
    await vscode.commands.executeCommand('setContext', PENDING_CONTEXT, this.pending.size > 0);
    await vscode.commands.executeCommand('setContext', PENDING_PATHS_CONTEXT, paths);
  }

  override dispose(): void {
    this.pending.clear();
    this.previews.clear();
    super.dispose();
  }
}

/** Whether VS Code would save the document by itself (after a delay, on focus or window change). */
function autoSaves(document: vscode.TextDocument): boolean {
  if (document.uri.scheme !== 'file') return false;
  return vscode.workspace.getConfiguration('files', document.uri).get<string>('autoSave', 'off') !== 'off';
}

/** What Apply did, in words: the declarations it replaced, the lines the prompt was about, or where it added. */
function placeWords(merged: AppliedBlock, document: vscode.TextDocument): string {
  if (merged.how === 'region') return t('replaced {0}', merged.names.map((name) => `\`${name}\``).join(', '));
  if (merged.how === 'appended') return t('added at line {0}', firstLineOf(merged));
  // The lines as the person knew them before the change (the document is not changed yet).
  const first = document.positionAt(merged.start).line + 1;
  const end = document.positionAt(merged.end);
  const last = end.character === 0 && end.line + 1 > first ? end.line : end.line + 1;
  return first === last ? t('replaced line {0}', first) : t('replaced lines {0}–{1}', first, last);
}
