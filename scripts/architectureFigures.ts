// The line counts docs/architecture.md gives per layer and per folder of src/core and src/host, read from the code.
//   node scripts/architectureFigures.ts     (npm run docs:figures) rewrites the figures between the markers
// A folder the doc has no row for is named, and the run fails: its row needs a sentence saying what it holds, which
// only a person can write. test/lint/architectureFigures.test.ts fails when the doc drifts from the code by more
// than TOLERANCE, or misses a folder, so routine edits do not break it and a stale doc does.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DOC = 'docs/architecture.md';
export const BEGIN = '<!-- figures:begin (npm run docs:figures) -->';
export const END = '<!-- figures:end -->';
/** The layers the doc counts, in its order; core and host also per folder. */
export const LAYERS = ['core', 'host', 'shared', 'webview', 'cli'] as const;
export const FOLDERED = new Set<string>(['core', 'host']);
/** How far a figure may drift from the code before the test says the doc is stale. */
export const TOLERANCE = 0.1;
/** The row of the files at a layer's root, beside its folders. */
export const ROOT_ROW = '(root)';

/** A figure's key: `src/core/` for a layer, `src/core/scan/` or `src/core/(root)` for a row under it. */
export type Figures = Map<string, number>;

function linesOf(path: string): number {
  const text = readFileSync(path, 'utf8');
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.length > 0 && !text.endsWith('\n') ? lines + 1 : lines;
}

/** Lines of every file under `dir`, as `wc -l` counts them (sources, the WebAssembly text, the .cjs shim). */
function linesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? linesUnder(path) : linesOf(path);
  }
  return total;
}

/** The figures of the code under `root` (the repository). */
export function codeFigures(root = '.'): Figures {
  const figures: Figures = new Map();
  for (const layer of LAYERS) {
    const dir = join(root, 'src', layer);
    figures.set(`src/${layer}/`, linesUnder(dir));
    if (!FOLDERED.has(layer)) continue;
    let rootLines = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) figures.set(`src/${layer}/${entry.name}/`, linesUnder(join(dir, entry.name)));
      else rootLines += linesOf(join(dir, entry.name));
    }
    figures.set(`src/${layer}/${ROOT_ROW}`, rootLines);
  }
  figures.set('src/extension.ts', linesOf(join(root, 'src/extension.ts')));
  return figures;
}

/** 791, 1.6k, 12.8k: exact below a thousand, else thousands to one decimal. */
export function formatFigure(lines: number): string {
  return lines < 1000 ? String(lines) : `${(lines / 1000).toFixed(1)}k`;
}

export function parseFigure(text: string): number {
  return text.endsWith('k') ? Math.round(Number(text.slice(0, -1)) * 1000) : Number(text);
}

// ` src/core/ (12.8k lines)` or ` src/extension.ts (120 lines)`, then anything; `   scan/     6.3k  the scanner…`.
const HEADER = /^( (src\/[\w.]+\/?) \()([\d.]+k?)( lines\).*)$/;
const ROW = /^( {3})(\(root\)|[\w-]+\/)( *)([\d.]+k?)( {2}.*|)$/;

interface Block {
  before: string;
  lines: string[];
  after: string;
}

function block(markdown: string): Block {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`${DOC} has no figures between "${BEGIN}" and "${END}"`);
  const start = begin + BEGIN.length;
  return {
    before: markdown.slice(0, start),
    lines: markdown.slice(start, end).split('\n'),
    after: markdown.slice(end),
  };
}

/** The figures the doc gives, by the same keys as codeFigures. */
export function docFigures(markdown: string): Figures {
  const figures: Figures = new Map();
  let layer = '';
  for (const line of block(markdown).lines) {
    const header = HEADER.exec(line);
    if (header) {
      layer = header[2]!;
      figures.set(layer, parseFigure(header[3]!));
      continue;
    }
    const row = ROW.exec(line);
    if (row && layer) figures.set(layer + row[2]!, parseFigure(row[4]!));
  }
  return figures;
}

/** What the doc gets wrong: figures off by more than the tolerance, folders it lacks, folders that are gone. */
export function driftOf(doc: Figures, code: Figures, tolerance = TOLERANCE): string[] {
  const problems: string[] = [];
  for (const [key, lines] of code) {
    const said = doc.get(key);
    if (said === undefined) problems.push(`${key}: missing from ${DOC} (${formatFigure(lines)} lines in the code)`);
    else if (Math.abs(said - lines) > tolerance * Math.max(lines, 1))
      problems.push(`${key}: ${DOC} says ${formatFigure(said)} lines, the code has ${formatFigure(lines)}`);
  }
  for (const key of doc.keys())
    if (!code.has(key)) problems.push(`${key}: in ${DOC}, but there is no such folder in the code`);
  return problems;
}

/** The doc with every figure it gives set from the code; rows keep their words and columns. */
export function rewriteFigures(markdown: string, code: Figures): string {
  const { before, lines, after } = block(markdown);
  let layer = '';
  const rewritten = lines.map((line) => {
    const header = HEADER.exec(line);
    if (header) {
      layer = header[2]!;
      const lines = code.get(layer);
      return lines === undefined ? line : `${header[1]}${formatFigure(lines)}${header[4]}`;
    }
    const row = ROW.exec(line);
    const lines = row && layer ? code.get(layer + row[2]!) : undefined;
    if (!row || lines === undefined) return line;
    return `${row[1]}${row[2]!.padEnd(10)}${formatFigure(lines).padStart(4)}${row[5]}`;
  });
  return before + rewritten.join('\n') + after;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = codeFigures();
  const before = readFileSync(DOC, 'utf8');
  const after = rewriteFigures(before, code);
  if (after !== before) writeFileSync(DOC, after);
  process.stdout.write(`${DOC}: figures ${after === before ? 'already current' : 'rewritten from the code'}\n`);
  const missing = driftOf(docFigures(after), code);
  if (missing.length > 0) {
    process.stderr.write(`${missing.join('\n')}\nAdd a row for each, with a line saying what it holds.\n`);
    process.exitCode = 1;
  }
}
