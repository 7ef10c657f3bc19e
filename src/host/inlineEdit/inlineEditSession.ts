// One inline edit while it waits: the streamed diff of its lines (core/chat/streamLineDiff.ts) written by its
// renderer, the answer's lines as they came, and Keep / Undo of a hunk or of everything. What it asked is kept for a
// follow-up, which refines this edit rather than stacking another on it.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { AnswerLines, type EditRound } from '../../core/chat/inlineEditPrompt.ts';
import { type Hunk, StreamLineDiff } from '../../core/chat/streamLineDiff.ts';
import type { EditAsk } from './inlineEditRequest.ts';
import { DiffRenderer, type DiffStyles } from './inlineEditRenderer.ts';

/** Asking (the guard, the cap), streaming, stopped by the person (their choice awaited), or waiting for Keep / Undo. */
export type EditState = 'asking' | 'streaming' | 'stopped' | 'review';

export class PendingEdit extends Disposable {
  readonly ask: EditAsk;
  readonly renderer: DiffRenderer;
  readonly controller = new AbortController();
  state: EditState = 'asking';
  /** Being kept or undone as a whole (Keep All, Undo All, a follow-up): a stop it causes asks nothing. */
  ending = false;
  private readonly diff: StreamLineDiff;
  private readonly lines = new AnswerLines();
  private readonly answer: string[] = [];

  /** `foreign`: a change of the document that is not this edit's own, in the order it came. */
  constructor(
    ask: EditAsk,
    document: vscode.TextDocument,
    start: number,
    styles: DiffStyles,
    foreign: (event: vscode.TextDocumentChangeEvent) => void,
  ) {
    super();
    this.ask = ask;
    const old = ask.code.split('\n');
    this.diff = new StreamLineDiff(old);
    this.renderer = new DiffRenderer(document, start, old.length, styles, foreign);
    // Gone: the answer stops, and the decorations go with it.
    this._register(toDisposable(() => this.renderer.clear()));
    this._register(toDisposable(() => this.controller.abort()));
  }

  get document(): vscode.TextDocument {
    return this.renderer.document;
  }

  /** The region's first line now and its rows (old and new together). */
  get start(): number {
    return this.renderer.start;
  }
  get rowCount(): number {
    return this.renderer.rows.length;
  }

  /** Lines of the answer taken so far. */
  get arrived(): number {
    return this.answer.length;
  }

  /** What a follow-up carries: this edit's instruction, the lines it replaced, and its answer. */
  round(): EditRound {
    return { instruction: this.ask.instruction, code: this.ask.code, answer: this.answer.join('\n') };
  }

  onDelta(text: string): void {
    for (const line of this.lines.push(text)) this.take(line);
  }

  private take(line: string): void {
    this.answer.push(line);
    this.renderer.enqueue(this.diff.push(line));
  }

  /** The whole answer is in: the old lines it never reached are dropped, and each hunk is put in review order. */
  async complete(): Promise<void> {
    for (const line of this.lines.finish()) this.take(line);
    this.renderer.enqueue(this.diff.finish());
    await this.settle('review');
  }

  /** Stopped: what arrived stays as it is; the old lines not reached yet are left alone (not dropped). */
  async stopped(): Promise<void> {
    await this.settle('stopped');
  }

  private async settle(state: EditState): Promise<void> {
    await this.renderer.review();
    this.state = state;
  }

  /** What to say when VS Code kept refusing the answer's writes (the file kept changing under it); else nothing. */
  lostNotice(): string | undefined {
    if (!this.renderer.lost) return undefined;
    const file = this.ask.place.file;
    return this.hunks().length > 0
      ? vscode.l10n.t(
          'VS Code refused to write the rest of the edit into {0}: the file kept changing under it. What was written before waits, marked: keep it or undo it.',
          file,
        )
      : vscode.l10n.t(
          'VS Code refused to write the edit into {0}: the file kept changing under it. Nothing of it was written.',
          file,
        );
  }

  hunks(): Hunk[] {
    return this.renderer.hunks();
  }

  /** The hunk holding `row`, else the first after it, else the last before it. */
  hunkAt(row: number): Hunk | undefined {
    const hunks = this.hunks();
    return (
      hunks.find((h) => row >= h.start && row < h.start + h.length) ?? hunks.find((h) => h.start >= row) ?? hunks.at(-1)
    );
  }

  /** Keep (drop its old lines) or Undo (drop its new lines) one hunk; true when no hunk is left. */
  async resolve(hunk: Hunk, keep: boolean): Promise<boolean> {
    const last = this.hunks().length <= 1;
    await this.renderer.drop(keep ? 'old' : 'new', hunk.start, hunk.start + hunk.length, last);
    return this.hunks().length === 0;
  }

  /** Keep or Undo everything left; false when VS Code refused it. */
  resolveAll(keep: boolean): Promise<boolean> {
    return this.renderer.drop(keep ? 'old' : 'new', 0, undefined, true);
  }
}
