// The inline edit's diff, line by line as the answer streams (issue 34 §1). The old lines stay in the document the
// whole time, with their own text: a line the answer drops is only marked, a line it adds is inserted where it goes,
// so Undo (of a hunk or of everything) is deleting what was inserted, and puts back exactly the old text.
//
// Each new line is matched against the old lines not yet reached, greedily, as continuedev/continue's streamDiff
// does (core/diff/streamDiff.ts), but in constant time per line: an index of the old lines by text instead of a scan
// of them all with an edit distance. A short or blank line matches only close by (a `}` or an empty line further
// down says nothing about where the answer is); a line that is neither the same as nor close to the next old line
// is an insertion. Whatever order the answer comes in, the old rows (same + old) are the old lines in order and the
// new rows (same + new) are the answer's lines in order: the property test holds it to that.

/** A row of the region as the document shows it while the edit waits: kept, dropped by the answer, or added. */
export type RowKind = 'same' | 'old' | 'new';

/** What a line of the answer did to the rows, in row numbers of the region at that moment. */
export type RowChange =
  /** New rows inserted before row `at` (their text is the answer's). */
  | { type: 'insert'; at: number; texts: string[] }
  /** `count` rows from `at` turn old: the answer dropped them. Their text does not change. */
  | { type: 'mark'; at: number; count: number };

/** How far a match may be for a line of this many characters (trimmed): blank lines only the next one. */
function reach(trimmedLength: number): number {
  if (trimmedLength === 0) return 0;
  if (trimmedLength < 4) return 1;
  if (trimmedLength < 8) return 8;
  return Number.POSITIVE_INFINITY;
}

/** Whether `line` is a changed version of `old` (same text, or most of it at the ends): cost linear in the line. */
export function similar(line: string, old: string): boolean {
  const a = line.trim();
  const b = old.trim();
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const longest = Math.max(a.length, b.length);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  return (prefix + suffix) / longest >= 0.6;
}

export class StreamLineDiff {
  private readonly old: readonly string[];
  /** Old line indices by their text (trailing white space ignored), ascending; `next` skips those passed. */
  private readonly index = new Map<string, { at: number[]; next: number }>();
  /** The next old line not yet reached, and the row it is on now. */
  private p = 0;
  private cursor = 0;
  readonly rows: RowKind[];

  constructor(oldLines: readonly string[]) {
    this.old = oldLines;
    this.rows = oldLines.map(() => 'same');
    oldLines.forEach((line, i) => {
      const key = line.trimEnd();
      const entry = this.index.get(key);
      if (entry) entry.at.push(i);
      else this.index.set(key, { at: [i], next: 0 });
    });
  }

  /** The row the next line of the answer goes to: the first old line not yet reached. */
  get position(): number {
    return this.cursor;
  }

  /** One whole line of the answer. */
  push(line: string): RowChange[] {
    const match = this.match(line);
    if (match !== undefined) {
      const dropped = match - this.p;
      const changes: RowChange[] = dropped > 0 ? [this.markOld(this.cursor, dropped)] : [];
      this.cursor += dropped + 1;
      this.p = match + 1;
      return changes;
    }
    if (this.p < this.old.length && similar(line, this.old[this.p]!)) {
      const changes: RowChange[] = [this.markOld(this.cursor, 1), this.insert(this.cursor + 1, line)];
      this.cursor += 2;
      this.p += 1;
      return changes;
    }
    const change = this.insert(this.cursor, line);
    this.cursor += 1;
    return [change];
  }

  /** The answer ended: the old lines it never reached are dropped. */
  finish(): RowChange[] {
    const left = this.old.length - this.p;
    this.p = this.old.length;
    if (left === 0) return [];
    const change = this.markOld(this.cursor, left);
    this.cursor += left;
    return [change];
  }

  /** The nearest old line from `p` on with the same text, if it is within reach for a line like it. */
  private match(line: string): number | undefined {
    const entry = this.index.get(line.trimEnd());
    if (!entry) return undefined;
    while (entry.next < entry.at.length && entry.at[entry.next]! < this.p) entry.next++;
    const at = entry.at[entry.next];
    if (at === undefined || at - this.p > reach(line.trim().length)) return undefined;
    return at;
  }

  private markOld(at: number, count: number): RowChange {
    for (let i = 0; i < count; i++) this.rows[at + i] = 'old';
    return { type: 'mark', at, count };
  }

  private insert(at: number, text: string): RowChange {
    this.rows.splice(at, 0, 'new');
    return { type: 'insert', at, texts: [text] };
  }
}

/** A run of changed rows: Keep drops its old rows, Undo drops its new ones. */
export interface Hunk {
  /** First row and the number of rows (old and new together). */
  start: number;
  length: number;
  removed: number;
  added: number;
}

export function hunksOf(rows: readonly RowKind[]): Hunk[] {
  const hunks: Hunk[] = [];
  let open: Hunk | undefined;
  rows.forEach((kind, row) => {
    if (kind === 'same') {
      open = undefined;
      return;
    }
    if (!open) hunks.push((open = { start: row, length: 0, removed: 0, added: 0 }));
    open.length++;
    if (kind === 'old') open.removed++;
    else open.added++;
  });
  return hunks;
}

/** Row ranges `[start, end)` of one kind within `[from, to)`, last first (so deleting them in turn keeps the rest). */
export function runsOf(rows: readonly RowKind[], kind: RowKind, from = 0, to = rows.length): [number, number][] {
  const runs: [number, number][] = [];
  for (let row = from; row < to; row++) {
    if (rows[row] !== kind) continue;
    const last = runs.at(-1);
    if (last && last[1] === row) last[1] = row + 1;
    else runs.push([row, row + 1]);
  }
  return runs.reverse();
}

/**
 * The rows in review order: in each hunk the dropped lines first, then the added ones (as a diff reads). Lines of
 * one kind keep their order. Returns, for each hunk whose order changes, its start and its rows as they should be.
 */
export function reviewOrder(rows: readonly RowKind[]): { start: number; order: number[] }[] {
  return hunksOf(rows).flatMap((hunk) => {
    const span = Array.from({ length: hunk.length }, (_, i) => hunk.start + i);
    const order = [...span.filter((row) => rows[row] === 'old'), ...span.filter((row) => rows[row] === 'new')];
    return order.every((row, i) => row === span[i]) ? [] : [{ start: hunk.start, order }];
  });
}
