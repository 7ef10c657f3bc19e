// A text file is not taken for an archive because a few of its bytes sit where an archive's magic would: tar is
// decided on the whole header (its "ustar" magic, a checksum that adds up, octal fields that parse, a first entry
// that fits the file), as tar-stream and GNU tar check it. And a file whose unpacking fails after its text was read
// whole is reported as the text it is, never as "NOT SCANNED".
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { routerKey } from '../emulator/keyFactory.ts';
import { json, scanCli, tempDir } from './gitFixtures.ts';

/**
 * JavaScript as tar-stream's own headers.js is: a constant spelling "ustar" in its text, here placed at byte 257
 * where a tar header has its magic.
 */
function tarLookingScript(tail = ''): string {
  const head = '// Reads tar headers.\nconst b4a = require("b4a");\n';
  const pad = `${head}${'/'.repeat(257 - head.length - 'const MAGIC = "'.length)}`;
  const text = `${pad}const MAGIC = "ustar"; // ustar\\x00\nconst GNU = "ustar ";\n${tail}module.exports = { MAGIC, GNU };\n`;
  expect(text.slice(257, 262)).toBe('ustar');
  return text;
}

async function tarball(entries: Record<string, string>): Promise<Buffer> {
  const packer = pack();
  const chunks: Buffer[] = [];
  packer.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => packer.on('end', resolve));
  for (const [name, data] of Object.entries(entries)) packer.entry({ name }, Buffer.from(data));
  packer.finalize();
  await done;
  return Buffer.concat(chunks);
}

describe('files that look like archives by a few bytes', () => {
  it('a script holding "ustar" where a tar header has it is scanned as text: clean is exit 0', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'headers.js'), tarLookingScript());
    const run = scanCli(dir, ['--no-git', '--format', 'json']);
    expect(run.stderr).not.toMatch(/NOT SCANNED/);
    expect(run.status).toBe(0);
    expect(json(run)).toMatchObject({ findings: [], skipped: [], complete: true });
  });

  it('a key in such a script is reported at the file, as text, with its line', () => {
    const dir = tempDir();
    const key = routerKey();
    writeFileSync(join(dir, 'headers.js'), tarLookingScript(`const k = "${key}";\n`));
    const run = scanCli(dir, ['--no-git', '--format', 'json']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.line, f.fingerprint])).toEqual([['headers.js', 5, fingerprint(key)]]);
    expect(report.complete).toBe(true);
  });

  it('a text file whose first bytes spell another magic ("Cr24", a browser extension) is reported as text', () => {
    const dir = tempDir();
    const key = routerKey();
    writeFileSync(join(dir, 'notes.txt'), `Cr24 release notes\nkey: ${key}\n`);
    writeFileSync(join(dir, 'clean.txt'), 'Cr24 release notes\nnothing else\n');
    const run = scanCli(dir, ['--no-git', '--format', 'json']);
    expect(run.stderr).not.toMatch(/NOT SCANNED/);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.line, f.fingerprint])).toEqual([['notes.txt', 2, fingerprint(key)]]);
    expect(report).toMatchObject({ skipped: [], complete: true });
  });

  it('real tarballs are still opened by their first bytes: POSIX (tar-stream) and GNU (tar)', async () => {
    const dir = tempDir();
    const [posix, gnu] = [routerKey(), routerKey()];
    writeFileSync(join(dir, 'posix.dat'), await tarball({ 'conf/.env': `KEY=${posix}\n` }));
    const src = tempDir();
    writeFileSync(join(src, 'app.env'), `KEY=${gnu}\n`);
    const made = spawnSync('tar', ['--format=gnu', '-cf', join(dir, 'gnu.dat'), '-C', src, 'app.env']);
    expect(made.status).toBe(0);
    const run = scanCli(dir, ['--no-git', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(
      json(run)
        .findings.map((f) => [f.path, f.fingerprint])
        .sort(),
    ).toEqual(
      [
        ['gnu.dat!app.env', fingerprint(gnu)],
        ['posix.dat!conf/.env', fingerprint(posix)],
      ].sort(),
    );
  });

  it('a damaged tarball of that name is still named as not unpacked (exit 2)', async () => {
    const dir = tempDir();
    const bytes = await tarball({ 'a.txt': 'hello\n' });
    bytes[148] = 0x37; // the checksum no longer adds up
    writeFileSync(join(dir, 'broken.tar'), bytes);
    const run = scanCli(dir, ['--no-git', '--format', 'json']);
    expect(run.status).toBe(2);
    expect(json(run).skipped.map((s) => [s.path, s.reason])).toEqual([['broken.tar', 'archive-unreadable']]);
  });
});
