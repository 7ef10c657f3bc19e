// keyward scan on one core and on all of them (issue 35 §1), against ripgrep on one and on all, on two corpora: the
// Key scanner section's (~52 MB of node_modules sources) and one of at least 200 MB (the same sources, cycled); and
// `keyward scan --history` against one `git log -p` run as keyward runs it, on a generated history of 3,000 commits
// of source files. Every figure comes from interleaved rounds (processTimes.ts), as a median with the spread of the
// round-by-round ratios, and the machine's load before and after.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gitArgs, gitEnv } from '../src/core/scan/git.ts';
import { HISTORY_LOG_ARGS } from '../src/core/scan/history.ts';
import { defaultThreads } from '../src/core/scan/scanPool.ts';
import { directKey, routerKey } from '../test/emulator/keyFactory.ts';
import { QUICK } from './quick.ts';
import { type Run, loadAverage, medianOf, pairedRatio, timeInterleaved } from './processTimes.ts';
import { RG_PATTERN, buildCorpus, collectSources } from './scanner.ts';
import { floorCommands, floorLines, historyFloorLine } from './scanFloor.ts';
import { formatMs, verdict } from './stats.ts';

const LARGE_BYTES = 210 * 1024 * 1024;
const ROUNDS = 7;
const HISTORY_COMMITS = 3000;

/** At least `target` bytes of sources in one flat folder, cycling through them; a key in every 40th file. */
function buildLargeCorpus(dir: string, target: number): { files: number; bytes: number } {
  const sources = collectSources(Number.POSITIVE_INFINITY);
  let bytes = 0;
  let files = 0;
  for (let round = 0; bytes < target; round++) {
    for (const source of sources) {
      if (bytes >= target) break;
      let text = readFileSync(source, 'utf8');
      if (files % 40 === 0) text += `\n// "${files % 80 === 0 ? routerKey() : directKey('proj')}"\n`;
      writeFileSync(join(dir, `${round}_${files}_${basename(source)}`), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  }
  return { files, bytes };
}

const spread = (r: { min: number; max: number }) => `pairs ${r.min.toFixed(2)}-${r.max.toFixed(2)}`;

/**
 * keyward on one thread, by default and with a thread per core, rg on one and on all, interleaved; the lines that
 * say how they compare. By default a scan leaves one core to the engine's own threads (scanPool.ts), so on 2 cores
 * it is the one-thread scan; the thread-per-core run shows what the pool does on this machine.
 */
function compareToRipgrep(name: string, dir: string, allCoresTarget: boolean): string[] {
  const cli = resolve('dist/cli.js');
  const keyward = (threads: string[]) => [
    process.execPath,
    cli,
    'scan',
    '--no-git',
    ...threads,
    '--format',
    'json',
    dir,
  ];
  const rg = (threads: string[]) => ['rg', '-P', ...threads, '--no-ignore', '--hidden', '-c', RG_PATTERN, dir];
  const cores = availableParallelism();
  const loadBefore = loadAverage();
  const [one, byDefault, perCore, rgOne, rgAll, ...floor] = timeInterleaved(
    [
      keyward(['--threads', '1']),
      keyward([]),
      keyward(['--threads', String(cores)]),
      rg(['-j1']),
      rg([]),
      ...floorCommands(dir),
    ],
    ROUNDS,
    1,
  ) as [Run[], Run[], Run[], Run[], Run[], Run[], Run[]];
  const single = pairedRatio(one, rgOne, 'wallMs');
  const all = pairedRatio(byDefault, rgAll, 'wallMs');
  const times = (runs: Run[]) => `${formatMs(medianOf(runs, 'wallMs'))} (${formatMs(medianOf(runs, 'cpuMs'))})`;
  const againstOne = (runs: Run[]) => {
    const r = pairedRatio(runs, one, 'wallMs');
    return `${r.median.toFixed(2)}x (${spread(r)})`;
  };
  return [
    `${name}: medians of ${ROUNDS} interleaved rounds, wall (cpu)`,
    `  keyward --threads 1 ${times(one)}; by default (${defaultThreads(cores)} of ${cores} cores) ${times(byDefault)}; --threads ${cores} ${times(perCore)}`,
    `  rg -P -j1 ${times(rgOne)}; rg -P, all cores ${times(rgAll)}`,
    `  one thread: wall vs rg -P -j1 ${single.median.toFixed(2)}x (${spread(single)})  target <= 1.3  ${verdict(single.median <= 1.3)}`,
    `  by default: wall vs rg -P on all cores ${all.median.toFixed(2)}x (${spread(all)})${allCoresTarget ? `  target <= 1.3  ${verdict(all.median <= 1.3)}` : ', not a target below 200 MB'}`,
    `  wall vs --threads 1: by default ${againstOne(byDefault)}; --threads ${cores} ${againstOne(perCore)}`,
    ...floorLines(floor, rgOne, rgAll, one, cores, 1.3),
    `  ${loadBefore} before, ${loadAverage()} after`,
  ];
}

/** A history of `commits` commits of source files (git fast-import): each rewrites a block of one file. */
export function buildHistory(dir: string, commits: number): number {
  const sources = collectSources(24 * 1024 * 1024).map((file) => readFileSync(file, 'utf8').split('\n'));
  const pool = sources.flat();
  const files = new Map<string, string[]>();
  const parts: Buffer[] = [];
  const stamp = 'author b <b@keyward.test> 1700000000 +0000\ncommitter b <b@keyward.test> 1700000000 +0000\n';
  const data = (text: string) => {
    const bytes = Buffer.from(text);
    parts.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  };
  for (let i = 0; i < commits; i++) {
    const path = `src/m${i % 300}/file${i % 7}.js`;
    const lines = files.get(path) ?? [];
    const at = (i * 7919) % pool.length;
    const block = pool.slice(at, at + 30 + (i % 50));
    if (i % 97 === 0) block.push(`const key = "${i % 2 ? routerKey() : directKey('proj')}";`);
    // Replace a block in the middle (a change, not only growth), keeping files near 600 lines.
    const from = lines.length > 600 ? (i * 31) % (lines.length - 60) : lines.length;
    lines.splice(from, lines.length > 600 ? 40 : 0, ...block);
    files.set(path, lines);
    parts.push(Buffer.from(`commit refs/heads/main\n${stamp}`));
    data(`change ${i}`);
    parts.push(Buffer.from(`M 100644 inline ${path}\n`));
    data(lines.join('\n') + '\n');
    parts.push(Buffer.from('\n'));
  }
  const env = { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: dir, env });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input: Buffer.concat(parts) });
  return Number(execFileSync('git', ['rev-list', '--all', '--count'], { cwd: dir, env }).toString().trim());
}

/** The bytes of the history's `git log -p`, as keyward's walk reads them. */
function logBytes(dir: string, git: string[], env: string[]): number {
  const [command, ...args] = ['env', '-i', ...env, ...git];
  const run = spawnSync(command!, args, { cwd: dir, maxBuffer: 1 << 30 });
  return run.stdout?.length ?? 0;
}

/** keyward --history on one thread, by default and with a git per core, and one git log -p as keyward runs it. */
function compareToGitLog(dir: string, commits: number): string[] {
  const cli = resolve('dist/cli.js');
  const history = (threads: string[]) => [process.execPath, cli, 'scan', '--history', ...threads, '--format', 'json'];
  // The same git, arguments and environment as keyward's own walk (git.ts), in a shell only to say where.
  const git = ['git', ...gitArgs(HISTORY_LOG_ARGS)];
  const inRepo = (command: string[]) => ['sh', '-c', 'cd "$0" && exec "$@"', dir, ...command];
  // Only git's own environment (env -i), as keyward hands it over.
  const env = Object.entries(gitEnv()).map(([name, value]) => `${name}=${value ?? ''}`);
  const loadBefore = loadAverage();
  const cores = availableParallelism();
  const [one, all, perCore, log] = timeInterleaved(
    [
      inRepo(history(['--threads', '1'])),
      inRepo(history([])),
      inRepo(history(['--threads', String(cores)])),
      inRepo(['env', '-i', ...env, ...git]),
    ],
    ROUNDS,
    1,
  ) as [Run[], Run[], Run[], Run[]];
  const split = pairedRatio(all, log, 'wallMs');
  const walk = pairedRatio(one, log, 'wallMs');
  const splitCpu = pairedRatio(all, log, 'cpuMs');
  const ofMedians = (a: Run[], of: 'wallMs' | 'cpuMs') => (medianOf(a, of) / medianOf(log, of)).toFixed(2);
  // CPU is the children's user + sys, the gits keyward starts included: what is keyward's own is the rest.
  const own = (runs: Run[]) => formatMs(medianOf(runs, 'cpuMs') - medianOf(log, 'cpuMs'));
  const times = (runs: Run[]) => `${formatMs(medianOf(runs, 'wallMs'))} (${formatMs(medianOf(runs, 'cpuMs'))})`;
  return [
    `history of ${commits} commits (${(logBytes(dir, git, env) / 2 ** 20).toFixed(1)} MB of git log -p): medians of ${ROUNDS} interleaved rounds, wall (cpu)`,
    `  keyward --history --threads 1 ${times(one)}; by default (${defaultThreads(cores) === 1 ? 'one git' : `${defaultThreads(cores)} gits`} of ${cores} cores) ${times(all)}; --threads ${cores} ${times(perCore)}; one git log -p ${times(log)}`,
    `  --threads ${cores} vs one git log -p ${pairedRatio(perCore, log, 'wallMs').median.toFixed(2)}x, vs --threads 1 ${pairedRatio(perCore, one, 'wallMs').median.toFixed(2)}x`,
    `  by default: wall vs one git log -p ${split.median.toFixed(2)}x (${spread(split)}; ratio of medians ${ofMedians(all, 'wallMs')})  target <= 0.9  ${verdict(split.median <= 0.9)}`,
    `  one walk: wall vs one git log -p ${walk.median.toFixed(2)}x (${spread(walk)}; ratio of medians ${ofMedians(one, 'wallMs')})`,
    `  cpu, user+sys with its gits: by default vs one git log -p ${splitCpu.median.toFixed(2)}x (${spread(splitCpu)}; ratio of medians ${ofMedians(all, 'cpuMs')}); keyward's own beyond one git's: one walk ${own(one)}, by default ${own(all)}`,
    historyFloorLine(one, log, cores),
    `  ${loadBefore} before, ${loadAverage()} after`,
  ];
}

/** KEYWARD_BENCH_CORES=history: the history figure alone (the corpora take minutes on a shared machine). */
const HISTORY_ONLY = process.env.KEYWARD_BENCH_CORES === 'history';

export function benchScanCores(): string[] {
  if (QUICK) return ['skipped in quick mode'];
  if (HISTORY_ONLY) return benchHistoryOnly();
  if (spawnSync('rg', ['--version'], { stdio: 'ignore' }).status !== 0)
    return ['NO FIGURES: ripgrep (rg) is not installed here (apt-get install -y ripgrep)'];
  const root = mkdtempSync(join(tmpdir(), 'keyward-cores-'));
  const lines: string[] = [];
  try {
    execFileSync('node', ['esbuild.js', '--production'], { stdio: 'ignore' });
    const small = join(root, 'small');
    mkdirSync(small);
    const corpus = buildCorpus(small);
    lines.push(
      ...compareToRipgrep(`${corpus.files.length} files, ${(corpus.bytes / 2 ** 20).toFixed(0)} MB`, small, false),
    );
    rmSync(small, { recursive: true, force: true });
    const large = join(root, 'large');
    mkdirSync(large);
    const big = buildLargeCorpus(large, LARGE_BYTES);
    lines.push(...compareToRipgrep(`${big.files} files, ${(big.bytes / 2 ** 20).toFixed(0)} MB`, large, true));
    rmSync(large, { recursive: true, force: true });
    const repo = join(root, 'history');
    mkdirSync(repo);
    lines.push(...compareToGitLog(repo, buildHistory(repo, HISTORY_COMMITS)));
  } finally {
    rmSync(root, { recursive: true, force: true });
    execFileSync('node', ['esbuild.js'], { stdio: 'ignore' });
  }
  return lines;
}

function benchHistoryOnly(): string[] {
  const root = mkdtempSync(join(tmpdir(), 'keyward-history-'));
  try {
    execFileSync('node', ['esbuild.js', '--production'], { stdio: 'ignore' });
    return compareToGitLog(root, buildHistory(root, HISTORY_COMMITS));
  } finally {
    rmSync(root, { recursive: true, force: true });
    execFileSync('node', ['esbuild.js'], { stdio: 'ignore' });
  }
}
