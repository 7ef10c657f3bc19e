// Keyward: Edit with Keyward… (issue 34 §1): say what to change about the selected lines (or the function around
// the cursor), and the answer streams into the editor as a diff in place, then waits for Keep or Undo, of each hunk
// or of everything, by CodeLens or keyboard. One edit waits per file. Running the command again on the same lines
// while the edit waits (or just after it was kept) refines it: the request carries the earlier instruction and
// answer, and the new answer replaces the same lines. Loaded with dist/commands.js on the first run.
import * as vscode from 'vscode';
import { Disposable } from '../../shared/dispose.ts';
import { Emitter } from '../../shared/event.ts';
import type { EditPlace, EditRound } from '../../core/chat/inlineEditPrompt.ts';
import type { ResolvedPrompt } from '../../core/chat/contextRefs.ts';
import type { Attachment } from '../../shared/protocol.ts';
import { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import { toServiceError } from '../../core/errors.ts';
import { serviceLabel } from '../serviceNames.ts';
import { CHOICE_KEY, type InputOutcome, type InputShape, PromptHistory, pickModel } from './inlineEditInput.ts';
import { EditInput } from './inlineEditBox.ts';
import { SentTextView, askWithReferences, boxPreview } from './inlineEditRefs.ts';
import { resolveContextRefs } from '../chat/contextReaders.ts';
import { type LineRegion, editRegion, regionLabel, regionPlace, regionText } from './inlineEditRegion.ts';
import { type DiffStyles, diffStyles } from './inlineEditRenderer.ts';
import {
  type EditAsk,
  type InlineEditDeps,
  type ModelChoice,
  type ReferenceResolver,
  passCap,
  sendInlineEdit,
  tellFailure,
} from './inlineEditRequest.ts';
import { PendingEdit } from './inlineEditSession.ts';
import { editLenses } from './inlineEditLenses.ts';

const t = vscode.l10n.t;
const PENDING_CONTEXT = 'keyward.inlineEditPending';
const STREAMING_CONTEXT = 'keyward.inlineEditStreaming';
/**
 * The files with an edit, as the keys' `resourcePath in …` reads them: VS Code's `resourcePath` is a file's fsPath
 * and another scheme's path (a remote window's files are `vscode-remote:` there and `file:` here), so both are listed.
 */
const FILES_CONTEXT = 'keyward.inlineEditFiles';

export interface InlineEditPorts extends InlineEditDeps {
  /** Workspace state through the one filter for disk: the prompts' history and the model chosen here. */
  state: vscode.Memento;
  /** The chat's model, which an inline edit starts on until one is chosen here. */
  chatChoice: () => ModelChoice;
  /** Answers the input box in Keyward's own tests. */
  prompt?: (shape: InputShape) => Promise<InputOutcome>;
  /** Resolves `#` references in the instruction (issue 34 §2); the chat's readers unless a test stands in. */
  resolveReferences?: ReferenceResolver;
  /** Answers "keep what arrived or put everything back?" after Stop in Keyward's own tests. */
  afterStop?: (arrived: number) => Promise<'keep' | 'undo' | undefined>;
}

/** The last edit kept, for a follow-up on its lines while the file has not changed since. */
interface Kept {
  uri: string;
  version: number;
  region: LineRegion;
  round: EditRound;
  place: EditPlace;
}

export class InlineEdits extends Disposable implements vscode.CodeLensProvider {
  private readonly ports: InlineEditPorts;
  private readonly pending = new Map<string, PendingEdit>();
  private kept: Kept | undefined;
  private readonly input = new EditInput();
  private readonly history: PromptHistory;
  private readonly catalog: ModelCatalog;
  private readonly styles: DiffStyles;
  private readonly sentView = this._register(new SentTextView());
  private readonly lensesChanged = this._register(new Emitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(ports: InlineEditPorts) {
    super();
    this.ports = ports;
    this.history = new PromptHistory(ports.state);
    this.catalog = new ModelCatalog(ports.monitor);
    this.styles = diffStyles();
    this._register(this.styles.removed);
    this._register(this.styles.added);
    this._register(vscode.languages.registerCodeLensProvider([{ scheme: 'file' }, { scheme: 'untitled' }], this));
    this._register(
      vscode.workspace.onDidChangeTextDocument((event) =>
        this.pending.get(event.document.uri.toString())?.renderer.changed(event),
      ),
    );
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.pending.forEach((p) => p.renderer.draw())));
  }

  private choice(): ModelChoice {
    return this.ports.state.get<ModelChoice>(CHOICE_KEY) ?? this.ports.chatChoice();
  }

  /** The command: asks what to change, then streams the edit; on the lines of a waiting or just kept edit, refines it. */
  async run(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage(
        t('Open a file and select the lines to edit, then run Edit with Keyward again.'),
      );
      return;
    }
    const uri = editor.document.uri.toString();
    const waiting = this.pending.get(uri);
    if (waiting && !this.covers(waiting.start, waiting.rowCount, editor)) {
      void vscode.window.showInformationMessage(
        t('An edit in this file waits for Keep or Undo: choose one first (the lenses above it), then edit again.'),
      );
      return;
    }
    if (waiting?.state === 'streaming' || waiting?.state === 'asking') return;
    const kept = this.keptUnder(editor);
    const region = waiting
      ? { start: waiting.start, count: waiting.ask.code.split('\n').length }
      : (kept?.region ?? (await editRegion(editor)));
    const earlier = waiting?.round() ?? kept?.round;
    const place = waiting?.ask.place ?? kept?.place ?? regionPlace(editor.document, region);
    // The references are read from the editor the edit was asked in, whatever is active by the time Enter is pressed.
    const resolve = (text: string) => (this.ports.resolveReferences ?? resolveContextRefs)(text, editor);
    const askOf = (instruction: string, context: Attachment[]) => ({
      choice: this.choice(),
      instruction,
      // While a waiting edit shows its diff, its lines are the old code it puts back before the follow-up is sent.
      code: waiting && this.pending.get(uri) === waiting ? waiting.ask.code : regionText(editor.document, region),
      place,
      ...(earlier ? { earlier } : {}),
      ...(context.length > 0 ? { context } : {}),
    });
    const asked = await askWithReferences(
      (value) => this.askInstruction(editor, region, earlier, value, resolve, (r) => askOf(r.prompt, r.attachments)),
      resolve,
      (typed) => void this.history.add(typed),
    );
    if (asked === undefined) return;
    // A follow-up on a waiting edit: its lines go back as they were, and the new answer replaces them again.
    if (waiting) await this.close(waiting, false);
    this.kept = undefined;
    await this.start(editor.document, region, askOf(asked.instruction, asked.context));
  }

  private async askInstruction(
    editor: vscode.TextEditor,
    region: LineRegion,
    earlier: EditRound | undefined,
    typed: string,
    resolve: (text: string) => Promise<ResolvedPrompt>,
    askOf: (resolved: ResolvedPrompt) => EditAsk,
  ) {
    let value = typed;
    // A service without a model to suggest (a compatible server): the person picks one first.
    if (!this.choice().model && !(await this.switchModel())) return undefined;
    for (;;) {
      const { service, model } = this.choice();
      const shape: InputShape = {
        title: t(
          'Edit with Keyward: {0} on {1}',
          model || t('no model chosen'),
          serviceLabel(service, this.ports.configuration.value),
        ),
        prompt: regionLabel(editor.document, region, earlier),
        placeholder: earlier
          ? t('How to refine the last edit ("make it shorter"); # points at context; Up and Down: earlier prompts')
          : t('What to change; # points at context (#file, #problems…); Up and Down: earlier prompts'),
        value,
      };
      Object.assign(shape, boxPreview(resolve, askOf, this.sentView, shape.title));
      const outcome = await (this.ports.prompt ?? ((s) => this.input.ask(s, this.history.list())))(shape);
      if (outcome?.kind !== 'switch') return outcome?.text;
      value = outcome.text;
      await this.switchModel();
    }
  }

  private async switchModel(): Promise<boolean> {
    const picked = await pickModel(this.choice(), this.catalog, this.ports.keys, this.ports.configuration);
    if (picked) await this.ports.state.update(CHOICE_KEY, picked);
    return picked !== undefined;
  }

  private covers(start: number, count: number, editor: vscode.TextEditor): boolean {
    const { start: from, end } = editor.selection;
    return from.line < start + count && end.line >= start;
  }

  private keptUnder(editor: vscode.TextEditor): Kept | undefined {
    const kept = this.kept;
    if (!kept || kept.uri !== editor.document.uri.toString() || kept.version !== editor.document.version)
      return undefined;
    return this.covers(kept.region.start, kept.region.count, editor) ? kept : undefined;
  }

  /** Sends the edit and streams it in; the guard and the cap may stop it before anything is written. */
  private async start(document: vscode.TextDocument, region: LineRegion, ask: Parameters<typeof sendInlineEdit>[1]) {
    const choice = await passCap(this.ports, ask.choice);
    if (!choice) return;
    const edit = new PendingEdit({ ...ask, choice }, document, region.start, this.styles, (event) =>
      this.follow(edit, event),
    );
    const key = document.uri.toString();
    this.pending.set(key, edit);
    await this.changed();
    try {
      const outcome = await sendInlineEdit(this.ports, edit.ask, {
        signal: edit.controller.signal,
        onDelta: (text) => {
          if (edit.state === 'asking') void this.streaming(edit);
          edit.onDelta(text);
        },
      });
      // Let go while the answer came (its lines changed by hand): nothing is left of it to finish.
      if (this.pending.get(key) !== edit) return;
      if (!outcome.sent) return void (await this.close(edit, false));
      await edit.complete();
      if (this.pending.get(key) !== edit) return;
      const lost = edit.lostNotice();
      if (lost) void vscode.window.showWarningMessage(lost);
      if (edit.hunks().length === 0) {
        await this.close(edit, false);
        if (!edit.renderer.lost)
          void vscode.window.showInformationMessage(t('The answer is the same as the code: nothing to change.'));
        return;
      }
      await this.changed();
      if (outcome.left)
        void vscode.window.showWarningMessage(
          t(
            'The answer changed {0} placeholder(s) of a redacted key, so Keyward could not put the key back there: Keep would write the placeholder in its place. Look at those lines before you keep them.',
            outcome.left,
          ),
        );
    } catch (thrown) {
      const error = toServiceError(thrown, choice.service);
      if (error.kind === 'cancelled')
        // Stopped by the person: they choose what stays. Let go (its lines changed by hand), kept or undone as a
        // whole: nothing to ask, and the letting go was said already.
        return this.pending.get(key) === edit && !edit.ending ? this.afterStop(edit) : undefined;
      // Broken off: what arrived waits for Keep or Undo, as after Stop; nothing arrived, nothing is left in the file.
      if (this.pending.get(key) === edit) await (edit.arrived > 0 ? this.brokenOff(edit) : this.close(edit, false));
      this.ports.log.warn(
        `Inline edit on the ${choice.service} service (${choice.model}) failed: ${error.kind}: ${error.message}`,
      );
      void tellFailure(error, this.ports, () => void this.start(document, region, { ...ask, choice }));
    }
  }

  private async brokenOff(edit: PendingEdit): Promise<void> {
    await edit.stopped();
    await this.changed();
  }

  private async streaming(edit: PendingEdit): Promise<void> {
    edit.state = 'streaming';
    await this.changed();
  }

  /** Escape or Stop: the answer stops; what arrived stays for the person to keep, or everything goes back. */
  stop(): void {
    const edit = this.find(undefined);
    if (edit && (edit.state === 'streaming' || edit.state === 'asking')) edit.controller.abort();
  }

  private async afterStop(edit: PendingEdit): Promise<void> {
    await edit.stopped();
    if (this.pending.get(edit.document.uri.toString()) !== edit || edit.ending) return;
    await this.changed();
    const keep = t('Keep What Arrived');
    const undo = t('Put Everything Back');
    const answer = this.ports.afterStop
      ? await this.ports.afterStop(edit.arrived)
      : await vscode.window
          .showInformationMessage(
            t(
              'Stopped after {0} lines. Keep what arrived (the lines not reached stay as they were), or put everything back?',
              edit.arrived,
            ),
            keep,
            undo,
          )
          .then((chosen) => (chosen === keep ? 'keep' : chosen === undo ? 'undo' : undefined));
    if (this.pending.get(edit.document.uri.toString()) !== edit) return;
    edit.state = 'review';
    if (answer === undefined) return void (await this.changed());
    await this.close(edit, answer === 'keep');
  }

  /** Keep or Undo everything left of the edit named (a lens passes its file), else the active editor's. */
  async resolveAll(keep: boolean, arg?: unknown): Promise<void> {
    const edit = this.find(arg);
    if (!edit) return;
    if (edit.state === 'streaming' || edit.state === 'asking') {
      if (keep) return this.notYet();
      edit.controller.abort();
    }
    await this.close(edit, keep);
  }

  /** Keep or Undo one hunk: the lens's (file and row), else the one at the cursor. */
  async resolveHunk(keep: boolean, arg?: unknown, row?: unknown): Promise<void> {
    const edit = this.find(arg);
    if (!edit) return;
    if (edit.state !== 'review' && edit.state !== 'stopped') return this.notYet();
    const editor = vscode.window.activeTextEditor;
    const at =
      typeof row === 'number'
        ? row
        : editor?.document === edit.document
          ? editor.selection.active.line - edit.start
          : 0;
    const hunk = edit.hunkAt(at);
    if (!hunk) return;
    const wasKept = keep;
    if (await edit.resolve(hunk, keep)) await this.finish(edit, wasKept);
    else await this.changed();
  }

  /**
   * Keep or Undo pressed while the answer streams: the keys stay bound then (else Ctrl+Shift+Enter would be VS Code's
   * Insert Line Above, a change by hand in the edit's lines), so what they do now is said where the eye is.
   */
  private notYet(): void {
    vscode.window.setStatusBarMessage(
      t('$(loading~spin) Keyward: the edit is still streaming. Keep and Undo come when it is in; Escape stops it.'),
      4000,
    );
  }

  /** Ends the edit: its lines kept (old ones dropped) or put back (new ones dropped), the decorations gone. */
  private async close(edit: PendingEdit, keep: boolean): Promise<void> {
    edit.ending = true;
    if (edit.state !== 'asking' || edit.renderer.rows.some((r) => r !== 'same')) {
      const done = await edit.resolveAll(keep);
      // Let go meanwhile (its lines changed by hand): that was said, and nothing is left to end.
      if (this.pending.get(edit.document.uri.toString()) !== edit) return;
      if (!done) {
        edit.ending = false;
        await this.changed();
        void vscode.window.showWarningMessage(
          t(
            'VS Code refused the change to {0} again and again: the file kept changing. The edit still waits.',
            edit.ask.place.file,
          ),
        );
        return;
      }
    }
    await this.finish(edit, keep);
  }

  private async finish(edit: PendingEdit, keptSome: boolean): Promise<void> {
    const key = edit.document.uri.toString();
    if (this.pending.get(key) === edit) this.pending.delete(key);
    edit.dispose();
    this.kept = keptSome
      ? {
          uri: key,
          version: edit.document.version,
          region: { start: edit.start, count: edit.rowCount },
          round: edit.round(),
          place: edit.ask.place,
        }
      : undefined;
    await this.changed();
  }

  /** The edit an argument names (a file's URI or its string), else the active editor's, else the only one. */
  private find(arg: unknown): PendingEdit | undefined {
    // A URI from a menu, or its string from a lens.
    const named =
      typeof arg === 'string' ? arg : arg && typeof arg === 'object' && 'scheme' in arg ? String(arg) : undefined;
    if (named) return this.pending.get(named);
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    return (
      (active && this.pending.get(active)) || (this.pending.size === 1 ? [...this.pending.values()][0] : undefined)
    );
  }

  /** Edits by hand above the edit move it; inside it, Keyward can no longer tell its lines apart and lets go of it. */
  private follow(edit: PendingEdit, event: vscode.TextDocumentChangeEvent): void {
    if (this.pending.get(edit.document.uri.toString()) !== edit || event.contentChanges.length === 0) return;
    let moved = 0;
    for (const change of event.contentChanges) {
      const delta = change.text.split('\n').length - 1 - (change.range.end.line - change.range.start.line);
      if (change.range.end.line < edit.start) moved += delta;
      else if (change.range.start.line >= edit.start + edit.rowCount) continue;
      else return void this.letGo(edit);
    }
    if (moved === 0) return;
    edit.renderer.start += moved;
    edit.renderer.draw();
    this.lensesChanged.fire();
  }

  private letGo(edit: PendingEdit): void {
    this.pending.delete(edit.document.uri.toString());
    edit.dispose();
    void this.changed();
    void vscode.window.showWarningMessage(
      t(
        'The lines of the inline edit were changed by hand, so Keyward no longer offers Keep and Undo for it. Edit > Undo goes back.',
      ),
    );
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const edit = this.pending.get(document.uri.toString());
    return edit ? editLenses(edit, this.ports.configuration.value) : [];
  }

  historyPrevious(): void {
    this.input.previous();
  }

  historyNext(): void {
    this.input.next();
  }

  /** Whether an edit waits in this file (Keyward's own tests read it). */
  state(uri: string): PendingEdit['state'] | undefined {
    return this.pending.get(uri)?.state;
  }

  /**
   * The keys' contexts first, then the lenses: a Keep All lens on screen means Ctrl+Shift+Enter keeps (drawn first,
   * a quick press could meet the old context and run VS Code's own Insert Line Above; a real-host run did).
   */
  private async changed(): Promise<void> {
    const edits = [...this.pending.values()];
    await Promise.all([
      vscode.commands.executeCommand('setContext', PENDING_CONTEXT, edits.length > 0),
      vscode.commands.executeCommand('setContext', FILES_CONTEXT, [
        ...new Set(edits.flatMap(({ document: { uri } }) => [uri.fsPath, uri.path])),
      ]),
      vscode.commands.executeCommand(
        'setContext',
        STREAMING_CONTEXT,
        edits.some((e) => e.state === 'streaming' || e.state === 'asking'),
      ),
    ]);
    this.lensesChanged.fire();
  }

  override dispose(): void {
    this.pending.forEach((edit) => edit.dispose());
    this.pending.clear();
    super.dispose();
  }
}
