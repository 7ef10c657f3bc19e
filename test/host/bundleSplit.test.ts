// The extension bundle keeps the archive unpackers (tar-stream, the zip reader, zlib) out, in dist/archive.js,
// loaded on the first archive a workspace scan meets, as undici is loaded on the first request: an
// activation does not parse them and dist/extension.js keeps near its size budget (bench/bundle.ts).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeVscode, fakeExtensionContext } from './fakeVscode.ts';
import { loadExtensionBundle } from './loadBundle.ts';

const require = createRequire(import.meta.url);

describe('the archive unpackers, on demand', () => {
  it('are not in dist/extension.js and not loaded by activation', () => {
    // tar-stream's own error text: present wherever tar-stream is bundled.
    expect(readFileSync('dist/extension.js', 'utf8')).not.toContain('Invalid tar header');
    const archive = resolve('dist/archive.js');
    delete require.cache[archive];
    const { api } = createFakeVscode();
    const context = fakeExtensionContext();
    loadExtensionBundle(api).activate(context);
    expect(Object.keys(require.cache)).not.toContain(archive);
    context.dispose();
  });

  it('dist/archive.js holds them, for the bundle to load', () => {
    expect(readFileSync('dist/extension.js', 'utf8')).toMatch(/(?:import|require)\(["']\.\/archive\.js["']\)/);
    const codecs = require(resolve('dist/archive.js')) as Record<string, unknown>;
    expect(Object.keys(codecs).sort()).toEqual([
      'extract',
      'gunzipSync',
      'unpackEntry',
      'zipEntryList',
      'zstdDecompressSync',
    ]);
  });
});
