// A text editor over a string for host tests of what edits the document: `edit()` applies the builder's changes as
// VS Code does (positions of the text before the edit), fires the document change event, and keeps undo steps by
// the edit's undoStopBefore/After as the editor's undo stack groups them, so a test can press Ctrl+Z.
import type * as vscode from 'vscode';
import { Position, Range, Selection, fileUri } from './fakeVscode.ts';
import { fake } from './vscodeShim.ts';

export class FakeTextDocument {
  readonly uri: ReturnType<typeof fileUri>;
  readonly fileName: string;
  readonly languageId: string;
  readonly eol = 1;
  readonly isClosed = false;
  readonly isUntitled = false;
  version = 1;
  text: string;
  constructor(path: string, text: string, languageId = 'javascript') {
    this.uri = fileUri(path);
    this.fileName = path;
    this.text = text;
    this.languageId = languageId;
  }
  private get lines(): string[] {
    return this.text.split('\n');
  }
  get lineCount(): number {
    return this.lines.length;
  }
  lineAt(n: number) {
    const text = this.lines[n];
    if (text === undefined) throw new Error(`Illegal value for line ${n}`);
    return { lineNumber: n, text, range: new Range(n, 0, n, text.length) };
  }
  offsetAt(p: Position): number {
    const lines = this.lines;
    const line = Math.min(p.line, lines.length - 1);
    return lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0) + Math.min(p.character, lines[line]!.length);
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split('\n');
    return new Position(before.length - 1, before.at(-1)!.length);
  }
  getText(range?: Range): string {
    return range ? this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this.text;
  }
  /** As VS Code does: each end moved inside the document (the `#file` reader asks for lines past the last). */
  validateRange(range: Range): Range {
    const lines = this.lines;
    const inside = (p: Position) => {
      const line = Math.min(Math.max(p.line, 0), lines.length - 1);
      return new Position(line, p.line > line ? lines[line]!.length : Math.min(p.character, lines[line]!.length));
    };
    return new Range(inside(range.start), inside(range.end));
  }
}

interface Change {
  range: Range;
  text: string;
}

export class FakeTextEditor {
  readonly document: FakeTextDocument;
  selection: Selection;
  readonly viewColumn = 1;
  readonly decorations = new Map<string, Range[]>();
  /** The text before each undo step, oldest first; `open` is whether the last step still takes edits. */
  readonly undoSteps: string[] = [];
  private open = false;
  edits = 0;
  /**
   * Runs between the edit being asked and VS Code applying it (a test's typing lands there), as the extension host's
   * edit travels to the window and back. VS Code then refuses an edit built on a version the document has left.
   */
  inFlight: (() => void) | undefined;
  /** Runs once the edit is applied, before its promise resolves (the answer is still on its way back). */
  landed: (() => void) | undefined;

  constructor(document: FakeTextDocument, selection?: Selection) {
    this.document = document;
    this.selection = selection ?? new Selection(new Position(0, 0), new Position(0, 0));
  }

  async edit(
    build: (builder: vscode.TextEditorEdit) => void,
    options: { undoStopBefore: boolean; undoStopAfter: boolean } = { undoStopBefore: true, undoStopAfter: true },
  ): Promise<boolean> {
    const changes: Change[] = [];
    build({
      insert: (at: Position, text: string) => changes.push({ range: new Range(at, at), text }),
      replace: (range: Range | Position, text: string) =>
        changes.push({ range: range instanceof Position ? new Range(range, range) : range, text }),
      delete: (range: Range) => changes.push({ range, text: '' }),
      setEndOfLine: () => undefined,
    } as unknown as vscode.TextEditorEdit);
    const version = this.document.version;
    await Promise.resolve();
    this.inFlight?.();
    if (this.document.version !== version) return false;
    if (options.undoStopBefore || !this.open) this.undoSteps.push(this.document.text);
    this.open = !options.undoStopAfter;
    this.apply(changes);
    this.landed?.();
    return true;
  }

  /** Typing or a paste by the person: its own undo step, as the editor makes one. */
  type(range: Range, text: string): void {
    this.undoSteps.push(this.document.text);
    this.open = false;
    this.apply([{ range, text }]);
  }

  /** Ctrl+Z: the last undo step's text back. */
  undo(): void {
    const before = this.undoSteps.pop();
    if (before === undefined) return;
    this.open = false;
    this.document.text = before;
    this.document.version++;
  }

  private apply(changes: Change[]): void {
    const doc = this.document;
    const located = changes
      .map((c) => ({ ...c, start: doc.offsetAt(c.range.start), end: doc.offsetAt(c.range.end) }))
      .sort((a, b) => b.start - a.start);
    for (const c of located) doc.text = doc.text.slice(0, c.start) + c.text + doc.text.slice(c.end);
    doc.version++;
    this.edits++;
    fake.state.documentChanges.fire({
      document: doc,
      reason: undefined,
      contentChanges: located.map((c) => ({
        range: c.range,
        rangeOffset: c.start,
        rangeLength: c.end - c.start,
        text: c.text,
      })),
    });
  }

  setDecorations(type: { key: string }, ranges: Range[]): void {
    this.decorations.set(type.key, ranges);
  }

  /** The lines a decoration covers now, by the order the renderer made them (removed first, then added). */
  decorated(): { removed: number[]; added: number[] } {
    const [removed, added] = [...this.decorations.values()].slice(-2);
    const lines = (ranges: Range[] = []) =>
      ranges.flatMap((r) => Array.from({ length: r.end.line - r.start.line + 1 }, (_, i) => r.start.line + i));
    return { removed: lines(removed), added: lines(added) };
  }
}

/** Shows the editor (the active one, and the only one visible). */
export function showEditor(editor: FakeTextEditor): void {
  fake.state.editors.splice(0, fake.state.editors.length, editor);
  Object.assign(fake.api.window, { activeTextEditor: editor });
}
