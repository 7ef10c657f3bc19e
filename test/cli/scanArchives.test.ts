// Keys in what ships: `keyward scan` inside .vsix, .zip, .jar, .tgz (as npm
// pack makes it) and nested archives, in source maps' original sources, with
// the inner path, line and column; caps on entries, bytes, ratio and depth
// reported as skips that keep the exit status from saying clean.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS, archiveKind, archiveMagic, scanArchive } from '../../src/core/scan/archive.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { json, scanCli, tempDir } from './gitFixtures.ts';
import { rawZip } from './rawZip.ts';

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
    const whole = Buffer.from(zip({ 'a.env': `KEY=${routerKey()}\n` }, true));
    // Cut inside the central directory: the entry's bytes are there, the archive cannot be read.
    writeFileSync(join(dir, 'cut.zip'), whole.subarray(0, whole.length - 30));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'cut.zip']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => f.path)).toEqual(['cut.zip']);
    expect(report.skipped.map((s) => [s.path, s.reason])).toEqual([['cut.zip', 'archive-unreadable']]);
  });

  it('a text file named as an archive is read whole as the text it is: reported as text, not as unscanned', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.zip'), `not a zip at all\nkey=${routerKey()}\n`);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'notes.zip']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => `${f.path}:${f.line}`)).toEqual(['notes.zip:2']);
    expect(report).toMatchObject({ skipped: [], complete: true });
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

/** Sets a tar header's type flag (byte 156) and its checksum again, as a tool writing that flag would. */
function withTypeFlag(tarball: Buffer, headerAt: number, flag: string): Buffer {
  const out = Buffer.from(tarball);
  out[headerAt + 156] = flag.charCodeAt(0);
  out.fill(0x20, headerAt + 148, headerAt + 156);
  let sum = 0;
  for (let i = headerAt; i < headerAt + 512; i++) sum += out[i]!;
  out.write(`${sum.toString(8).padStart(6, '0')}\0 `, headerAt + 148, 'latin1');
  return out;
}

const paths = (report: ReturnType<typeof json>) => report.findings.map((f) => `${f.path}:${f.line}:${f.column}`);

// Issue 19, item 7: archives that reported clean (exit 0) with a key inside.
describe('keyward scan: archives never report clean with a key inside', () => {
  it('two zip entries of one name are both scanned, named apart (fflate kept only the last)', () => {
    const dir = tempDir();
    const [first, second] = [routerKey(), directKey()];
    writeFileSync(
      join(dir, 'dup.zip'),
      rawZip([
        { name: 'config.js', data: `k = '${first}';\n` },
        { name: 'config.js', data: `\nk = '${second}';\n` },
      ]),
    );
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'dup.zip']);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(['dup.zip!config.js:1:6', 'dup.zip!config.js[2]:2:6']);
  });

  it('two tar entries of one name are named apart too (GNU tar extracts the second over the first)', async () => {
    const dir = tempDir();
    const tarball = await tar([
      { name: 'package/a.js', data: `k = '${routerKey()}';\n` },
      { name: 'package/a.js', data: `k = '${routerKey()}';\n` },
    ]);
    writeFileSync(join(dir, 'dup.tar'), tarball);
    expect(paths(json(scanCli(dir, ['--no-git', '--format', 'json', 'dup.tar'])))).toEqual([
      'dup.tar!package/a.js:1:6',
      'dup.tar!package/a.js[2]:1:6',
    ]);
  });

  it('an entry named __proto__ is an entry like any other (an object keyed by name lost it)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'proto.zip'), rawZip([{ name: '__proto__', data: `k = '${routerKey()}';\n` }]));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'proto.zip']);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(['proto.zip!__proto__:1:6']);
  });

  it('an entry declaring fewer bytes than it holds is read to its end, as unzip -p extracts it', () => {
    const dir = tempDir();
    const key = routerKey();
    const content = `${'// padding\n'.repeat(200)}k = '${key}';\n`;
    const archive = rawZip([{ name: 'app.js', data: content, declaredSize: 64 }]);
    writeFileSync(join(dir, 'short.zip'), archive);
    // Info-ZIP's unzip -p extracts it all too: test/e2e/system/infoZip.test.ts.
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'short.zip']);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(['short.zip!app.js:201:6']);
  });

  it('a lying declared size cannot carry a bomb past the limits: the real size is capped, and named', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'liar.zip'),
      rawZip([{ name: 'zeros.bin', data: new Uint8Array(16 << 20), declaredSize: 10 }]),
    );
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'liar.zip']);
    expect(run.status).toBe(2);
    const report = json(run);
    expect(report.skipped.map((s) => [s.path, s.reason])).toEqual([['liar.zip!zeros.bin', 'archive-limit']]);
    expect(report.skipped[0]!.message).toMatch(/declares 10 bytes but expands more than 200 times/);
  });

  it("tar type flags GNU tar extracts as files ('Z', 'A', 'S') are scanned as files", async () => {
    const dir = tempDir();
    for (const flag of ['Z', 'A', 'S']) {
      const key = routerKey();
      const tarball = await tar([{ name: 'bin/run.sh', data: `export KEY=${key}\n` }]);
      writeFileSync(join(dir, `flag-${flag}.tar`), withTypeFlag(tarball, 0, flag));
      // GNU tar itself writes the file out: "Unknown file type 'Z', extracted as normal file" (src/extract.c,
      // prepare_to_extract), and 'S' (sparse) is a file too.
      const gnu = spawnSync('tar', ['-xOf', join(dir, `flag-${flag}.tar`)], { encoding: 'utf8' });
      if (!gnu.error) expect(gnu.stdout).toContain(key);
    }
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'flag-Z.tar', 'flag-A.tar', 'flag-S.tar']);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual([
      'flag-Z.tar!bin/run.sh:1:12',
      'flag-A.tar!bin/run.sh:1:12',
      'flag-S.tar!bin/run.sh:1:12',
    ]);
  });

  it("a tar entry of type 'N', which GNU tar extracts as a file and tar-stream takes for a long name, is not lost", async () => {
    const dir = tempDir();
    const key = routerKey();
    const tarball = await tar([{ name: 'notes.txt', data: `KEY=${key}\n` }]);
    writeFileSync(join(dir, 'flag-N.tar'), withTypeFlag(tarball, 0, 'N'));
    const gnu = spawnSync('tar', ['-xOf', join(dir, 'flag-N.tar')], { encoding: 'utf8' });
    if (!gnu.error) expect(gnu.stdout).toContain(key);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'flag-N.tar']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => f.path)).toEqual(['flag-N.tar']);
  });

  it('a key in an entry name is reported at the archive and never printed; a stored entry the directory hides is read', () => {
    const dir = tempDir();
    const [named, hidden] = [routerKey(), routerKey()];
    writeFileSync(join(dir, 'named.zip'), rawZip([{ name: `keys/${named}.txt`, data: 'nothing here' }]));
    writeFileSync(
      join(dir, 'hidden.zip'),
      rawZip([
        { name: 'README', data: 'clean' },
        { name: 'secret.env', data: `KEY=${hidden}\n`, method: 0, hidden: true },
      ]),
    );
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'named.zip', 'hidden.zip']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => f.path)).toEqual(['named.zip', 'hidden.zip']);
    expect(run.stdout).not.toContain(named);
    expect(run.stdout).not.toContain(hidden);
  });

  it('zip-based documents and packages are opened (.docx, .xlsx, .pptx, .odt, .epub, .apk, .aar, .ipa, .whl, .egg, .nupkg, .war)', () => {
    const dir = tempDir();
    const names = ['docx', 'xlsx', 'pptx', 'odt', 'epub', 'apk', 'aar', 'ipa', 'whl', 'egg', 'nupkg', 'war'].map(
      (ext) => `file.${ext}`,
    );
    for (const name of names) writeFileSync(join(dir, name), zip({ 'inner/notes.txt': `key=${routerKey()}\n` }));
    const run = scanCli(dir, ['--no-git', '--format', 'json', ...names]);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(names.map((name) => `${name}!inner/notes.txt:1:5`));
  });

  it('a single compressed file (.gz, .zst) is decompressed and scanned, at its own path', () => {
    const dir = tempDir();
    const script = `#!/bin/sh\nexport OPENAI_API_KEY=${directKey()}\n`;
    writeFileSync(join(dir, 'deploy.sh.gz'), gzipSync(script));
    const files = ['deploy.sh.gz'];
    if (typeof zstdCompressSync === 'function') {
      writeFileSync(join(dir, 'deploy.sh.zst'), zstdCompressSync(script));
      files.push('deploy.sh.zst');
    }
    const run = scanCli(dir, ['--no-git', '--format', 'json', ...files]);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(files.map((f) => `${f}:2:23`));
  });

  it('formats are known by their first bytes too: a zip renamed .bin, a gzip without .gz, a gzipped tar named .gz', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'update.bin'), zip({ 'payload/app.js': `k = '${routerKey()}';\n` }));
    writeFileSync(join(dir, 'backup'), gzipSync(`k = '${routerKey()}';\n`));
    writeFileSync(join(dir, 'release.gz'), gzipSync(await tar([{ name: 'a/b.js', data: `k = '${routerKey()}';\n` }])));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'update.bin', 'backup', 'release.gz']);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(['update.bin!payload/app.js:1:6', 'backup:1:6', 'release.gz!a/b.js:1:6']);
  });

  it('bzip2 and xz, which Keyward cannot decompress, are named as not scanned: exit 2, never clean', () => {
    const dir = tempDir();
    // The first bytes of a bzip2 stream ("BZh9" and a block's magic) and of an xz stream: enough to be known.
    const bzip2 = Buffer.concat([
      Buffer.from('BZh9'),
      Buffer.from([0x31, 0x41, 0x59, 0x26, 0x53, 0x59]),
      randomBytes(64),
    ]);
    const xz = Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), randomBytes(64)]);
    writeFileSync(join(dir, 'run.sh.bz2'), bzip2);
    writeFileSync(join(dir, 'run.sh.xz'), xz);
    writeFileSync(join(dir, 'blob'), xz);
    writeFileSync(join(dir, 'inside.zip'), zip({ 'logs/app.log.bz2': bzip2 }));
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'run.sh.bz2', 'run.sh.xz', 'blob', 'inside.zip']);
    expect(run.status).toBe(2);
    const report = json(run);
    expect(report.complete).toBe(false);
    expect(report.skipped.map((s) => [s.path, s.reason, s.incomplete])).toEqual([
      ['run.sh.bz2', 'archive-unsupported', true],
      ['run.sh.xz', 'archive-unsupported', true],
      ['blob', 'archive-unsupported', true],
      ['inside.zip!logs/app.log.bz2', 'archive-unsupported', true],
    ]);
    expect(report.skipped[0]!.message).toMatch(/bzip2: Keyward cannot decompress it/);
    const text = scanCli(dir, ['--no-git', 'run.sh.xz']);
    expect(text.stderr).toMatch(/NOT SCANNED: run\.sh\.xz: compressed in a format Keyward cannot open/);
  });

  it('limits hold for compressed files: a gzip bomb named .gz, and gzip in gzip past the depth limit', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'zeros.gz'), gzipSync(new Uint8Array(16 << 20)));
    let nested: Uint8Array = Buffer.from(`k=${routerKey()}\n`);
    for (let i = 0; i <= ARCHIVE_LIMITS.depth; i++) nested = gzipSync(nested);
    writeFileSync(join(dir, 'onion.gz'), nested);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'zeros.gz', 'onion.gz']);
    expect(run.status).toBe(2);
    expect(json(run).skipped.map((s) => [s.path, s.reason])).toEqual([
      ['zeros.gz', 'archive-limit'],
      ['onion.gz', 'archive-too-deep'],
    ]);
  });
});

describe("the editor's Scan Workspace path (in process: the calls keyDiagnostics.scanFile makes)", () => {
  it('a zip renamed .bin is opened by its first bytes, and two entries of one name are both reported', async () => {
    const bytes = rawZip([
      { name: 'a.js', data: `k = '${routerKey()}';\n` },
      { name: 'a.js', data: `k = '${routerKey()}';\n` },
    ]);
    const kind = archiveKind('firmware.bin') ?? archiveMagic(bytes);
    expect(kind).toBe('zip');
    const result = await scanArchive(bytes, kind!, {}, undefined, 'firmware.bin');
    expect(result.findings.map((f) => f.inner)).toEqual(['a.js', 'a.js[2]']);
  });

  it('a name handed out for a repeat is never one an entry already has: a.js, a.js[2], a.js → a.js[3]', async () => {
    const bytes = rawZip(['a.js', 'a.js[2]', 'a.js'].map((name) => ({ name, data: `k = '${routerKey()}';\n` })));
    const result = await scanArchive(bytes, 'zip');
    expect(result.findings.map((f) => f.inner)).toEqual(['a.js', 'a.js[2]', 'a.js[3]']);
  });
});
