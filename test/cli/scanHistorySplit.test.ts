// keyward scan --history through several git processes (issue 35 §1): a long history is read in ranges of its
// commits, a git log each, and the report is the one walk's, byte for byte and in the same order: keys across
// commits, the same key again (once per file), binary files, archives, UTF-16 text, a merge's own key. A preload
// counts the git log processes the CLI started, so a run that quietly read one walk cannot pass; git is run as it
// always is, with nothing a hostile repository's config names.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLIT_MIN_COMMITS } from '../../src/core/scan/historySplit.ts';
import { json, makeHostileRepo, makeRepo, plainGit, scanCli, tempDir } from './gitFixtures.ts';
import { writeLongHistory } from './historyCorpus.ts';

/**
 * Counts the `git log` processes the CLI's main thread starts and the worker threads it starts, into
 * KEYWARD_TEST_GIT_LOGS at exit (as JSON).
 */
const HOOK = `const cp = require('child_process');
const fs = require('fs');
const threads = require('worker_threads');
let logs = 0;
let workers = 0;
// KEYWARD_TEST_CORES: the cores the CLI sees, for the default's test.
if (process.env.KEYWARD_TEST_CORES) require('os').availableParallelism = () => Number(process.env.KEYWARD_TEST_CORES);
if (threads.isMainThread) {
  const spawn = cp.spawn;
  cp.spawn = function (command, args, ...rest) {
    if (command === 'git' && Array.isArray(args) && args.includes('log') && args.includes('-p')) logs++;
    return spawn.call(this, command, args, ...rest);
  };
  const Worker = threads.Worker;
  threads.Worker = class extends Worker {
    constructor(...args) {
      super(...args);
      workers++;
    }
  };
  process.on('exit', () => fs.writeFileSync(process.env.KEYWARD_TEST_GIT_LOGS, JSON.stringify({ logs, workers })));
}
`;

function scanCounting(
  cwd: string,
  args: string[],
  cores?: number,
): { status: number | null; stdout: string; stderr: string; logs: number; workers: number } {
  const dir = tempDir('keyward-git-logs-');
  const hook = join(dir, 'hook.cjs');
  const record = join(dir, 'logs');
  writeFileSync(hook, HOOK);
  const run = scanCli(cwd, args, {
    NODE_OPTIONS: `--require ${hook}`,
    KEYWARD_TEST_GIT_LOGS: record,
    ...(cores ? { KEYWARD_TEST_CORES: String(cores) } : {}),
  });
  const counted = JSON.parse(readFileSync(record, 'utf8')) as { logs: number; workers: number };
  return { ...run, ...counted };
}

/** The scan with `threads` against one walk's, in `format`: the same bytes, the same exit; the counted run. */
function sameAsOneWalk(cwd: string, format: string, threads: number): ReturnType<typeof scanCounting> {
  const one = scanCounting(cwd, ['--history', '--format', format, '--threads', '1']);
  const split = scanCounting(cwd, ['--history', '--format', format, '--threads', String(threads)]);
  expect(one.logs).toBe(1);
  expect(split.stdout).toBe(one.stdout);
  expect(split.stderr).toBe(one.stderr);
  expect(split.status).toBe(one.status);
  return split;
}

/** Every kind of finding the long history holds is in the report: the comparison is not of two empty reports. */
function expectEveryKind(run: ReturnType<typeof scanCounting>): void {
  const paths = json(run).findings.map((f) => f.path);
  expect(paths).toEqual(
    expect.arrayContaining(['bin/app.bin', 'dist/bundle.zip!conf/.env', 'win/notes.txt', 'merged.env']),
  );
}

describe('keyward scan --history through several git processes', () => {
  it('reports a long history exactly as one walk does, in the same order, in JSON and text', () => {
    const repo = makeRepo();
    const keys = writeLongHistory(repo, SPLIT_MIN_COMMITS + 200);
    const runs = ['json', 'text'].map((format) => sameAsOneWalk(repo.dir, format, 2));
    for (const many of runs) {
      // Two gits at once, every range read on the main thread: no worker for two.
      expect(many.logs).toBeGreaterThan(3);
      expect(many.workers).toBe(0);
    }
    expectEveryKind(runs[0]!);
    const report = json(runs[0]!);
    const paths = report.findings.map((f) => f.path);
    // The key added again later in the same file is reported once, at its first commit; in another file again.
    expect(paths.filter((p) => p === 'docs/copy.md')).toHaveLength(1);
    expect(new Set(report.findings.map((f) => f.commit)).size).toBeGreaterThan(30);
    expect(report.findings.length).toBeGreaterThanOrEqual(keys.length);
  });

  it('parses ranges on worker threads beside their gits from three at once, and reports exactly as one walk', () => {
    const repo = makeRepo();
    writeLongHistory(repo, SPLIT_MIN_COMMITS + 200);
    for (const format of ['json', 'sarif']) {
      const threaded = sameAsOneWalk(repo.dir, format, 3);
      expect(threaded.workers).toBe(2);
      // Twelve ranges, some read on the workers: fewer than all of them by this thread.
      expect(threaded.logs).toBeGreaterThan(0);
      expect(threaded.logs).toBeLessThan(12);
      if (format === 'json') expectEveryKind(threaded);
    }
  });

  it('by default reads through one git fewer than the cores: one walk on 2 cores, two gits on 3', () => {
    const repo = makeRepo();
    writeLongHistory(repo, SPLIT_MIN_COMMITS + 50, 20);
    // On 2 cores a second git measured slower than one walk (bench/scanCores.ts): this thread parses all they print.
    const two = scanCounting(repo.dir, ['--history', '--format', 'json'], 2);
    expect(two.logs).toBe(1);
    const three = scanCounting(repo.dir, ['--history', '--format', 'json'], 3);
    // Two gits, four ranges each, all parsed on this thread.
    expect(three.logs).toBe(8);
    expect(three.workers).toBe(0);
    expect(three.stdout).toBe(two.stdout);
    expect(json(two).findings.length).toBeGreaterThan(10);
  });

  it('a short history is read by one git log, whatever --threads says', () => {
    const repo = makeRepo();
    writeLongHistory(repo, 50, 10);
    const run = scanCounting(repo.dir, ['--history', '--format', 'json', '--threads', '4']);
    expect(run.status).toBe(1);
    expect(run.logs).toBe(1);
  });

  it('runs no program a hostile repository names, in any of its git processes', () => {
    const repo = makeHostileRepo({ 'a.txt': 'nothing\n' });
    writeLongHistory(repo, SPLIT_MIN_COMMITS + 50, 20, 'refs/heads/main^0');
    // The fixture is armed: plain git runs its programs.
    plainGit(repo.dir, ['log', '-p', '-1']);
    expect(repo.ran()).not.toBe('');
    repo.reset();
    const one = scanCounting(repo.dir, ['--history', '--format', 'json', '--threads', '1']);
    const many = scanCounting(repo.dir, ['--history', '--format', 'json', '--threads', '2']);
    expect(many.logs).toBeGreaterThan(1);
    expect(repo.ran()).toBe('');
    expect(many.stdout).toBe(one.stdout);
    const threaded = scanCounting(repo.dir, ['--history', '--format', 'json', '--threads', '3']);
    expect(threaded.workers).toBe(2);
    expect(repo.ran()).toBe('');
    expect(threaded.stdout).toBe(one.stdout);
    expect(json(many).findings.length).toBeGreaterThan(20);
  });
});
