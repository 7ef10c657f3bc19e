// Keys in what ships: `keyward scan` inside .vsix, .zip, .jar, .tgz (as npm
// pack makes it) and nested archives, in source maps' original sources, with
// the inner path, line and column; caps on entries, bytes, ratio and depth
// reported as skips that keep the exit status from saying clean.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS, scanArchive } from '../../src/core/scan/archive.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { json, scanCli, tempDir } from './gitFixtures.ts';

const text = (s: string) => new TextEncoder().encode(s);

/** A zip; `store` keeps entries uncompressed (as a .jar's manifest may be), else deflated. */
function zip(entries: Record<string, Uint8Array | string>, store = false): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [name, data] of Object.entries(entries)) files[name] = typeof data === 'string' ? text(data) : data;
  return zipSync(files, { level: store ? 0 : 6 });
}

async function tar(entries: { name: string; data?: string | Uint8Array; type?: 'symlink'; linkname?: string }[]) {
  const packer = pack();
  const chunks: Buffer[] = [];
  packer.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => packer.on('end', resolve));
  for (const entry of entries) {
    if (entry.type === 'symlink') packer.entry({ name: entry.name, type: 'symlink', linkname: entry.linkname });
    else packer.entry({ name: entry.name }, Buffer.from(entry.data ?? ''));
  }
  packer.finalize();
  await done;
  return Buffer.concat(chunks);
}

const bundleWith = (key: string) => `"use strict";\nvar a=1;\nvar client={apiKey:"${key}"};\n`;

describe('keyward scan inside archives', () => {
  it('a .vsix: the key at its inner path, line and column; exit 1', () => {
    const dir = tempDir();
    const key = directKey('proj');
    writeFileSync(
      join(dir, 'keyward.vsix'),
      zip({
        '[Content_Types].xml': '<Types/>',
        'extension/package.json': '{}',
        'extension/dist/x.js': bundleWith(key),
      }),
    );
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'keyward.vsix']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.line, f.column])).toEqual([
      ['keyward.vsix!extension/dist/x.js', 3, 21],
    ]);
    expect(report.skipped).toEqual([]);
    expect(run.stdout).not.toContain(key);
    const textRun = scanCli(dir, ['--no-git', 'keyward.vsix']);
    expect(textRun.stdout).toContain('keyward.vsix!extension/dist/x.js:3:21:');
  });

  it('a .zip with stored entries, a .jar, and a clean archive exits 0', () => {
    const dir = tempDir();
    const [a, b] = [routerKey(), directKey('legacy')];
    writeFileSync(join(dir, 'stored.zip'), zip({ 'conf/app.properties': `x=1\nkey=${a}\n` }, true));
    writeFileSync(join(dir, 'lib.jar'), zip({ 'META-INF/MANIFEST.MF': 'x', 'com/x/Keys.java': `k = "${b}";` }));
    writeFileSync(join(dir, 'clean.zip'), zip({ 'a.txt': 'nothing' }));
    const report = json(scanCli(dir, ['--no-git', '--format', 'json', '.']));
    expect(report.findings.map((f) => `${f.path}:${f.line}:${f.column}`).sort()).toEqual([
      'lib.jar!com/x/Keys.java:1:6',
      'stored.zip!conf/app.properties:2:5',
    ]);
    const clean = scanCli(dir, ['--no-git', 'clean.zip']);
    expect(clean.status).toBe(0);
  });

  it('a .tgz as npm pack makes it (package/…), and a .tar.gz', async () => {
    const dir = tempDir();
    const key = routerKey();
    const tarball = await tar([
      { name: 'package/package.json', data: '{"name":"x"}' },
      { name: 'package/dist/index.js', data: bundleWith(key) },
    ]);
    writeFileSync(join(dir, 'x-1.0.0.tgz'), gzipSync(tarball));
    writeFileSync(join(dir, 'x.tar.gz'), gzipSync(tarball));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'x-1.0.0.tgz', 'x.tar.gz']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => `${f.path}:${f.line}:${f.column}`)).toEqual([
      'x-1.0.0.tgz!package/dist/index.js:3:21',
      'x.tar.gz!package/dist/index.js:3:21',
    ]);
  });

  it('nested archives: a .tgz in a .zip in a .vsix, named all the way down', async () => {
    const dir = tempDir();
    const key = directKey('svcacct');
    const inner = gzipSync(await tar([{ name: 'package/lib.js', data: `\n\nconst k = '${key}';` }]));
    const middle = zip({ 'vendor/dep.tgz': inner });
    writeFileSync(join(dir, 'ext.vsix'), zip({ 'extension/bundled.zip': middle }));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'ext.vsix']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => `${f.path}:${f.line}:${f.column}`)).toEqual([
      'ext.vsix!extension/bundled.zip!vendor/dep.tgz!package/lib.js:3:12',
    ]);
  });

  it('a source map: the key at the original source, line and column', () => {
    const dir = tempDir();
    const key = routerKey();
    const original = `import x from 'y';\n\nexport const apiKey = '${key}';\n`;
    const map = JSON.stringify({
      version: 3,
      sources: ['webpack://app/./src/config.ts'],
      sourcesContent: [original],
      mappings: 'AAAA',
      names: [],
    });
    writeFileSync(join(dir, 'main.js.map'), map);
    writeFileSync(join(dir, 'app.zip'), zip({ 'dist/main.js.map': map }));
    const report = json(scanCli(dir, ['--no-git', '--format', 'json', 'main.js.map', 'app.zip']));
    expect(report.findings.map((f) => `${f.path}:${f.line}:${f.column}`)).toEqual([
      'main.js.map!webpack://app/./src/config.ts:3:24',
      'app.zip!dist/main.js.map!webpack://app/./src/config.ts:3:24',
    ]);
  });

  it('a zip bomb (one entry expanding 1000 times) is not unpacked and is named: exit 2, not clean', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bomb.zip'), zip({ 'zeros.bin': new Uint8Array(16 << 20), 'ok.txt': 'fine' }));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'bomb.zip']);
    expect(run.status).toBe(2);
    const report = json(run);
    expect(report.complete).toBe(false);
    expect(report.skipped.map((s) => [s.path, s.reason, s.incomplete])).toEqual([
      ['bomb.zip!zeros.bin', 'archive-limit', true],
    ]);
    expect(report.skipped[0]!.message).toMatch(/expands \d+ times/);
  });

  it('a gzip bomb in a .tgz is refused the same way', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bomb.tgz'), gzipSync(new Uint8Array(16 << 20)));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'bomb.tgz']);
    expect(run.status).toBe(2);
    expect(json(run).skipped.map((s) => [s.path, s.reason])).toEqual([['bomb.tgz', 'archive-limit']]);
  });

  it('archives nested deeper than the limit are named, and a key found elsewhere still exits 1', () => {
    const dir = tempDir();
    let archive = zip({ 'deep.txt': `k=${routerKey()}` });
    for (let level = 0; level < ARCHIVE_LIMITS.depth; level++) archive = zip({ [`level${level}.zip`]: archive });
    writeFileSync(join(dir, 'deep.zip'), archive);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'deep.zip']);
    expect(run.status).toBe(2);
    expect(json(run).skipped.map((s) => [s.path, s.reason])).toEqual([
      ['deep.zip!level2.zip!level1.zip!level0.zip', 'archive-too-deep'],
    ]);
    writeFileSync(join(dir, 'key.txt'), `k=${routerKey()}\n`);
    expect(scanCli(dir, ['--no-git', 'deep.zip', 'key.txt']).status).toBe(1);
  });

  it('a damaged archive is named, and its bytes are still read', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.zip'), `not a zip at all\nkey=${routerKey()}\n`);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'notes.zip']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => `${f.path}:${f.line}`)).toEqual(['notes.zip:2']);
    expect(report.skipped.map((s) => s.reason)).toEqual(['archive-unreadable']);
  });

  it('"../" names and symlink entries are only names: nothing is written, no link is followed', async () => {
    const dir = tempDir();
    const key = routerKey();
    writeFileSync(join(dir, 'evil.zip'), zip({ '../../escaped.js': `k="${key}"` }));
    writeFileSync(
      join(dir, 'evil.tgz'),
      gzipSync(
        await tar([
          { name: 'package/link', type: 'symlink', linkname: '/etc/passwd' },
          { name: '../escaped2.js', data: `k="${key}"` },
        ]),
      ),
    );
    const run = scanCli(join(dir), ['--no-git', '--format', 'json', 'evil.zip', 'evil.tgz']);
    expect(json(run).findings.map((f) => f.path)).toEqual(['evil.zip!../../escaped.js', 'evil.tgz!../escaped2.js']);
    expect(existsSync(join(dir, '..', '..', 'escaped.js'))).toBe(false);
    expect(existsSync(join(dir, '..', 'escaped2.js'))).toBe(false);
  });
});

describe('archive limits (in process)', () => {
  it('an entry count past the limit is named once; what was read still counts', async () => {
    const key = routerKey();
    const entries: Record<string, string> = { 'a.txt': `k=${key}` };
    for (let i = 0; i < 10; i++) entries[`f${i}.txt`] = 'x';
    const result = await scanArchive(zip(entries), 'zip', {}, { ...ARCHIVE_LIMITS, entries: 3 });
    expect(result.findings.map((f) => f.inner)).toEqual(['a.txt']);
    expect(result.skipped.map((s) => [s.reason, s.detail])).toEqual([['archive-limit', 'more than 3 entries']]);
  });

  it('unpacked bytes past the limit are refused before inflating', async () => {
    const result = await scanArchive(
      zip({ 'big.txt': new Uint8Array(3 << 20).fill(65) }),
      'zip',
      {},
      { ...ARCHIVE_LIMITS, bytes: 1 << 20, ratio: 1e9 },
    );
    expect(result.skipped.map((s) => [s.inner, s.reason])).toEqual([['big.txt', 'archive-limit']]);
  });
});
