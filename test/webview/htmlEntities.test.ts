// markdown-it's character references are read by the webview's own HTML parser (src/webview/htmlEntities.ts), not by
// the `entities` package's table: for everything markdown-it hands over, the answers must be the same.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { strictDecoder } from '../../src/webview/htmlEntities.ts';

// The copy markdown-it itself imports.
const requireFromMarkdownIt = createRequire(createRequire(import.meta.url).resolve('markdown-it'));
const entities = requireFromMarkdownIt('entities') as {
  decodeHTMLStrict(text: string): string;
  encodeHTML(text: string): string;
};
const decode = strictDecoder(new JSDOM('').window.document);

/** A name for every character the table names (the encoder's choice of name), as `&name;`. */
function namedReferences(): string[] {
  const names = new Set<string>();
  for (let code = 0; code <= 0x1ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    for (const [reference] of entities.encodeHTML(String.fromCodePoint(code)).matchAll(/&[a-z][a-z0-9]*;/gi))
      names.add(reference);
  }
  return [...names];
}

describe("markdown-it's character references, read by the browser's parser", () => {
  it('decode every named reference as the entities table does', () => {
    const references = namedReferences();
    expect(references.length).toBeGreaterThan(1000);
    const differ = references.filter((reference) => decode(reference) !== entities.decodeHTMLStrict(reference));
    expect(differ).toEqual([]);
  });

  it('read a name only with its semicolon, and leave what is no reference as it is', () => {
    const cases = [
      '&amp;',
      '&AMP;',
      '&hellip;',
      '&notin;',
      // A legacy name (`&not`) followed by more letters: strict decoding takes none of it; text would take `&not`.
      '&notit;',
      '&ampx;',
      '&copycat;',
      '&nosuchname;',
      '&#abc;',
      '&#x;',
      '&#123456789;',
      '&#x110000;',
      '&#0;',
      '&#128;',
      '&NotNestedGreaterGreater;',
      '&ThickSpace;',
    ];
    for (const text of cases) expect([text, decode(text)]).toEqual([text, entities.decodeHTMLStrict(text)]);
  });

  it('parse nothing but one reference', () => {
    for (const text of ['<b>x</b>', '&amp;<i>', '"&amp;', '&amp; &lt;', '&a"b;', '']) expect(decode(text)).toBe(text);
  });

  it('are what the built webview uses: the table is not in dist/webview.js', () => {
    const webview = readFileSync('dist/webview.js', 'utf8');
    const table = readFileSync(requireFromMarkdownIt.resolve('entities/decode'), 'utf8').includes('htmlDecodeTree');
    expect(table).toBe(true);
    expect(webview).not.toContain('htmlDecodeTree');
    expect(webview).toContain('<i title="');
  });
});
