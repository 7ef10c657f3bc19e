// docs/architecture.md gives lines per layer and per folder of src/core and src/host. Once written by hand, they
// said 10.9k and 4.7k when the code held 13.2k and 6.3k, and host/lm had no row. The figures are the code's
// (npm run docs:figures); this fails on real drift (a figure off by more than 10 %, a folder with no row or a row
// for a folder that is gone), not on a routine edit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DOC,
  codeFigures,
  docFigures,
  driftOf,
  formatFigure,
  parseFigure,
  rewriteFigures,
} from '../../scripts/architectureFigures.ts';

const doc = readFileSync(DOC, 'utf8');

describe("the architecture doc's figures", () => {
  it('are the code’s, within 10 %, with a row for every folder of src/core and src/host', () => {
    expect(driftOf(docFigures(doc), codeFigures())).toEqual([]);
  });

  it('count every layer and the folders the doc names', () => {
    const figures = docFigures(doc);
    for (const key of ['src/core/', 'src/host/', 'src/shared/', 'src/webview/', 'src/cli/', 'src/extension.ts'])
      expect(figures.has(key), key).toBe(true);
    expect(figures.has('src/host/lm/')).toBe(true);
    expect(figures.has('src/core/lm/')).toBe(true);
  });

  // The check itself, on a doc it must refuse: the figures the issue found, and a folder left out.
  it('refuses a stale figure, a missing folder and a folder that is gone', () => {
    const code = new Map([
      ['src/core/', 13_200],
      ['src/core/scan/', 6300],
      ['src/host/', 6300],
      ['src/host/lm/', 390],
    ]);
    const stale = new Map([
      ['src/core/', 10_900],
      ['src/core/scan/', 6100],
      ['src/host/', 4700],
      ['src/host/gone/', 12],
    ]);
    expect(driftOf(stale, code)).toEqual([
      'src/core/: docs/architecture.md says 10.9k lines, the code has 13.2k',
      'src/host/: docs/architecture.md says 4.7k lines, the code has 6.3k',
      'src/host/lm/: missing from docs/architecture.md (390 lines in the code)',
      'src/host/gone/: in docs/architecture.md, but there is no such folder in the code',
    ]);
  });

  it('rewrites the figures in place, keeping each row’s words and columns', () => {
    const sample = [
      'before',
      '<!-- figures:begin (npm run docs:figures) -->',
      '```',
      ' src/core/ (10.9k lines)',
      '   account/   682  accountMonitor',
      '   chat/     1.6k  chatCompletionsClient',
      '                   and more words',
      '```',
      '<!-- figures:end -->',
      'after 1.6k stays',
    ].join('\n');
    const code = new Map([
      ['src/core/', 12_816],
      ['src/core/account/', 791],
      ['src/core/chat/', 2016],
    ]);
    expect(rewriteFigures(sample, code).split('\n').slice(3, 7)).toEqual([
      ' src/core/ (12.8k lines)',
      '   account/   791  accountMonitor',
      '   chat/     2.0k  chatCompletionsClient',
      '                   and more words',
    ]);
    expect(rewriteFigures(sample, code)).toMatch(/after 1\.6k stays$/);
    expect(formatFigure(999)).toBe('999');
    expect(parseFigure(formatFigure(12_816))).toBe(12_800);
  });
});
