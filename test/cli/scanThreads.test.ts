// keyward scan on every core (issue 35 §1): a large listing is scanned on worker threads, and the report is the one
// a single thread gives, byte for byte and in the same order, whatever is in the files: keys in many files, binary
// files, archives, source maps, links, files past the per-file cap, files not read, an ignore file and a baseline.
// A preload records the worker threads the CLI started, so a run that quietly stayed on one thread cannot pass.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { POOL_MIN_FILES } from '../../src/core/scan/scanPool.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import {
  canTestPermissions,
  giveToNobody,
  json,
  makeRepo,
  permissionSkipReason,
  scanCli,
  scanCliUnprivileged,
  tempDir,
} from './gitFixtures.ts';

/** Counts the worker threads the main thread starts, into KEYWARD_TEST_WORKERS at exit. */
const HOOK = `const wt = require('worker_threads');
if (wt.isMainThread) {
  const fs = require('fs');
  let started = 0;
  const Original = wt.Worker;
  wt.Worker = class extends Original { constructor(...args) { super(...args); started++; } };
  process.on('exit', () => fs.writeFileSync(process.env.KEYWARD_TEST_WORKERS, String(started)));
}
`;

/** A tree of more files than the pool's threshold, with every kind of thing a scan reports; `keys` planted. */
function buildCorpus(dir: string): string[] {
  const keys: string[] = [];
  const key = (i: number) => (i % 3 === 0 ? routerKey() : directKey(i % 2 ? 'proj' : 'legacy'));
  const files = POOL_MIN_FILES + 700;
  for (let i = 0; i < files; i++) {
    const folder = join(dir, `pkg${i % 13}`, i % 5 === 0 ? 'deep/er' : 'src');
    mkdirSync(folder, { recursive: true });
    let text = `// file ${i}\nexport const value${i} = ${i};\n`.repeat(1 + (i % 7));
    if (i % 29 === 0) {
      const k = key(i);
      keys.push(k);
      text += `const secret = "${k}";\n`;
    }
    writeFileSync(join(folder, `f${i}.${i % 4 === 0 ? 'env' : 'js'}`), text);
    if (i % 211 === 0) {
      // Binary, an archive of each kind, a source map.
      const k = key(i + 1);
      keys.push(k);
      writeFileSync(join(folder, `blob${i}.bin`), Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from(k)]));
      const zipped = zipSync({ 'conf/.env': [strToU8(`KEY=${k}\n`), { level: 6 }] });
      writeFileSync(join(folder, `bundle${i}.zip`), zipped);
      writeFileSync(join(folder, `renamed${i}.dat`), zipped);
      writeFileSync(join(folder, `settings${i}.env.gz`), gzipSync(`KEY=${k}\n`));
      const map = { version: 3, sources: ['src/a.ts'], sourcesContent: [`const k = "${k}";\n`], mappings: '' };
      writeFileSync(join(folder, `out${i}.js.map`), JSON.stringify(map));
    }
  }
  // Past the per-file cap of probable keys: counted, not listed.
  const flood = Array.from({ length: 30 }, (_, i) => `K${i}="${directKey('legacy').slice(0, -1)}"`);
  writeFileSync(join(dir, 'pkg3', 'src', 'flood.env'), flood.join('\n') + '\n');
  // A file reached through two links, read once and reported under each name; a broken link.
  const linked = routerKey();
  keys.push(linked);
  writeFileSync(join(dir, 'pkg4', 'target.env'), `KEY=${linked}\n`);
  symlinkSync(join(dir, 'pkg4', 'target.env'), join(dir, 'pkg5', 'link-a.env'));
  symlinkSync(join(dir, 'pkg4', 'target.env'), join(dir, 'pkg6', 'link-b.env'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'pkg7', 'broken.env'));
  execFileSync('mkfifo', [join(dir, 'pkg8', 'pipe')]);
  // An ignore file: a key by fingerprint, a folder by path.
  writeFileSync(join(dir, '.keywardignore'), `${fingerprint(keys[1]!)}  revoked in tests\npkg9/  # generated\n`);
  return keys;
}

/** One CLI run, with how many worker threads it started. */
function scanCounting(
  cwd: string,
  args: string[],
): { status: number | null; stdout: string; stderr: string; workers: number } {
  const dir = tempDir('keyward-workers-');
  const hook = join(dir, 'hook.cjs');
  const record = join(dir, 'workers');
  writeFileSync(hook, HOOK);
  const run = scanCli(cwd, args, { NODE_OPTIONS: `--require ${hook}`, KEYWARD_TEST_WORKERS: record });
  return { ...run, workers: Number(readFileSync(record, 'utf8')) };
}

describe('keyward scan on worker threads', () => {
  it('reports a large tree exactly as one thread does, in the same order, in text and JSON, with a baseline', () => {
    const dir = tempDir('keyward-threads-');
    const keys = buildCorpus(dir);
    for (const format of ['json', 'text']) {
      const one = scanCounting(dir, ['--no-git', '--format', format, '--threads', '1', '.']);
      const many = scanCounting(dir, ['--no-git', '--format', format, '--threads', '3', '.']);
      expect(one.workers).toBe(0);
      expect(many.workers).toBe(2);
      expect(many.stdout).toBe(one.stdout);
      expect(many.stderr).toBe(one.stderr);
      expect(many.status).toBe(one.status);
    }
    const report = json(scanCli(dir, ['--no-git', '--format', 'json', '--threads', '3', '.']));
    // The run is not trivially equal: keys in many files, archives opened, a file summarised, files not read.
    expect(new Set(report.findings.map((f) => f.path.split('/')[0])).size).toBeGreaterThan(8);
    expect(report.findings.length).toBeGreaterThan(keys.length);
    expect(report.findings.some((f) => f.path.includes('.zip!conf/.env'))).toBe(true);
    expect(report.findings.some((f) => f.path.includes('.js.map!src/a.ts'))).toBe(true);
    expect(report.skipped.map((s) => s.reason).sort()).toEqual(['broken-symlink', 'special-file']);
    // A baseline written by one thread reads the same on three.
    const baseline = join(dir, '..', `${dir.split('/').pop()}.baseline.json`);
    expect(scanCli(dir, ['--no-git', '--threads', '1', '--write-baseline', baseline, '.']).status).toBe(0);
    const one = scanCli(dir, ['--no-git', '--format', 'json', '--threads', '1', '--baseline', baseline, '.']);
    const many = scanCli(dir, ['--no-git', '--format', 'json', '--threads', '3', '--baseline', baseline, '.']);
    expect(many.stdout).toBe(one.stdout);
    expect(many.status).toBe(one.status);
  });

  it('inside a git repository too: tracked, untracked and ignored files named as one thread names them', () => {
    const repo = makeRepo();
    buildCorpus(repo.dir);
    repo.write('.gitignore', 'pkg2/deep/\n');
    repo.git('add', 'pkg0', 'pkg1', 'pkg3', '.gitignore');
    const one = scanCounting(repo.dir, ['--format', 'json', '--threads', '1', '.']);
    const many = scanCounting(repo.dir, ['--format', 'json', '--threads', '2', '.']);
    expect(many.workers).toBe(1);
    expect(many.stdout).toBe(one.stdout);
    expect(new Set(json(many).findings.map((f) => f.git))).toEqual(new Set(['tracked', 'untracked']));
  });

  it('a small scan stays on one thread, whatever --threads says', () => {
    const dir = tempDir('keyward-small-');
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `f${i}.js`), `export const n = ${i};\n`);
    const run = scanCounting(dir, ['--no-git', '--format', 'json', '--threads', '8', '.']);
    expect(run.status).toBe(0);
    expect(run.workers).toBe(0);
  });

  it('--threads takes a whole number of at least 1, and says so', () => {
    const dir = tempDir('keyward-bad-threads-');
    for (const bad of ['0', '-2', '1.5', 'all']) {
      const run = scanCli(dir, ['--no-git', `--threads=${bad}`, '.']);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`keyward scan: --threads must be a whole number of at least 1, not "${bad}"\n`);
    }
  });
});

if (!canTestPermissions) console.warn(`scanThreads: ${permissionSkipReason}`);

describe.skipIf(!canTestPermissions)('files a worker thread cannot read (run as an unprivileged user)', () => {
  it('are named with their reason, as one thread names them, and the exit status says so', () => {
    const dir = tempDir('keyward-threads-locked-');
    buildCorpus(dir);
    chmodSync(join(dir, 'pkg10', 'src', 'f23.js'), 0);
    chmodSync(join(dir, 'pkg11', 'deep', 'er'), 0);
    chmodSync(join(dir, 'pkg12', 'src', 'f38.js'), 0);
    // chown follows a link: the broken one cannot be handed over.
    rmSync(join(dir, 'pkg7', 'broken.env'));
    giveToNobody(dir);
    chmodSync(dir, 0o755);
    const one = scanCliUnprivileged(dir, ['--no-git', '--format', 'json', '--threads', '1', '.']);
    const many = scanCliUnprivileged(dir, ['--no-git', '--format', 'json', '--threads', '3', '.']);
    expect(many.stdout).toBe(one.stdout);
    expect(many.status).toBe(one.status);
    const skipped = json(many).skipped.filter((s) => s.reason.startsWith('unreadable'));
    expect(skipped.map((s) => [s.path, s.reason])).toEqual(
      expect.arrayContaining([
        ['pkg10/src/f23.js', 'unreadable'],
        ['pkg12/src/f38.js', 'unreadable'],
        ['pkg11/deep/er', 'unreadable-folder'],
      ]),
    );
  });
});
