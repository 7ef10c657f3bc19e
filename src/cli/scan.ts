// keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git] [--include-dir NAME] [--max-size BYTES]
//              [--verify [--verify-base-url SERVICE=URL]...] [--baseline FILE] [--write-baseline FILE] [--config FILE]
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { loadBuiltin } from '../core/builtin.ts';
import { CLI_SCAN_POOL } from '../core/cliParts.ts';
import { redactSecrets } from '../core/redact.ts';
import { writeBaseline } from '../core/scan/baseline.ts';
import { IGNORE_FILE, loadIgnoreFile } from '../core/scan/ignoreFile.ts';
import { baselineEntries, triageFindings } from '../core/scan/triage.ts';
import { bytesRead } from '../core/scan/fileScan.ts';
import { GitStatusCache } from '../core/scan/gitStatus.ts';
import { scanHistory } from '../core/scan/history.ts';
import { display } from '../core/scan/listedScan.ts';
import {
  type FileFinding,
  type Omitted,
  type Skipped,
  type Triage,
  hasIgnoreProblems,
  hasTeamRuleProblems,
  ignoreProblemsText,
  isIncomplete,
  jsonReport,
  omittedText,
  printablePath,
  skippedText,
  teamRuleProblemsText,
  textReport,
} from '../core/scan/report.ts';
import type { TeamRules } from '../core/scan/teamRules.ts';
import { scanRoot, teamRulesFor } from './scanTeamRules.ts';
import { type PoolWatch, availableCores, defaultThreads, scanFilesPooled } from '../core/scan/scanPool.ts';
import { ScanProgress } from '../core/scan/scanProgress.ts';
import { scanStaged } from '../core/scan/staged.ts';
import type { ScanOptions } from '../core/scan/scanner.ts';
import { countFiles, listTargets } from '../core/scan/targets.ts';
import { type CliIo, EXIT } from './io.ts';
import { sarifReport } from '../core/scan/sarifReport.ts';
import { SCAN_HELP, type ScanRequest, scanRequest, shownUrl } from './scanArgs.ts';
import { fixDisable } from './scanFixDisable.ts';

export { SCAN_HELP };

declare const KEYWARD_VERSION: string | undefined;

export async function scanCommand(args: string[], io: CliIo): Promise<number> {
  const request = scanRequest(args, io);
  if (typeof request === 'number') return request;
  // Keys stay in this process, by fingerprint, and only when --verify or --fix-disable asks for them.
  const keys = new Map<string, string>();
  const cwd = process.cwd();
  const git = new GitStatusCache();
  const team = teamRulesFor(request, io, cwd, await scanRoot(request, cwd, git));
  if (typeof team === 'number') return team;
  const options: ScanOptions = {
    ...(request.verify || request.fixDisable
      ? { onKey: (fingerprint: string, key: string) => keys.set(fingerprint, key) }
      : {}),
    ...(team && team.rules.length > 0 ? { teamRules: team.rules } : {}),
  };
  const found: Found = { findings: [], skipped: [], omitted: [] };
  try {
    const refused = await collect(request, io, { cwd, git, options }, found);
    if (refused !== undefined) return refused;
  } catch (error) {
    io.stderr.write(`keyward scan: ${redactSecrets((error as Error).message)}\n`);
    return EXIT.usage;
  }
  if (request.verify && found.findings.length > 0) await verifyFindings(request, io, found.findings, keys);
  try {
    return await report(request, io, { cwd, git, ...(team ? { team } : {}) }, found, keys);
  } finally {
    keys.clear();
  }
}

/** What a scan found, could not read, and left uncounted. */
interface Found {
  findings: FileFinding[];
  skipped: Skipped[];
  omitted: Omitted[];
}

interface ScanPlace {
  cwd: string;
  git: GitStatusCache;
  /** The team rules the scan ran, with what in them is not supported. */
  team?: TeamRules;
}

/** Scans what the request names: the staged blobs, the history, or paths; an exit code when it cannot start. */
async function collect(
  request: ScanRequest,
  io: CliIo,
  { cwd, git, options }: ScanPlace & { options: ScanOptions },
  found: Found,
): Promise<number | undefined> {
  const { findings, skipped, omitted } = found;
  if (!request.staged && !request.history) {
    const targets = (request.paths.length > 0 ? request.paths : ['.']).map((p) => resolve(p));
    for (const target of targets) {
      if (!existsSync(target)) {
        io.stderr.write(`keyward scan: no such file or folder: ${target}\n`);
        return EXIT.usage;
      }
    }
    const listing = await listTargets(targets, {
      useGit: request.useGit,
      git,
      includeDirs: request.includeDirs,
      named: request.paths.length > 0,
    });
    for (const skip of listing.skipped) skipped.push({ ...skip, path: display(cwd, skip.path) });
    const progress = progressLine('files', countFiles(listing.files), io);
    const watch: PoolWatch = {
      files: 0,
      otherBytes: 0,
      tick: () => progress.update(watch.files, bytesRead.total + watch.otherBytes),
    };
    try {
      await scanFilesPooled(listing.files, request.maxSize, cwd, { out: findings, skipped, omitted }, options, {
        threads: request.threads,
        workerFile: poolWorkerFile(),
        watch,
      });
    } finally {
      progress.end();
    }
    return undefined;
  }
  const root = await git.root(cwd);
  if (!root) {
    const flag = request.staged ? '--staged' : '--history';
    const refusal = await git.refusal(cwd);
    io.stderr.write(
      refusal
        ? `keyward scan: ${flag}: git refuses the repository at ${refusal.repository}: ${refusal.message}\n`
        : `keyward scan: ${flag} needs a git repository\n`,
    );
    return EXIT.usage;
  }
  if (request.staged) {
    const staged = await scanStaged(root, options);
    for (const hit of staged.findings)
      findings.push({ path: display(cwd, join(root, hit.path)), finding: hit.finding, git: 'staged' });
    for (const skip of staged.skipped) skipped.push({ ...skip, path: display(cwd, join(root, skip.path)) });
    for (const o of staged.omitted) omitted.push({ path: display(cwd, join(root, o.path)), count: o.count });
  }
  if (request.history) {
    const progress = progressLine('commits', undefined, io);
    const history = await scanHistory(root, options, {
      // As many gits as a folder scan's threads: this thread parses what they print, and on 2 cores a second git
      // measured slower than one walk (bench/scanCores.ts).
      processes: request.threads ?? defaultThreads(availableCores()),
      workerFile: poolWorkerFile(),
      onProgress: (commits, bytes, total) => progress.update(commits, bytes, total),
    }).finally(() => progress.end());
    for (const hit of history.findings)
      findings.push({
        path: display(cwd, join(root, hit.path)),
        finding: hit.finding,
        git: hit.git,
        ...(hit.commit ? { commit: hit.commit } : {}),
      });
    for (const skip of history.skipped) skipped.push({ ...skip, path: display(cwd, join(root, skip.path)) });
  }
  return undefined;
}

/**
 * The pool's worker program, beside the CLI's bundle (dist/scanPool.js); undefined where this runs from source
 * (the tests' own process), where the scan stays on one thread.
 */
function poolWorkerFile(): string | undefined {
  return typeof __dirname === 'string' ? join(__dirname, CLI_SCAN_POOL) : undefined;
}

/** The progress line of a long scan, on stderr when it is a terminal. */
function progressLine(unit: string, total: number | undefined, io: CliIo): ScanProgress {
  // How soon the line may appear, for the tests (a scan that lasts seconds is a slow test).
  const after = io.env.KEYWARD_PROGRESS_AFTER_MS?.trim() ? Number(io.env.KEYWARD_PROGRESS_AFTER_MS) : NaN;
  return new ScanProgress(unit, total, {
    write: (text) => io.stderr.write(text),
    isTerminal: () => loadBuiltin<typeof import('node:tty')>('node:tty').isatty(2),
    ...(after >= 0 ? { afterMs: after } : {}),
  });
}

/** --verify: each key found is asked of its own service; a key that could not be read back is unknown. */
async function verifyFindings(
  request: ScanRequest,
  io: CliIo,
  findings: FileFinding[],
  keys: ReadonlyMap<string, string>,
): Promise<void> {
  const { services, timeoutMs, proxy } = request.verify!;
  // Loaded only here: a scan without --verify never loads the network stack.
  const { KeyVerifier } = await import('../core/scan/verify.ts');
  const verifier = new KeyVerifier({ baseUrls: services, timeoutMs, proxy });
  if (request.format === 'text') {
    // The hosts this scan's keys go to, not every host --verify knows.
    const owners = new Set<string>(findings.map((f) => f.finding.service));
    const hosts = Object.entries(services).flatMap(([owner, url]) => (owners.has(owner) && url ? [url] : []));
    io.stderr.write(
      `keyward scan: --verify: asking each key's own service (${hosts.map(shownUrl).join(', ') || 'none'}) whether it is live\n`,
    );
  }
  await Promise.all(
    findings.map(async (f) => {
      const key = keys.get(f.finding.fingerprint);
      f.verification = key
        ? await verifier.verify(f.finding.service, key)
        : { status: 'unknown', reason: 'the key could not be read back' };
    }),
  );
}

/** Sorts the findings by the ignore file and the baseline, writes the baseline if asked, prints, and says the exit code. */
async function report(
  request: ScanRequest,
  io: CliIo,
  { cwd, git, team }: ScanPlace,
  found: Found,
  keys: ReadonlyMap<string, string>,
): Promise<number> {
  const { findings, skipped, omitted } = found;
  // The baseline and the ignore file name paths from the repository root, wherever the scan ran.
  const root = await scanRoot(request, cwd, git);
  const pathOf = rootPath(cwd, root);
  const ignore = loadIgnoreFile(root, display(cwd, join(root, IGNORE_FILE)));
  const { baseline } = request;
  const sorted = triageFindings(findings, { ...(ignore ? { ignore } : {}), ...(baseline ? { baseline } : {}), pathOf });
  const triage: Triage = {
    suppressed: sorted.suppressed,
    unchanged: sorted.unchanged,
    ...(request.baselineFile !== undefined ? { baseline: request.baselineFile } : {}),
    ...(ignore ? { ignoreFile: { file: ignore.file, problems: ignore.problems } } : {}),
    ...(team ? { teamRules: { file: team.file, count: team.rules.length, problems: team.problems } } : {}),
  };
  const counted = sorted.counted;
  if (request.fixDisable && counted.length > 0) {
    await fixDisable(request.fixDisable, counted, keys, io, request.format === 'text');
  }
  let wrote: number | undefined;
  if (request.writeBaseline !== undefined) {
    const file = request.writeBaseline;
    try {
      wrote = await writeBaseline(file, cwd, baselineEntries(findings, pathOf));
    } catch (error) {
      io.stderr.write(`keyward scan: --write-baseline ${file}: ${redactSecrets((error as Error).message)}\n`);
      return EXIT.usage;
    }
  }
  const version = typeof KEYWARD_VERSION === 'string' ? KEYWARD_VERSION : 'dev';
  const format = request.format;
  if (format === 'text')
    io.stderr.write(skippedText(skipped) + ignoreProblemsText(triage) + teamRuleProblemsText(triage));
  if (format === 'text') io.stdout.write(omittedText(omitted));
  io.stdout.write(
    format === 'json'
      ? jsonReport(counted, skipped, omitted, triage)
      : format === 'sarif'
        ? sarifReport(counted, version, skipped, omitted, triage)
        : textReport(counted, skipped, triage),
  );
  const incomplete = isIncomplete(skipped) || hasIgnoreProblems(triage) || hasTeamRuleProblems(triage);
  if (wrote !== undefined) {
    const files = new Set(findings.map((f) => pathOf(f.path))).size;
    const file = printablePath(request.writeBaseline!);
    io.stderr.write(
      `keyward scan: baseline written to ${file}: ${wrote} key${wrote === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}; commit it and run keyward scan --baseline ${file}\n`,
    );
    // Recording what is there accepts it; what could not be scanned is still not in it.
    return incomplete ? EXIT.usage : EXIT.ok;
  }
  return counted.length > 0 ? EXIT.failure : incomplete ? EXIT.usage : EXIT.ok;
}

/**
 * A shown path (relative to `cwd`, or absolute; `a.vsix!inner` for an entry)
 * as a path from the root, '/'-separated: the same file gets the same name
 * whichever folder the scan ran from.
 */
export function rootPath(cwd: string, root: string): (shown: string) => string {
  return (shown) => {
    const bang = shown.indexOf('!');
    const outer = bang === -1 ? shown : shown.slice(0, bang);
    const rel = relative(root, resolve(cwd, outer)).split(sep).join('/');
    return (rel === '' ? '.' : rel) + (bang === -1 ? '' : shown.slice(bang));
  };
}
