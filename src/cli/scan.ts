// keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git]
// keyward install-hook [--force]
import { chmodSync, closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { GitStatusCache, runGit } from '../core/scan/gitStatus.ts';
import { scanLogPatch } from '../core/scan/history.ts';
import { type FileFinding, jsonReport, sarifReport, textReport } from '../core/scan/report.ts';
import { scanBuffer } from '../core/scan/scanner.ts';
import { type CliIo, EXIT } from './run.ts';

declare const KEYWARD_VERSION: string | undefined;

export const SCAN_HELP = `Usage: keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git]

Finds routing- and direct-service keys in files. Exit status: 0 clean, 1 keys found, 2 error.

  PATH...            files or folders to scan (default: the current folder)
  --format FORMAT    text (default), json, or sarif (SARIF 2.1.0 for code scanning)
  --staged           scan what is staged for the next commit (for a pre-commit hook)
  --history          scan every commit's added lines (git log -p)
  --no-git           walk the folders without asking git which files it would commit
  --max-size BYTES   skip larger files (default 10000000)

Inside a git repository the files git tracks or would commit are scanned; ignored
files are skipped. Lines with keyward-ignore, gitleaks:allow, "pragma: allowlist
secret" or secretlint-disable-line are not reported. Keys are never printed.

Usage: keyward install-hook [--force]
  Installs a git pre-commit hook that runs "keyward scan --staged".
`;

const SKIP_DIRS = new Set(['.git', 'node_modules', '.vscode-test', 'dist', 'out', 'coverage']);

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

function walk(path: string, files: string[]): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat?.isFile()) files.push(path);
  else if (stat?.isDirectory()) walkDir(path, files);
}

function walkDir(dir: string, files: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walkDir(join(dir, entry.name), files);
    } else if (entry.isFile()) files.push(join(dir, entry.name));
  }
}

function display(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return (rel.startsWith('..') ? path : rel).split(sep).join('/');
}

// One buffer reused for every file that fits: no allocation and no fstat per file,
// which is most of the cost of a tree of small files.
const SHARED = Buffer.allocUnsafe(1 << 20);

/** The file's bytes (possibly a view into a shared buffer, valid until the next read), or nothing when over the cap. */
function readCapped(path: string, maxSize: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const first = readSync(fd, SHARED, 0, SHARED.length, 0);
    if (first < SHARED.length) return first > maxSize ? undefined : SHARED.subarray(0, first);
    const size = fstatSync(fd).size;
    if (size > maxSize) return undefined;
    const bytes = Buffer.allocUnsafe(size);
    SHARED.copy(bytes, 0, 0, first);
    let read = first;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

export function scanFiles(files: Listed[], maxSize: number, cwd: string, out: FileFinding[]): void {
  for (const { path, state } of files) {
    const bytes = readCapped(path, maxSize);
    if (!bytes || isBinary(bytes)) continue;
    for (const finding of scanBuffer(bytes)) out.push({ path: display(cwd, path), finding, git: state });
  }
}

export async function scanCommand(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args, allowPositionals: true,
      options: {
        format: { type: 'string', default: 'text' }, staged: { type: 'boolean', default: false }, history: { type: 'boolean', default: false },
        'no-git': { type: 'boolean', default: false }, 'max-size': { type: 'string', default: '10000000' }, help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.stderr.write(`keyward scan: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(SCAN_HELP);
    return EXIT.ok;
  }
  const format = values.format;
  if (format !== 'text' && format !== 'json' && format !== 'sarif') {
    io.stderr.write(`keyward scan: --format must be text, json or sarif, not "${format}"\n`);
    return EXIT.usage;
  }
  const maxSize = Number(values['max-size']);
  if (!Number.isFinite(maxSize) || maxSize <= 0) {
    io.stderr.write('keyward scan: --max-size must be a positive number of bytes\n');
    return EXIT.usage;
  }
  const cwd = process.cwd();
  const useGit = !values['no-git'];
  const git = new GitStatusCache();
  const findings: FileFinding[] = [];

  try {
    if (values.staged || values.history) {
      const root = await git.root(cwd);
      if (!root) {
        io.stderr.write(`keyward scan: ${values.staged ? '--staged' : '--history'} needs a git repository\n`);
        return EXIT.usage;
      }
      if (values.staged) {
        const names = (await runGit(['diff', '--cached', '--name-only', '-z', '--diff-filter=ACMR'], root)).stdout.split('\0').filter(Boolean);
        for (const name of names) {
          const content = await runGitBuffer(['show', `:${name}`], root);
          if (!content || content.length > maxSize || isBinary(content)) continue;
          for (const finding of scanBuffer(content)) findings.push({ path: display(cwd, join(root, name)), finding, git: 'staged' });
        }
      }
      if (values.history) {
        const log = await runGit(['log', '-p', '--all', '--no-color', '-U0', '--no-ext-diff', '--format=commit %H'], root);
        if (log.code !== 0) throw new Error('git log failed');
        for (const hit of scanLogPatch(log.stdout)) findings.push({ ...hit, path: display(cwd, join(root, hit.path)) });
      }
    } else {
      const targets = (positionals.length > 0 ? positionals : ['.']).map((p) => resolve(p));
      for (const target of targets) {
        if (!existsSync(target)) {
          io.stderr.write(`keyward scan: no such file or folder: ${target}\n`);
          return EXIT.usage;
        }
      }
      scanFiles(await listFiles(targets, useGit, git), maxSize, cwd, findings);
    }
  } catch (error) {
    io.stderr.write(`keyward scan: ${(error as Error).message}\n`);
    return EXIT.usage;
  }

  const version = typeof KEYWARD_VERSION === 'string' ? KEYWARD_VERSION : 'dev';
  io.stdout.write(format === 'json' ? jsonReport(findings) : format === 'sarif' ? sarifReport(findings, version) : textReport(findings));
  return findings.length > 0 ? EXIT.failure : EXIT.ok;
}

export type Listed = { path: string; state: FileFinding['git'] };

/** With git: what it tracks or would commit (ignored files skipped); without: every file. */
async function listFiles(targets: string[], useGit: boolean, git: GitStatusCache): Promise<Listed[]> {
  const out: Listed[] = [];
  for (const target of targets) {
    const folder = statSync(target).isDirectory() ? target : resolve(target, '..');
    const root = useGit ? await git.root(folder) : null;
    if (!root) {
      const files: string[] = [];
      walk(target, files);
      for (const path of files) out.push({ path, state: useGit ? 'outside' : 'unknown' });
      continue;
    }
    const rel = relative(root, target).split(sep).join('/') || '.';
    const tracked = (await runGit(['ls-files', '-z', '--', rel], root)).stdout.split('\0').filter(Boolean);
    const untracked = (await runGit(['ls-files', '-z', '--others', '--exclude-standard', '--', rel], root)).stdout.split('\0').filter(Boolean);
    for (const path of tracked) out.push({ path: join(root, path), state: 'tracked' });
    for (const path of untracked) out.push({ path: join(root, path), state: 'untracked' });
  }
  return out;
}

function runGitBuffer(args: string[], cwd: string): Promise<Buffer | undefined> {
  return import('node:child_process').then(({ execFile }) => new Promise((resolvePromise) => {
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => resolvePromise(error ? undefined : stdout));
  }));
}

const HOOK_MARK = '# installed by keyward install-hook';

export async function installHookCommand(args: string[], io: CliIo): Promise<number> {
  const force = args.includes('--force');
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write('Usage: keyward install-hook [--force]\n  Installs a git pre-commit hook that runs "keyward scan --staged".\n');
    return EXIT.ok;
  }
  const hooksDir = (await runGit(['rev-parse', '--git-path', 'hooks'], process.cwd()));
  if (hooksDir.code !== 0) {
    io.stderr.write('keyward install-hook: not inside a git repository\n');
    return EXIT.usage;
  }
  const hook = resolve(process.cwd(), hooksDir.stdout.trim(), 'pre-commit');
  if (existsSync(hook) && !readFileSync(hook, 'utf8').includes(HOOK_MARK) && !force) {
    io.stderr.write(`keyward install-hook: ${hook} exists and is not Keyward's; rerun with --force to replace it\n`);
    return EXIT.usage;
  }
  const cli = resolve(process.argv[1] ?? 'keyward');
  writeFileSync(hook, `#!/bin/sh\n${HOOK_MARK}\n# Refuses a commit that would add a routing- or direct-service key.\nif command -v keyward >/dev/null 2>&1; then exec keyward scan --staged; fi\nexec node "${cli}" scan --staged\n`);
  chmodSync(hook, 0o755);
  io.stdout.write(`keyward: installed the pre-commit hook at ${hook}\n`);
  return EXIT.ok;
}
