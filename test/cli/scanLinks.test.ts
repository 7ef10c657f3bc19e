// `keyward scan --no-git` reads a file reached through symbolic links once (issue 23, part 4: a 126 MB
// binary linked twice in node_modules was read three times) and still reports what it holds under every
// name, as before. Seen from outside: a preload counts the opens of each real path. ripgrep skips links it
// meets while walking unless -L, where a link to a file "only doubles the matches output" (BurntSushi/ripgrep
// issue #2811); Keyward reads through them without git and names each, so it must not pay once per name.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routerKey } from '../emulator/keyFactory.ts';
import { json, scanCli, tempDir } from './gitFixtures.ts';

const HOOK = `const fs = require('fs');
const opens = {};
const open = fs.openSync;
fs.openSync = function (path, ...rest) {
  try { const real = fs.realpathSync(String(path)); opens[real] = (opens[real] || 0) + 1; } catch {}
  return open.call(this, path, ...rest);
};
process.on('exit', () => fs.writeFileSync(process.env.KEYWARD_TEST_OPENS, JSON.stringify(opens)));
`;

describe('keyward scan --no-git through links', () => {
  it('reads a linked file once and reports its key under every name, as it did reading it each time', () => {
    const dir = tempDir('keyward-links-');
    const key = routerKey();
    // Megabytes, as the large binaries that made this matter.
    const blob = join(dir, 'blob.bin');
    writeFileSync(blob, Buffer.concat([Buffer.alloc(2 << 20, 'a\n'), Buffer.from(`k = "${key}"\n`)]));
    symlinkSync('blob.bin', join(dir, 'link.bin'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync('../blob.bin', join(dir, 'sub', 'link.bin'));
    // A name that says archive: opened as one (it is not), apart from the names that say text.
    symlinkSync('blob.bin', join(dir, 'blob.zip'));
    const tools = tempDir('keyward-hook-');
    writeFileSync(join(tools, 'hook.cjs'), HOOK);
    const record = join(tools, 'opens.json');

    const run = scanCli(dir, ['--no-git', '--format', 'json', '.'], {
      NODE_OPTIONS: `--require ${join(tools, 'hook.cjs')}`,
      KEYWARD_TEST_OPENS: record,
    });
    const report = json(run);
    expect(run.status).toBe(1);
    expect(report.findings.map((f) => [f.path, f.line]).sort()).toEqual([
      ['blob.bin', 1048577],
      ['blob.zip', 1048577],
      ['link.bin', 1048577],
      ['sub/link.bin', 1048577],
    ]);
    expect(new Set(report.findings.map((f) => f.fingerprint)).size).toBe(1);
    // Text under an archive's name is read whole as the text it is: nothing left unread (test/cli/scanTarLookalike.test.ts).
    expect(report.skipped).toEqual([]);
    const opens = JSON.parse(readFileSync(record, 'utf8')) as Record<string, number>;
    // Once as text (for its three text names), once as an archive (the .zip name).
    expect(Object.entries(opens).filter(([path]) => path.endsWith('blob.bin'))).toEqual([[expect.any(String), 2]]);
  });
});
