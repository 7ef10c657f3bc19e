// The editor's Scan Workspace looks into what ships as `keyward scan` does:
// inside archives and source maps' original sources, built here in code
// around generated keys (none is ever committed).
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import * as vscode from 'vscode';
import { keyward, write } from './editor.ts';
import { activateKeyward } from './env.ts';

const routerKey = () => ['sk', 'or', 'v1', randomBytes(32).toString('hex')].join('-');

function writeBytes(path: string, bytes: Uint8Array): vscode.Uri {
  const uri = write(path, '');
  writeFileSync(uri.fsPath, bytes);
  return uri;
}

suite('workspace scan of what ships', () => {
  suiteSetup(async () => {
    await activateKeyward();
  });

  test('a key in a .vsix, a nested .zip and a source map is shown at its inner path, line and column', async () => {
    const bundled = routerKey();
    const nested = routerKey();
    const mapped = routerKey();
    const inner = zipSync({ 'lib/config.js': strToU8(`exports.key = '${nested}';\n`) });
    const vsix = writeBytes(
      'shipped/pkg.vsix',
      zipSync({
        'extension/package.json': strToU8('{"name":"x"}'),
        'extension/dist/x.js': strToU8(`"use strict";\n// bundled\nvar a=1,k="${bundled}";\n`),
        'extension/vendor.zip': inner,
      }),
    );
    const map = write(
      'shipped/out.js.map',
      JSON.stringify({
        version: 3,
        sources: ['../src/settings.ts'],
        sourcesContent: [`export const a = 1;\nexport const key = '${mapped}';\n`],
        mappings: '',
      }),
    );
    // A zip cut inside its central directory: named as not unpacked (its bytes still searched), never called clean.
    // (A text file that is only named .zip is read whole as text, so it is scanned: test/cli/scanArchives.test.ts.)
    const whole = zipSync({ 'a.txt': strToU8('nothing secret here\n') });
    const broken = writeBytes('shipped/broken.zip', whole.subarray(0, whole.length - 30));
    const tgz = writeBytes('shipped/empty.tgz', gzipSync(new Uint8Array(1024)));
    try {
      const result = await vscode.commands.executeCommand<{
        findings: number;
        notScanned: { path: string; reason: string }[];
      }>('keyward.scanWorkspace');

      const inVsix = keyward(vsix)
        .map((d) => d.message)
        .sort();
      assert.equal(inVsix.length, 2, inVsix.join('\n'));
      // 'var a=1,k="' is 11 characters: the key starts at column 12 of line 3.
      assert.match(inVsix[0]!, /^shipped\/pkg\.vsix!extension\/dist\/x\.js:3:12: A routing service key, sk-or-v1-…/);
      assert.match(
        inVsix[1]!,
        /^shipped\/pkg\.vsix!extension\/vendor\.zip!lib\/config\.js:1:16: A routing service key/,
      );
      for (const message of inVsix) assert.ok(!message.includes(bundled) && !message.includes(nested), message);

      const [inMap] = keyward(map);
      assert.match(inMap!.message, /^shipped\/out\.js\.map!\.\.\/src\/settings\.ts:2:21: A routing service key/);
      assert.ok(!inMap!.message.includes(mapped));

      const skipped = result.notScanned.find((s) => s.path === 'shipped/broken.zip');
      assert.ok(skipped, `broken.zip is named as not unpacked: ${JSON.stringify(result.notScanned)}`);
      assert.match(skipped.reason, /could not be unpacked/);
      assert.ok(!result.notScanned.some((s) => s.path.startsWith('shipped/empty.tgz')), 'an empty tar is read');
    } finally {
      for (const uri of [vsix, map, broken, tgz]) rmSync(uri.fsPath, { force: true });
    }
  });
});
