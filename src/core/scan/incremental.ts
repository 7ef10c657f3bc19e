// Findings of an open document kept current by rescanning only the lines an
// edit touched: a key never spans lines, so the rest only shifts. A key split into
// pieces can span lines and take its constants from anywhere in a small scope: a
// document that holds a quoted prefix is read whole on each edit.
import { hasBlockComment } from './allowComments.ts';
import { type Finding, type ScanOptions, scanText } from './scanner.ts';
import { classifyToken } from './rules.ts';
import { holdsPiece } from './splitKeys.ts';

const isWholeKey = (literal: string) => classifyToken(literal) !== undefined;

export interface LineEdit {
  /** First changed line, and the last one before and after the edit (0-based, inclusive). */
  startLine: number;
  oldEndLine: number;
  newEndLine: number;
}

export class IncrementalScan {
  private current: Finding[] = [];
  private options: ScanOptions;
  /** The text has a disable/enable comment: an edit anywhere can change what lines far below allow. */
  private blocks = false;
  /** The text has a quoted key prefix (splitKeys.ts): an edit anywhere near can join or break a split key. */
  private pieces = false;

  constructor(options: ScanOptions = {}) {
    this.options = options;
  }

  get findings(): readonly Finding[] {
    return this.current;
  }

  setOptions(options: ScanOptions): void {
    this.options = options;
  }

  /** Scans the whole text again (on open, or when the known keys change). */
  reset(text: string): readonly Finding[] {
    this.blocks = hasBlockComment(text);
    this.pieces = holdsPiece(text, isWholeKey);
    this.current = scanText(text, this.options);
    return this.current;
  }

  /** Takes findings scanned elsewhere (on the scanner thread) as the whole text's; edits then rescan it whole. */
  adopt(findings: readonly Finding[]): readonly Finding[] {
    this.current = [...findings];
    return this.current;
  }

  /**
   * Applies one edit. `line(i)` gives the text of line i after the edit, or
   * undefined past the end. Byte offsets of findings are only kept exact by full scans.
   */
  applyEdit(edit: LineEdit, line: (index: number) => string | undefined): readonly Finding[] {
    // A team rule's keywords are looked for in the whole text, and its regex may span lines (teamHits.ts).
    const whole = this.blocks || this.pieces || (this.options.teamRules?.length ?? 0) > 0;
    if (whole || this.editAddsBlock(edit, line) || this.editAddsPiece(edit, line)) {
      const all: string[] = [];
      for (let i = 0, text = line(0); text !== undefined; text = line(++i)) all.push(text);
      return this.reset(all.join('\n'));
    }
    // A line's findings depend on the line before it (keyward-ignore-next-line): the line after
    // the edit is rescanned too, and the line before it is read as context only.
    const context = edit.startLine > 0 ? line(edit.startLine - 1) : undefined;
    const grow = line(edit.newEndLine + 1) === undefined ? 0 : 1;
    const oldEndLine = edit.oldEndLine + grow;
    const newEndLine = edit.newEndLine + grow;
    const delta = newEndLine - oldEndLine;
    const before: Finding[] = [];
    const after: Finding[] = [];
    for (const finding of this.current) {
      if (finding.line < edit.startLine) before.push(finding);
      else if (finding.line > oldEndLine)
        after.push(
          delta === 0 ? finding : { ...finding, line: finding.line + delta, endLine: finding.endLine + delta },
        );
    }
    const lines: string[] = context === undefined ? [] : [context];
    const skip = lines.length;
    for (let i = edit.startLine; i <= newEndLine; i++) lines.push(line(i) ?? '');
    const rescanned = scanText(lines.join('\n'), this.options)
      .filter((finding) => finding.line >= skip)
      .map((finding) => ({
        ...finding,
        line: finding.line + edit.startLine - skip,
        endLine: finding.endLine + edit.startLine - skip,
      }));
    this.current = [...before, ...rescanned, ...after];
    return this.current;
  }

  private editAddsPiece(edit: LineEdit, line: (index: number) => string | undefined): boolean {
    for (let i = edit.startLine; i <= edit.newEndLine; i++) if (holdsPiece(line(i) ?? '', isWholeKey)) return true;
    return false;
  }

  private editAddsBlock(edit: LineEdit, line: (index: number) => string | undefined): boolean {
    for (let i = edit.startLine; i <= edit.newEndLine; i++) if (hasBlockComment(line(i) ?? '')) return true;
    return false;
  }
}
