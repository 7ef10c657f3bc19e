// Writes dist/codicon.css and a subset of the codicon font with only the glyphs
// the panel names (src/webview/codicons.ts): the full font is 126 KB, the subset
// a few KB, and the VSIX has a size budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import subsetFont from 'subset-font';
import { CODICONS } from '../src/webview/codicons.ts';

const require = createRequire(import.meta.url);

export async function writeCodicons(outDir: string): Promise<void> {
  const css = readFileSync(require.resolve('@vscode/codicons/dist/codicon.css'), 'utf8');
  const font = readFileSync(require.resolve('@vscode/codicons/dist/codicon.ttf'));
  const points = new Map<string, string>();
  for (const match of css.matchAll(/\.codicon-([\w-]+):before \{ content: "\\([0-9a-f]+)" \}/g))
    points.set(match[1]!, match[2]!);
  const missing = CODICONS.filter((name) => !points.has(name));
  if (missing.length > 0) throw new Error(`@vscode/codicons has no icon named ${missing.join(', ')}`);
  const text = CODICONS.map((name) => String.fromCodePoint(parseInt(points.get(name)!, 16))).join('');
  const subset = await subsetFont(font, text, { targetFormat: 'woff2' });
  writeFileSync(`${outDir}/codicon.woff2`, subset);
  const rules = CODICONS.map((name) => `.codicon-${name}::before { content: '\\${points.get(name)}'; }`);
  writeFileSync(
    `${outDir}/codicon.css`,
    [
      '/* A subset of @vscode/codicons (MIT, Microsoft): only the icons Keyward draws. */',
      `@font-face { font-family: 'codicon'; font-display: block; src: url('codicon.woff2') format('woff2'); }`,
      ".codicon[class*='codicon-'] { font: normal normal normal 16px/1 codicon; display: inline-block;" +
        ' text-decoration: none; text-align: center; -webkit-font-smoothing: antialiased; user-select: none; }',
      ...rules,
      '',
    ].join('\n'),
  );
}
