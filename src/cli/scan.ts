// keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git] [--include-dir NAME] [--max-size BYTES]
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { redactSecrets } from '../core/redact.ts';
import { scanFile } from '../core/scan/fileScan.ts';
import { GitStatusCache } from '../core/scan/gitStatus.ts';
import { scanHistory } from '../core/scan/history.ts';
import {
  type FileFinding,
  type Skipped,
  isIncomplete,
  jsonReport,
  sarifReport,
  skippedText,
  textReport,
} from '../core/scan/report.ts';
import { scanStaged } from '../core/scan/staged.ts';
import { type Listed, listTargets } from '../core/scan/targets.ts';
import { type CliIo, EXIT } from './run.ts';

declare const KEYWARD_VERSION: string | undefined;

export const SCAN_HELP = `Usage: keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git]
                    [--include-dir NAME] [--max-size BYTES]

Finds routing- and direct-service keys in files. Exit status: 1 keys found;
else 2 when a file or folder could not be read (or on a usage or git error);
0 only when everything was scanned and is clean.

  PATH...            files or folders to scan (default: the current folder)
  --format FORMAT    text (default), json, or sarif (SARIF 2.1.0 for code scanning)
  --staged           scan what is staged for the next commit (for a pre-commit hook)
  --history          scan every commit's added lines (git log -p)
  --no-git           walk the folders without asking git which files it would commit
  --include-dir NAME with --no-git (or outside a repository), also walk folders
                     named NAME that are skipped by default (.git, node_modules);
                     repeatable
  --max-size BYTES   skip larger files, and report them as not scanned (default:
                     no limit; large files are scanned in overlapping windows)

Inside a git repository the files git tracks or would commit are scanned; ignored
files are skipped. Binary files are searched too. Every path not scanned is named
on stderr (text), in "skipped" (json) or as a tool notification (sarif). Lines
with keyward-ignore, gitleaks:allow, "pragma: allowlist secret" or
secretlint-disable-line are not reported. Keys are never printed.

Usage: keyward install-hook [--force]
  Installs a git pre-commit hook that runs "keyward scan --staged".
`;

function display(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel).split(sep).join('/');
}

/** Reads every listed file; what cannot be read joins the skipped list. */
export function scanFiles(
  files: readonly Listed[],
  maxSize: number,
  cwd: string,
  out: FileFinding[],
  skipped: Skipped[] = [],
): void {
  for (const { path, shown, state, regular } of files) {
    const outcome = scanFile(path, {}, maxSize, regular);
    if ('skipped' in outcome)
      skipped.push({
        path: display(cwd, shown),
        reason: outcome.skipped,
        ...(outcome.detail ? { detail: outcome.detail } : {}),
      });
    else for (const finding of outcome.findings) out.push({ path: display(cwd, shown), finding, git: state });
  }
}

export async function scanCommand(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: 'string', default: 'text' },
        staged: { type: 'boolean', default: false },
        history: { type: 'boolean', default: false },
        'no-git': { type: 'boolean', default: false },
        'max-size': { type: 'string' },
        'include-dir': { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h', default: false },
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
  const maxSize = values['max-size'] === undefined ? Infinity : Number(values['max-size']);
  if (Number.isNaN(maxSize) || maxSize <= 0) {
    io.stderr.write('keyward scan: --max-size must be a positive number of bytes\n');
    return EXIT.usage;
  }
  const cwd = process.cwd();
  const useGit = !values['no-git'];
  const git = new GitStatusCache();
  const findings: FileFinding[] = [];
  const skipped: Skipped[] = [];

  try {
    if (values.staged || values.history) {
      const root = await git.root(cwd);
      if (!root) {
        io.stderr.write(`keyward scan: ${values.staged ? '--staged' : '--history'} needs a git repository\n`);
        return EXIT.usage;
      }
      if (values.staged) {
        const staged = await scanStaged(root);
        for (const hit of staged.findings)
          findings.push({ path: display(cwd, join(root, hit.path)), finding: hit.finding, git: 'staged' });
        for (const skip of staged.skipped) skipped.push({ ...skip, path: display(cwd, join(root, skip.path)) });
      }
      if (values.history) {
        const history = await scanHistory(root);
        for (const hit of history.findings)
          findings.push({
            path: display(cwd, join(root, hit.path)),
            finding: hit.finding,
            git: hit.git,
            ...(hit.commit ? { commit: hit.commit } : {}),
          });
      }
    } else {
      const targets = (positionals.length > 0 ? positionals : ['.']).map((p) => resolve(p));
      for (const target of targets) {
        if (!existsSync(target)) {
          io.stderr.write(`keyward scan: no such file or folder: ${target}\n`);
          return EXIT.usage;
        }
      }
      const listing = await listTargets(targets, { useGit, git, includeDirs: new Set(values['include-dir']) });
      for (const skip of listing.skipped) skipped.push({ ...skip, path: display(cwd, skip.path) });
      scanFiles(listing.files, maxSize, cwd, findings, skipped);
    }
  } catch (error) {
    io.stderr.write(`keyward scan: ${redactSecrets((error as Error).message)}\n`);
    return EXIT.usage;
  }

  const version = typeof KEYWARD_VERSION === 'string' ? KEYWARD_VERSION : 'dev';
  if (format === 'text') io.stderr.write(skippedText(skipped));
  io.stdout.write(
    format === 'json'
      ? jsonReport(findings, skipped)
      : format === 'sarif'
        ? sarifReport(findings, version, skipped)
        : textReport(findings, skipped),
  );
  return findings.length > 0 ? EXIT.failure : isIncomplete(skipped) ? EXIT.usage : EXIT.ok;
}
