// The inline edit's streamed diff: whatever the old lines and the answer, the rows it lays out hold the old lines in
// order (Undo gives back exactly the old text) and the answer's lines in order (Keep gives exactly the answer), and
// so does each hunk kept or undone alone, and the review order that puts a hunk's dropped lines first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type RowChange,
  type RowKind,
  StreamLineDiff,
  hunksOf,
  reviewOrder,
  runsOf,
  similar,
} from '../../../src/core/chat/streamLineDiff.ts';

interface Row {
  kind: RowKind;
  text: string;
}

/** The document's rows as a renderer would keep them, from the changes alone. */
function render(oldLines: string[], answer: string[]): { rows: Row[]; diff: StreamLineDiff } {
  const rows: Row[] = oldLines.map((text) => ({ kind: 'same', text }));
  const apply = (change: RowChange) => {
    if (change.type === 'insert')
      rows.splice(change.at, 0, ...change.texts.map((text): Row => ({ kind: 'new', text })));
    else for (let i = 0; i < change.count; i++) rows[change.at + i]!.kind = 'old';
  };
  const diff = new StreamLineDiff(oldLines);
  for (const line of answer) diff.push(line).forEach(apply);
  diff.finish().forEach(apply);
  return { rows, diff };
}

const texts = (rows: Row[], kinds: RowKind[]) => rows.filter((r) => kinds.includes(r.kind)).map((r) => r.text);
const trimmed = (lines: string[]) => lines.map((l) => l.trimEnd());

// Few distinct lines, so that matches, near matches and repeats are common; blank and short ones included.
const line = fc.constantFrom(
  '',
  '}',
  '  return a;',
  '  return b;',
  'function f() {',
  'const x = 1;',
  'const x = 2; ',
  'x',
);
const lines = fc.array(line, { maxLength: 30 });

describe('the streamed line diff', () => {
  it('keeps the old lines in order and the answer’s lines in order, for any answer', () => {
    fc.assert(
      fc.property(lines, lines, (oldLines, answer) => {
        const { rows, diff } = render(oldLines, answer);
        expect(rows.map((r) => r.kind)).toEqual(diff.rows);
        // Undo everything: exactly the old text.
        expect(texts(rows, ['same', 'old'])).toEqual(oldLines);
        // Keep everything: the answer (a kept line keeps its old trailing white space).
        expect(trimmed(texts(rows, ['same', 'new']))).toEqual(trimmed(answer));
      }),
    );
  });

  it('keeps or undoes one hunk at a time to the same end, and the review order changes neither side', () => {
    fc.assert(
      fc.property(lines, lines, fc.array(fc.boolean(), { maxLength: 30 }), (oldLines, answer, choices) => {
        const { rows } = render(oldLines, answer);
        for (const { start, order } of reviewOrder(rows.map((r) => r.kind))) {
          const moved = order.map((row) => rows[row]!);
          rows.splice(start, moved.length, ...moved);
        }
        expect(reviewOrder(rows.map((r) => r.kind))).toEqual([]);
        // Each hunk kept (its old rows go) or undone (its new rows go), last hunk first as the host does.
        const kinds = rows.map((r) => r.kind);
        const hunks = hunksOf(kinds);
        const keep = (i: number) => choices[i] ?? true;
        const hunkOf = (row: number) => hunks.findIndex((h) => row >= h.start && row < h.start + h.length);
        const expected = rows
          .filter((r, row) => {
            const i = hunkOf(row);
            return i === -1 || r.kind === (keep(i) ? 'new' : 'old');
          })
          .map((r) => r.text);
        for (const hunk of hunks) expect(hunk.removed + hunk.added).toBe(hunk.length);
        for (let i = hunks.length - 1; i >= 0; i--) {
          const hunk = hunks[i]!;
          for (const [from, to] of runsOf(kinds, keep(i) ? 'old' : 'new', hunk.start, hunk.start + hunk.length))
            rows.splice(from, to - from);
        }
        expect(rows.map((r) => r.text)).toEqual(expected);
      }),
    );
  });

  it('shows an unchanged answer as no change at all', () => {
    fc.assert(
      fc.property(lines, (oldLines) => {
        const { rows } = render(oldLines, oldLines);
        expect(rows.every((r) => r.kind === 'same')).toBe(true);
      }),
    );
  });

  it('marks a changed line old with its new version right under it', () => {
    const { rows } = render(['a', '  return total;', 'b'], ['a', '  return total * 2;', 'b']);
    expect(rows).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'old', text: '  return total;' },
      { kind: 'new', text: '  return total * 2;' },
      { kind: 'same', text: 'b' },
    ]);
  });

  it('does not take a far `}` or blank line as the place the answer continues', () => {
    // The `}` two lines down is too far for so short a line: an insertion; `two();` is close enough to match.
    const { rows } = render(['if (a) {', '  one();', '}', '', 'two();', '}'], ['}', 'two();', '}']);
    expect(rows.map((r) => r.kind)).toEqual(['new', 'old', 'old', 'old', 'old', 'same', 'same']);
    const far = render(['a();', 'b();', 'c();', 'd();', '}'], ['}']).rows;
    expect(far.map((r) => r.kind)).toEqual(['new', 'old', 'old', 'old', 'old', 'old']);
  });

  it('calls lines similar by their shared ends, and never blank ones', () => {
    expect(similar('  const total = a + b;', 'const total = a + b + c;')).toBe(true);
    expect(similar('return 1;', 'import x from "y";')).toBe(false);
    expect(similar('', '')).toBe(false);
  });

  it('matches each line in constant time: 20,000 lines of a long file stream through quickly', () => {
    const oldLines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 40)}`);
    const answer = oldLines.map((l, i) => (i % 10 === 0 ? `${l} changed` : l));
    const start = performance.now();
    const { rows } = render(oldLines, answer);
    expect(rows.length).toBe(22_000);
    // A scan of the old lines per new line (quadratic) takes seconds here; the index keeps it well under one.
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
