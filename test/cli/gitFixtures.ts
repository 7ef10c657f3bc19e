// Temporary git repositories for the scanner's tests, and a way to run the
// built CLI as an unprivileged user (root reads a chmod 000 file anyway).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { CLI_SCAN_PARTS } from '../../src/core/cliParts.ts';

// KEYWARD_TEST_CLI runs these tests against another build (to see them fail on an older one).
export const CLI = process.env.KEYWARD_TEST_CLI ?? resolve('dist/cli.js');

export interface Repo {
  dir: string;
  git(...args: string[]): string;
  write(path: string, content: string | Buffer): string;
  remove(): void;
}

const IDENTITY = [
  '-c',
  'user.email=t@keyward.test',
  '-c',
  'user.name=t',
  '-c',
  'init.defaultBranch=main',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'protocol.file.allow=always',
];

const made: string[] = [];
// Every temporary folder a test file made goes when the file is done, whatever the test forgot.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'keyward-t-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

let cacheHome: string | undefined;

/**
 * XDG_CACHE_HOME for the CLI in these tests: its compile cache (src/cli/launch.ts) goes to a folder of this test
 * file's, not under the HOME a test points into the tree it scans.
 */
export function cliCacheHome(): string {
  return (cacheHome ??= tempDir('keyward-cache-'));
}

export function makeRepo(dir = tempDir('keyward-repo-'), init = true): Repo {
  const repo: Repo = {
    dir,
    git: (...args) =>
      execFileSync('git', [...IDENTITY, ...args], {
        cwd: dir,
        stdio: 'pipe',
        env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
      }).toString(),
    write: (path, content) => {
      const full = join(dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  if (init) repo.git('init', '-q');
  return repo;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function scanCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const run = spawnSync(process.execPath, [CLI, 'scan', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, XDG_CACHE_HOME: cliCacheHome(), ...env },
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const DROP = ['--reuid=nobody', '--regid=nogroup', '--clear-groups'];

/** The CLI where nobody can read it (a checkout under /root is not). */
function unprivilegedCli(): string | undefined {
  if (!isRoot) return CLI;
  const readable = (cli: string) =>
    spawnSync('setpriv', [...DROP, process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(cli)}, 4)`], {
      stdio: 'ignore',
    }).status === 0;
  if (readable(CLI)) return CLI;
  if (!existsSync(CLI)) return undefined;
  const copy = join(tempDir('keyward-cli-'), 'cli.js');
  // The launcher and the files it loads from beside it.
  copyFileSync(CLI, copy);
  chmodSync(copy, 0o644);
  for (const part of [...CLI_SCAN_PARTS, 'package.json']) {
    copyFileSync(join(dirname(CLI), part), join(dirname(copy), part));
    chmodSync(join(dirname(copy), part), 0o644);
  }
  chmodSync(dirname(copy), 0o755);
  return readable(copy) ? copy : undefined;
}

const asNobody = unprivilegedCli();

/**
 * Whether permission tests can mean anything here: as an ordinary user they do;
 * as root only when setpriv can drop to nobody and nobody can run node and the CLI.
 */
export const canTestPermissions = asNobody !== undefined;
export const permissionSkipReason =
  'SKIPPED LOUDLY: running as root and cannot run the CLI as nobody (setpriv missing, or node not executable by nobody); root reads chmod 000 files, so these tests would prove nothing';

/** Hands a tree to nobody, so git (which refuses a repository another user owns) and the CLI run as that user. */
export function giveToNobody(dir: string): void {
  if (!isRoot) return;
  const chownTree = (path: string) => {
    chownSync(path, 65534, 65534);
    if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name));
  };
  chownTree(dir);
}

/** Runs the CLI as an unprivileged user (nobody when we are root). */
export function scanCliUnprivileged(cwd: string, args: string[]): Run {
  const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent' };
  const run = isRoot
    ? spawnSync('setpriv', [...DROP, process.execPath, asNobody!, 'scan', ...args], {
        cwd,
        encoding: 'utf8',
        env,
        timeout: 60_000,
      })
    : spawnSync(process.execPath, [CLI, 'scan', ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

export interface JsonReport {
  version: number;
  findings: {
    path: string;
    line: number;
    column: number;
    endColumn: number;
    fingerprint: string;
    git: string;
    commit?: string;
    ruleId: string;
  }[];
  skipped: { path: string; reason: string; message: string; incomplete: boolean }[];
  complete: boolean;
}

export function json(run: Run): JsonReport {
  try {
    return JSON.parse(run.stdout) as JsonReport;
  } catch {
    throw new Error(`not JSON (exit ${run.status}): ${run.stdout}\n${run.stderr}`);
  }
}

export interface HostileRepo extends Repo {
  /** The file every program the repository names appends to when it runs. */
  marker: string;
  ran(): string;
  reset(): void;
}

/**
 * A repository whose config names a program for everything git could run from
 * config: fsmonitor, textconv and external diff drivers, clean/smudge filters,
 * a pager, hooks, a signature verifier. The program writes a marker and its
 * environment. Built with every one of them off, then armed.
 */
export function makeHostileRepo(content: Record<string, string>, staged: Record<string, string> = {}): HostileRepo {
  const outside = tempDir('keyward-hostile-');
  const marker = join(outside, 'marker');
  const script = join(outside, 'evil.sh');
  writeFileSync(
    script,
    `#!/bin/sh\necho "ran: $0 $*" >> '${marker}'\nenv >> '${marker}.env'\nif [ -f "$1" ]; then cat "$1"; fi\nexit 0\n`,
    { mode: 0o755 },
  );
  const hooks = join(outside, 'hooks');
  mkdirSync(hooks);
  for (const hook of [
    'pre-commit',
    'post-checkout',
    'post-index-change',
    'reference-transaction',
    'pre-auto-gc',
    'post-commit',
    'fsmonitor-watchman',
  ])
    writeFileSync(join(hooks, hook), readFileSync(script), { mode: 0o755 });
  const repo = makeRepo();
  for (const [path, text] of Object.entries(content)) repo.write(path, text);
  repo.write('.gitattributes', '* diff=evil filter=evil\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'first');
  // A commit that claims a signature, so log.showSignature would call gpg.program.
  const tree = repo.git('rev-parse', 'HEAD^{tree}').trim();
  const parent = repo.git('rev-parse', 'HEAD').trim();
  const commit = `tree ${tree}\nparent ${parent}\nauthor t <t@keyward.test> 1700000000 +0000\ncommitter t <t@keyward.test> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n`;
  const signed = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: repo.dir, input: commit })
    .toString()
    .trim();
  repo.git('update-ref', 'refs/heads/main', signed);
  for (const [path, text] of Object.entries(staged)) repo.write(path, text);
  if (Object.keys(staged).length > 0) repo.git('add', '--', ...Object.keys(staged));
  const config: Record<string, string> = {
    'core.fsmonitor': script,
    'core.hooksPath': hooks,
    'core.pager': script,
    'pager.log': script,
    'pager.diff': script,
    'diff.external': script,
    'diff.evil.textconv': script,
    'diff.evil.command': script,
    'filter.evil.clean': script,
    'filter.evil.smudge': script,
    'filter.evil.process': script,
    'log.showSignature': 'true',
    'gpg.program': script,
    'color.ui': 'always',
    'diff.noprefix': 'true',
    'core.quotePath': 'false',
  };
  for (const [key, value] of Object.entries(config)) repo.git('config', key, value);
  const hostile: HostileRepo = {
    ...repo,
    marker,
    ran: () =>
      existsSync(marker)
        ? readFileSync(marker, 'utf8') + (existsSync(`${marker}.env`) ? readFileSync(`${marker}.env`, 'utf8') : '')
        : '',
    reset: () => {
      rmSync(marker, { force: true });
      rmSync(`${marker}.env`, { force: true });
    },
    remove: () => {
      repo.remove();
      rmSync(outside, { recursive: true, force: true });
    },
  };
  return hostile;
}

/** Plain git, as a user would run it in the repository: proves the fixture is armed. */
export function plainGit(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  spawnSync('git', args, {
    cwd: dir,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    timeout: 30_000,
  });
}

export interface PartialClone {
  dir: string;
  /** The file the program the clone names for fetching appends to when it runs. */
  marker: string;
  ran(): string;
}

/**
 * A partial clone (`git clone --filter=blob:none`) of a local repository whose
 * history holds `history` files that the last commit deletes, so their blobs
 * are never fetched. Its config names a program for every way git could fetch
 * them (upload-pack, ssh) and allows the file transport; the program writes a
 * marker, then serves the fetch, so plain git gets the blobs.
 */
export function makePartialClone(history: Record<string, string>): PartialClone {
  const outside = tempDir('keyward-promisor-');
  const marker = join(outside, 'marker');
  const script = join(outside, 'upload-pack.sh');
  writeFileSync(script, `#!/bin/sh\necho "ran: $0 $*" >> '${marker}'\nexec git-upload-pack "$@"\n`, { mode: 0o755 });
  mkdirSync(join(outside, 'source'));
  const source = makeRepo(join(outside, 'source'));
  for (const [path, text] of Object.entries(history)) source.write(path, text);
  source.git('add', '.');
  source.git('commit', '-q', '-m', 'history');
  source.git('rm', '-q', '--', ...Object.keys(history));
  source.write('README.md', 'nothing here\n');
  source.git('add', '.');
  source.git('commit', '-q', '-m', 'now');
  const bare = join(outside, 'origin.git');
  source.git('clone', '-q', '--bare', source.dir, bare);
  makeRepo(bare, false).git('config', 'uploadpack.allowFilter', 'true');
  const dir = tempDir('keyward-partial-');
  makeRepo(outside, false).git('clone', '-q', '--filter=blob:none', `file://${bare}`, dir);
  const clone = makeRepo(dir, false);
  for (const [key, value] of Object.entries({
    'remote.origin.uploadpack': script,
    'core.sshCommand': script,
    'protocol.file.allow': 'always',
    'protocol.allow': 'always',
  }))
    clone.git('config', key, value);
  return { dir, marker, ran: () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '') };
}
