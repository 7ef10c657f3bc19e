// The inline edit's diff in the editor, as the answer streams (issue 34 §1): the region's rows as
// core/chat/streamLineDiff.ts lays them out, written into the document in batches (one editor edit per frame, not
// one per line) and drawn with two decorations, dropped lines and added ones. The old lines never leave the document
// before Keep, so Undo deletes what was added and the old text is back exactly. Every edit of one inline edit joins
// one undo step: the first opens it (undoStopBefore), the last closes it (undoStopAfter), none in between, so after
// Keep one Ctrl+Z takes the file back to before the edit (continuedev/continue's vertical diff edits the same way,
// extensions/vscode/src/diff/vertical/handler.ts).
import * as vscode from 'vscode';
import {
  type Hunk,
  type RowChange,
  type RowKind,
  hunksOf,
  reviewOrder,
  runsOf,
} from '../../core/chat/streamLineDiff.ts';

/** How long changes gather before they are written: one editor edit per frame at most. */
export const FRAME_MS = 30;
/** Lines written in one edit at most, so no single task holds the editor long; the rest go in the next frame. */
export const MAX_ROWS_PER_EDIT = 400;
/** Refusals in a row (VS Code refuses an edit built on a version the document has left) before the renderer gives up. */
const MAX_REFUSALS = 5;

export interface DiffStyles {
  removed: vscode.TextEditorDecorationType;
  added: vscode.TextEditorDecorationType;
}

/**
 * The lines' outline. The high-contrast themes give a diff's line backgrounds no colour, so there the lines would
 * not be marked at all (the removed ones only struck through): VS Code's diff editor outlines them instead, with
 * the text border colours, dashed, and so does this. The other themes leave those colours undefined, which a
 * decoration draws as transparent.
 */
const outline = (color: string): vscode.DecorationRenderOptions => ({
  borderColor: new vscode.ThemeColor(color),
  borderStyle: 'dashed',
  borderWidth: '1px',
});

export function diffStyles(): DiffStyles {
  return {
    removed: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      ...outline('diffEditor.removedTextBorder'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      textDecoration: 'line-through',
    }),
    added: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
      ...outline('diffEditor.insertedTextBorder'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  };
}

export class DiffRenderer {
  readonly document: vscode.TextDocument;
  /** The region's first line in the document now (edits above it move it). */
  start: number;
  /** The region's rows as written into the document. */
  readonly rows: RowKind[];
  private readonly styles: DiffStyles;
  private readonly eol: string;
  private queue: RowChange[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /**
   * An edit of this renderer is in flight (one at a time: `serial`): changes of the document seen meanwhile wait, with
   * the version each left, until it is known whose they are.
   */
  private applying = false;
  private held: { event: vscode.TextDocumentChangeEvent; version: number }[] = [];
  /** Someone else's change of the document (the person's typing, a formatter), handed on in the order it came. */
  private readonly foreign: (event: vscode.TextDocumentChangeEvent) => void;
  /** VS Code refused to write the answer MAX_REFUSALS times in a row: what is queued was dropped. */
  lost = false;
  /** Cleared (the edit ended or was let go): nothing more is written or drawn. */
  private gone = false;
  private opened = false;
  /** The longest single write, in milliseconds of this process (the bench reads it). */
  longestTaskMs = 0;

  constructor(
    document: vscode.TextDocument,
    start: number,
    lineCount: number,
    styles: DiffStyles,
    foreign: (event: vscode.TextDocumentChangeEvent) => void,
  ) {
    this.document = document;
    this.foreign = foreign;
    this.start = start;
    this.rows = Array.from({ length: lineCount }, () => 'same');
    this.styles = styles;
    this.eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  }

  /**
   * A change of the document: while an edit of this renderer is in flight it is held, since it may be that edit's or
   * the person's, and handed on once the edit lands; else it is someone else's and handed on now.
   */
  changed(event: vscode.TextDocumentChangeEvent): void {
    if (this.applying) this.held.push({ event, version: event.document.version });
    else this.foreign(event);
  }

  /** Changes from the diff; written in the next frame. */
  enqueue(changes: readonly RowChange[]): void {
    if (changes.length === 0 || this.lost) return;
    this.queue.push(...changes);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FRAME_MS);
  }

  /** Writes what is queued now (in edits of at most MAX_ROWS_PER_EDIT lines), then draws. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.serial(async () => {
      await this.writeQueued();
      this.draw();
    });
  }

  /**
   * One task at a time: each write, drop and reordering is built on the rows the one before left (two in flight at
   * once would each be built on rows without the other).
   */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writing.then(task);
    this.writing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0 && !this.lost && !this.gone) {
      if ((await this.retried(() => this.writeBatch())) || this.gone) continue;
      this.lost = true;
      this.queue = [];
    }
  }

  /**
   * `attempt` until VS Code takes it, built again on the text now after each refusal (the document changed while
   * it was built); false when it never did, MAX_REFUSALS times in a row, or the edit is gone.
   */
  private async retried(attempt: () => Promise<boolean>): Promise<boolean> {
    for (let refusals = 0; refusals < MAX_REFUSALS && !this.gone; refusals++) if (await attempt()) return true;
    return false;
  }

  /**
   * One edit: the queued inserts in the document's lines before it, merged where they touch. The rows and the queue
   * change only once VS Code took the edit; false when it refused it.
   */
  private async writeBatch(): Promise<boolean> {
    const began = performance.now();
    const inserts: { row: number; texts: string[] }[] = [];
    const rows = [...this.rows];
    let inserted = 0;
    let taken = 0;
    while (taken < this.queue.length && inserted < MAX_ROWS_PER_EDIT) {
      const change = this.queue[taken++]!;
      if (change.type === 'mark') {
        for (let i = 0; i < change.count; i++) rows[change.at + i] = 'old';
        continue;
      }
      // Inserts come in row order (the diff only moves down), so rows before this one were inserted before it.
      const row = change.at - inserted;
      const last = inserts.at(-1);
      if (last && last.row === row) last.texts.push(...change.texts);
      else inserts.push({ row, texts: [...change.texts] });
      rows.splice(change.at, 0, ...change.texts.map((): RowKind => 'new'));
      inserted += change.texts.length;
    }
    const lineCount = this.document.lineCount;
    const edits = inserts.map(({ row, texts }) => {
      const line = this.start + row;
      const body = texts.join(this.eol);
      // Past the last line (a region at the end of a file without a final line break): after it, on a line of its own.
      return line < lineCount
        ? { at: new vscode.Position(line, 0), text: body + this.eol }
        : { at: this.document.lineAt(lineCount - 1).range.end, text: this.eol + body };
    });
    this.tookMs(began);
    const taking = () => {
      this.rows.splice(0, this.rows.length, ...rows);
      this.queue = this.queue.slice(taken);
    };
    if (edits.length > 0)
      return this.edit((builder) => edits.forEach((e) => builder.insert(e.at, e.text)), false, taking);
    taking();
    return true;
  }

  /**
   * Drops rows of one kind within `[from, to)`, to the last row when `to` is left out (read once what is queued is
   * written): Keep drops the old ones, Undo the new ones. False when refused.
   */
  drop(kind: RowKind, from: number, to: number | undefined, last: boolean): Promise<boolean> {
    return this.serial(async () => {
      await this.writeQueued();
      const done = await this.retried(() => this.dropOnce(kind, from, to, last));
      if (done) this.draw();
      return done;
    });
  }

  private dropOnce(kind: RowKind, from: number, upTo: number | undefined, last: boolean): Promise<boolean> {
    const to = upTo ?? this.rows.length;
    const runs = runsOf(this.rows, kind, from, to);
    const ranges = runs.map(([a, b]) => this.span(a, b).range);
    return this.edit(
      (builder) => ranges.forEach((range) => builder.delete(range)),
      last,
      () => {
        let dropped = 0;
        for (const [a, b] of runs) {
          this.rows.splice(a, b - a);
          dropped += b - a;
        }
        // What stays of the rows is the file's text now: no longer a change.
        for (let row = from; row < to - dropped; row++) this.rows[row] = 'same';
      },
    );
  }

  /** Each hunk as a diff reads: its dropped lines first, then the added ones (the stream may have laid them out otherwise). */
  review(): Promise<void> {
    return this.serial(async () => {
      await this.writeQueued();
      if (await this.retried(() => this.reviewOnce())) this.draw();
    });
  }

  private reviewOnce(): Promise<boolean> {
    const moves = reviewOrder(this.rows);
    if (moves.length === 0) return Promise.resolve(true);
    const texts = moves.map(({ start, order }) => {
      const span = this.span(start, start + order.length);
      return {
        range: span.range,
        text: span.text(order.map((row) => this.document.lineAt(this.start + row).text)),
        start,
        order,
      };
    });
    return this.edit(
      (builder) => texts.forEach((m) => builder.replace(m.range, m.text)),
      false,
      () => {
        for (const { start, order } of texts) {
          const kinds = order.map((row) => this.rows[row]!);
          this.rows.splice(start, kinds.length, ...kinds);
        }
      },
    );
  }

  hunks(): Hunk[] {
    return hunksOf(this.rows);
  }

  /**
   * The document lines of rows `[from, to)` with their line breaks, and how lines are written back over them. At the
   * end of a file without a final line break the rows' last line has none: the break before the first goes instead.
   */
  private span(from: number, to: number): { range: vscode.Range; text: (lines: string[]) => string } {
    const first = this.start + from;
    const end = this.start + to;
    const eol = this.eol;
    if (end < this.document.lineCount)
      return { range: new vscode.Range(first, 0, end, 0), text: (lines) => lines.map((l) => l + eol).join('') };
    const last = this.document.lineAt(this.document.lineCount - 1).range.end;
    if (first === 0)
      return { range: new vscode.Range(new vscode.Position(0, 0), last), text: (lines) => lines.join(eol) };
    return {
      range: new vscode.Range(this.document.lineAt(first - 1).range.end, last),
      text: (lines) => lines.map((l) => eol + l).join(''),
    };
  }

  /**
   * One edit of the document; `took` brings the rows in line with it once VS Code took it, before the changes of
   * others seen meanwhile are handed on (those after it are in the lines it left). VS Code refuses an edit built on
   * a version the document has left, so the one change that took the document from the version it was built on to
   * the next is this edit's only when it was taken; when it was refused, every change seen was someone else's.
   */
  private async edit(
    build: (builder: vscode.TextEditorEdit) => void,
    close = false,
    took: () => void = () => undefined,
  ): Promise<boolean> {
    const version = this.document.version;
    this.applying = true;
    let done = false;
    try {
      done = await this.apply(build, close);
    } catch {
      // The editor closed while the edit travelled: a refusal, built again (through the workspace) on the text now.
    } finally {
      this.applying = false;
    }
    if (done) {
      this.opened = true;
      took();
    }
    const held = this.held;
    this.held = [];
    for (const { event, version: after } of held) if (!(done && after === version + 1)) this.foreign(event);
    return done;
  }

  private async apply(build: (builder: vscode.TextEditorEdit) => void, close: boolean): Promise<boolean> {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
    if (editor) return editor.edit(build, { undoStopBefore: !this.opened, undoStopAfter: close });
    // Not shown (the person switched tabs): the same edit through the workspace; it keeps no undo stops of its own.
    const edit = new vscode.WorkspaceEdit();
    build({
      insert: (at: vscode.Position, text: string) => edit.insert(this.document.uri, at, text),
      replace: (range: vscode.Range | vscode.Position | vscode.Selection, text: string) =>
        edit.replace(
          this.document.uri,
          range instanceof vscode.Position ? new vscode.Range(range, range) : range,
          text,
        ),
      delete: (range: vscode.Range | vscode.Selection) => edit.delete(this.document.uri, range),
      setEndOfLine: () => undefined,
    });
    return vscode.workspace.applyEdit(edit);
  }

  /** The decorations, in every editor showing the document. */
  draw(): void {
    if (this.gone) return;
    const began = performance.now();
    const ranges = (kind: RowKind) =>
      runsOf(this.rows, kind).map(([a, b]) => new vscode.Range(this.start + a, 0, this.start + b - 1, 0));
    const removed = ranges('old');
    const added = ranges('new');
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document !== this.document) continue;
      editor.setDecorations(this.styles.removed, removed);
      editor.setDecorations(this.styles.added, added);
    }
    this.tookMs(began);
  }

  clear(): void {
    this.gone = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document !== this.document) continue;
      editor.setDecorations(this.styles.removed, []);
      editor.setDecorations(this.styles.added, []);
    }
  }

  private tookMs(began: number): void {
    this.longestTaskMs = Math.max(this.longestTaskMs, performance.now() - began);
  }
}
