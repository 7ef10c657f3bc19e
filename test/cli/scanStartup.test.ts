// `keyward scan` starts without what it may not need (issue 23, part 4): the archive unpackers, hashing,
// child processes, zlib and fs/promises cost ~35 ms of a start that should be ~50, and load only when a
// scan meets an archive or runs git (a key's fingerprint needs no node:crypto in the CLI). Seen from outside, as a user runs the CLI: a preload
// (NODE_OPTIONS=--require) records which Node built-ins and files the process loaded by its exit, and any
// asynchronous file system call (the first starts libuv's thread pool, which a plain scan never needs).
// The extension loads undici the same way (esbuild.js); test/host/bundleSplit.test.ts covers the editor.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { routerKey } from '../emulator/keyFactory.ts';
import { makeRepo, scanCli, tempDir } from './gitFixtures.ts';

const HOOK = `const before = new Set(process.moduleLoadList);
const fs = require('fs');
const asyncFs = [];
const record = (owner, name, as) => {
  const original = owner[name];
  owner[name] = Object.assign(function (...args) {
    asyncFs.push(as);
    return original.apply(this, args);
  }, original);
};
for (const name of ['realpath', 'stat', 'lstat', 'open', 'read', 'close', 'fstat', 'readFile', 'readdir', 'access'])
  record(fs, name, name);
record(fs.realpath, 'native', 'realpath.native');
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13));
  const files = Object.keys(require.cache).map((f) => f.split(/[\\\\/]/).pop());
  fs.writeFileSync(process.env.KEYWARD_TEST_LOADED, JSON.stringify({ builtins, files, asyncFs }));
});
`;

/**
 * What one `keyward scan ARGS` in `cwd` loaded: Node built-ins and bundle files; and which asynchronous file
 * system calls it made (the first starts libuv's thread pool: four threads, io_uring set up).
 */
function loadedBy(
  cwd: string,
  args: string[],
): { status: number | null; builtins: string[]; files: string[]; asyncFs: string[] } {
  const dir = tempDir('keyward-loaded-');
  const hook = join(dir, 'hook.cjs');
  const record = join(dir, 'loaded.json');
  writeFileSync(hook, HOOK);
  const run = scanCli(cwd, args, { NODE_OPTIONS: `--require ${hook}`, KEYWARD_TEST_LOADED: record });
  expect(run.stderr).toBe('');
  return {
    status: run.status,
    ...(JSON.parse(readFileSync(record, 'utf8')) as { builtins: string[]; files: string[]; asyncFs: string[] }),
  };
}

// stream and net: process.stdout builds a stream on first touch; the CLI writes to the descriptors (fdOutput.ts).
// perf_hooks: performance.now() loads it on first use.
const DEFERRED = ['crypto', 'child_process', 'zlib', 'fs/promises', 'stream', 'net', 'perf_hooks'];

describe('keyward scan start-up', () => {
  it('an empty folder with --no-git: no unpackers, hashing, child processes, zlib, fs/promises or thread pool', () => {
    const empty = tempDir('keyward-empty-');
    const loaded = loadedBy(empty, ['--no-git', '--format', 'json', '.']);
    expect(loaded.status).toBe(0);
    expect(loaded.builtins.filter((m) => DEFERRED.includes(m))).toEqual([]);
    expect(loaded.files).not.toContain('archive.js');
    expect(loaded.asyncFs).toEqual([]);
  });

  it('a clean folder of source files: still none of them', () => {
    const folder = tempDir('keyward-clean-');
    mkdirSync(join(folder, 'src'));
    for (let i = 0; i < 20; i++) writeFileSync(join(folder, 'src', `f${i}.ts`), `export const n${i} = ${i};\n`);
    const loaded = loadedBy(folder, ['--no-git', '--format', 'json', '.']);
    expect(loaded.status).toBe(0);
    expect(loaded.builtins.filter((m) => DEFERRED.includes(m))).toEqual([]);
    expect(loaded.asyncFs).toEqual([]);
  });

  it('each loads when it is needed: the unpackers for an archive, git in a repository; hashing for a key', () => {
    const folder = tempDir('keyward-needed-');
    writeFileSync(join(folder, 'a.js'), `const k = "${routerKey()}";\n`);
    const key = loadedBy(folder, ['--no-git', '--format', 'json', '.']);
    expect(key.status).toBe(1);
    // A key's fingerprint is node:crypto's SHA-256, loaded (with the streams it builds on) for the first key.
    expect(key.builtins).toContain('crypto');
    expect(key.builtins.filter((m) => DEFERRED.includes(m) && m !== 'crypto' && m !== 'stream')).toEqual([]);
    expect(key.files).not.toContain('archive.js');

    const shipped = tempDir('keyward-zip-');
    writeFileSync(join(shipped, 'x.zip'), zipSync({ 'x.js': new TextEncoder().encode('var a = 1;\n') }));
    const archive = loadedBy(shipped, ['--no-git', '--format', 'json', '.']);
    expect(archive.status).toBe(0);
    expect(archive.files).toContain('archive.js');

    const repo = makeRepo();
    repo.write('b.txt', 'nothing here\n');
    const git = loadedBy(repo.dir, ['--format', 'json', '.']);
    expect(git.status).toBe(0);
    expect(git.builtins).toContain('child_process');
  });
});
