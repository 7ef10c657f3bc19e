// A source map open in the editor, over the fake vscode: each original source in
// `sourcesContent` is a file of its own for allow comments, as `keyward scan` reads
// it (issue 19, item 6). Read as the document's one JSON line, a `keyward-ignore`
// in one source hid the key in another.
import { afterEach, describe, expect, it } from 'vitest';
import { routerKey } from '../../emulator/keyFactory.ts';
import { type EditorParts, editorParts } from '../editorParts.ts';
import { fakeDocument } from '../fakeVscode.ts';

let parts: EditorParts;
afterEach(() => parts.dispose());

describe('an open source map', () => {
  it("is read source by source: one source's keyward-ignore does not hide another source's key", async () => {
    parts = editorParts();
    const key = routerKey();
    const map = JSON.stringify({
      version: 3,
      sources: ['src/a.ts', 'src/b.ts'],
      sourcesContent: ['// keyward-ignore\n', `export const b = 2;\nexport const apiKey = '${key}';\n`],
      mappings: 'AAAA',
      names: [],
    });
    const doc = fakeDocument('/bundle.js.map', map, 'json', 'untitled');
    await parts.diagnostics.full(doc as never);
    const published = parts.collection.get(doc.uri as never) ?? [];
    expect(published.map((d) => d.code)).toEqual(['router-key']);
    expect(published[0]!.message).toMatch(/^bundle\.js\.map!src\/b\.ts:2:24: A routing service key/);
    expect(published[0]!.message).not.toContain(key);
    expect(parts.diagnostics.all(doc.uri as never).map((e) => e.inner)).toEqual(['src/b.ts']);
  });
});
