// The history parser's plain hunks (issue 35 §1): most of a long history's lines are code with no key prefix in
// them. Those are counted, not each handed to the pre-check; the findings stay those of reading every line, at
// the same lines, however git's output is cut, and with options that look for more than the shapes.
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryParser } from '../../../src/core/scan/historyParser.ts';
import * as precheck from '../../../src/core/scan/literalPrecheck.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

vi.mock('../../../src/core/scan/literalPrecheck.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/core/scan/literalPrecheck.ts')>();
  return { ...real, mayContainKey: vi.fn(real.mayContainKey) };
});

const asked = vi.mocked(precheck.mayContainKey);
const keys = [routerKey(), directKey('proj')];

/** `git log -p -U0` output of one commit: a file of `lines` added code lines, a key at `keyAt`, then a change. */
function log(lines: number, keyAt: number): Buffer {
  const code = Array.from({ length: lines }, (_, i) =>
    i === keyAt ? `+const key = "${keys[0]}";` : `+  const item${i} = load(items[${i}]); // plain code`,
  );
  return Buffer.from(
    [
      `\0commit ${'a'.repeat(40)} add the module`,
      '',
      'diff --git a/src/app.js b/src/app.js',
      'new file mode 100644',
      `index ${'0'.repeat(40)}..${'b'.repeat(40)}`,
      '--- /dev/null',
      '+++ b/src/app.js',
      `@@ -0,0 +1,${lines} @@`,
      ...code,
      `\0commit ${'c'.repeat(40)} change it`,
      '',
      'diff --git a/src/app.js b/src/app.js',
      `index ${'b'.repeat(40)}..${'d'.repeat(40)} 100644`,
      '--- a/src/app.js',
      '+++ b/src/app.js',
      '@@ -3,2 +3,2 @@',
      '-  const item2 = load(items[2]); // plain code',
      '-  const item3 = load(items[3]); // plain code',
      '+  const item2 = load(items[2]); // changed',
      `+const other = "${keys[1]}";`,
      '',
    ].join('\n'),
  );
}

const view = (parser: HistoryParser) =>
  parser.end().map((f) => [f.path, f.commit!.slice(0, 1), f.finding.line, f.finding.column, f.finding.fingerprint]);

describe('history parser: plain hunks', () => {
  beforeEach(() => {
    asked.mockClear();
  });

  it('asks the pre-check only of the lines where a prefix may end, and finds every key at its line', () => {
    const parser = new HistoryParser();
    parser.push(log(3000, 1700));
    const found = view(parser);
    expect(found.map(([path, commit, line]) => [path, commit, line])).toEqual([
      ['src/app.js', 'a', 1700],
      ['src/app.js', 'c', 3],
    ]);
    // Two keys and each file's first line (an archive's magic bytes), not the 3,001 added lines.
    expect(asked.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it('finds the same however the output is cut', () => {
    const bytes = log(400, 123);
    const whole = new HistoryParser();
    whole.push(bytes);
    const expected = view(whole);
    expect(expected).toHaveLength(2);
    fc.assert(
      fc.property(fc.array(fc.nat(bytes.length), { maxLength: 30 }), (cuts) => {
        const parser = new HistoryParser();
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          parser.push(bytes.subarray(at, cut));
          at = cut;
        }
        parser.push(bytes.subarray(at));
        expect(view(parser)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('reads every added line when the options look for more than the shapes (a stored key)', () => {
    const parser = new HistoryParser({ known: [{ value: keys[0]!, service: 'router' }] });
    parser.push(log(300, 200));
    expect(view(parser)).toHaveLength(2);
    expect(asked.mock.calls.length).toBeGreaterThanOrEqual(301);
  });
});
