// keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git] [--include-dir NAME] [--max-size BYTES]
//              [--verify [--verify-base-url SERVICE=URL]...] [--baseline FILE] [--write-baseline FILE] [--config FILE]
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { redactSecrets } from '../core/redact.ts';
import { type ArchiveKind, archiveKind, scanArchiveFile } from '../core/scan/archive.ts';
import { writeBaseline } from '../core/scan/baseline.ts';
import { IGNORE_FILE, loadIgnoreFile } from '../core/scan/ignoreFile.ts';
import { baselineEntries, triageFindings } from '../core/scan/triage.ts';
import { SOURCE_MAP_TOO_LARGE, scanFile, scanSourceMapFile } from '../core/scan/fileScan.ts';
import { GitStatusCache } from '../core/scan/gitStatus.ts';
import { scanHistory } from '../core/scan/history.ts';
import {
  type FileFinding,
  type GitField,
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
import type { ShippedPart } from '../core/scan/sourceMap.ts';
import { isSourceMap } from '../core/scan/sourceMapName.ts';
import { scanStaged } from '../core/scan/staged.ts';
import { type ScanOptions, optionsFor } from '../core/scan/scanner.ts';
import { primeScanner } from '../core/scan/literalPrecheck.ts';
import { type FolderFiles, type Listed, countFiles, isFolderFiles, listTargets } from '../core/scan/targets.ts';
import { type CliIo, EXIT } from './io.ts';
import { sarifReport } from '../core/scan/sarifReport.ts';
import { SCAN_HELP, type ScanRequest, scanRequest, shownUrl } from './scanArgs.ts';
import { fixDisable } from './scanFixDisable.ts';

export { SCAN_HELP };

declare const KEYWARD_VERSION: string | undefined;

/** A path as a report shows it: relative to `cwd` when it is under it, else as it is; '/'-separated. */
function display(cwd: string, path: string): string {
  if (sep === '/' && plainAbsolute(cwd) && plainAbsolute(path)) {
    // Both are normal already, as every path a scan shows is: relative()'s answer without it. Its loops over
    // every character run cold, ~20 µs a call: 3-8 ms for the 268 keys in the bench's corpus.
    if (path === cwd) return '.';
    const under = cwd === '/' ? cwd : `${cwd}/`;
    return path.startsWith(under) ? path.slice(under.length) : path;
  }
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel).split(sep).join('/');
}

/** An absolute POSIX path without a '.', '..' or empty part or a trailing '/' (a dotfile's goes the long way). */
function plainAbsolute(path: string): boolean {
  return path.startsWith('/') && !path.includes('/.') && !path.includes('//') && (path === '/' || !path.endsWith('/'));
}

/**
 * A file reached through links is read once, and what it holds is reported under each of its names (a
 * 126 MB binary linked twice in node_modules was read three times). Keyed by the real path the links
 * resolve to, which names the same device and inode; with no link in the listing, nothing is kept.
 */
class OncePerFile {
  private readonly targets = new Set<string>();
  private readonly outcomes = new Map<string, unknown>();

  constructor(files: readonly (Listed | FolderFiles)[]) {
    for (const item of files) if (!isFolderFiles(item) && item.linkTo !== undefined) this.targets.add(item.linkTo);
  }

  /** `as`: how the name says to read it (an archive kind, YAML or text), which names of one file may not share. */
  /** Whether any listed file is reached through a link; when none is, every read goes straight through. */
  get linked(): boolean {
    return this.targets.size > 0;
  }

  read<T>(as: string, path: string, linkTo: string | undefined, read: () => T): T {
    if (this.targets.size === 0) return read();
    const real = linkTo ?? (this.targets.has(path) ? path : undefined);
    if (real === undefined) return read();
    const key = `${as}\0${real}`;
    if (!this.outcomes.has(key)) this.outcomes.set(key, read());
    return this.outcomes.get(key) as T;
  }
}

/**
 * Reads every listed file; what cannot be read joins the skipped list. An
 * archive is looked inside (`a.vsix!extension/dist/x.js`), a source map by its
 * original sources (`x.js.map!src/x.ts`); medium-confidence findings past the
 * per-file cap are counted in `omitted`.
 */
export async function scanFiles(
  files: readonly (Listed | FolderFiles)[],
  maxSize: number,
  cwd: string,
  out: FileFinding[],
  skipped: Skipped[] = [],
  omitted: Omitted[] = [],
  options: ScanOptions = {},
): Promise<void> {
  const once = new OncePerFile(files);
  const openArchive = async (
    path: string,
    shown: string,
    state: GitField,
    kind: ArchiveKind,
    linkTo: string | undefined,
  ) => {
    const name = display(cwd, shown);
    const result = await once.read(kind, path, linkTo, () => scanArchiveFile(path, kind, options, undefined, maxSize));
    if (!('findings' in result)) {
      skipped.push({ path: name, reason: result.skipped, ...(result.detail ? { detail: result.detail } : {}) });
      return;
    }
    const at = (inner: string) => (inner === '' ? name : `${name}!${inner}`);
    for (const hit of result.findings) out.push({ path: at(hit.inner), finding: hit.finding, git: state });
    for (const skip of result.skipped)
      skipped.push({ path: at(skip.inner), reason: skip.reason, ...(skip.detail ? { detail: skip.detail } : {}) });
    for (const o of result.omitted) omitted.push({ path: at(o.inner), count: o.count });
  };
  // Each option set a file can need, made once: a fresh object per file, and a shape seen for the first time
  // deep into the loop, cost an allocation each and a recompilation of the loop's optimized code.
  const variants = new Map<string, ScanOptions>();
  const optionsOf = (path: string) => {
    const fileOptions = optionsFor(path, options);
    if (fileOptions === options) return options;
    const key = `${fileOptions.yaml === true}${fileOptions.decodeBase64 === true}`;
    let kept = variants.get(key);
    if (kept === undefined) variants.set(key, (kept = fileOptions));
    return kept;
  };
  const report: Reported = { cwd, out, skipped, omitted, once, maxSize, options, optionsOf };
  const total = countFiles(files);
  if (total > 1) primeScanner();
  // The loop itself stays small (it is what the engine compiles while it runs); a file is read in scanOne. A
  // promise only for an archive: an await per file would be a turn of the event loop's microtasks each.
  const read = (path: string, shown: string, state: GitField, regular?: boolean, linkTo?: string) => {
    const kind = archiveKind(path) ?? scanOne(path, shown, state, regular, linkTo, report);
    return kind ? openArchive(path, shown, state, kind, linkTo) : undefined;
  };
  for (const item of files) {
    if (!isFolderFiles(item)) {
      const archive = read(item.path, item.shown, item.state, item.regular, item.linkTo);
      if (archive) await archive;
      continue;
    }
    const { prefix, shownPrefix, state, names } = item;
    for (const name of names) {
      const path = prefix + name;
      const archive = read(path, shownPrefix === prefix ? path : shownPrefix + name, state, true);
      if (archive) await archive;
    }
  }
}

/** What scanFiles hands each file's scan: where to put what it finds, and how to read. */
interface Reported {
  cwd: string;
  out: FileFinding[];
  skipped: Skipped[];
  omitted: Omitted[];
  once: OncePerFile;
  maxSize: number;
  options: ScanOptions;
  optionsOf: (path: string) => ScanOptions;
}

const reports = (part: ShippedPart) => part.findings.length > 0 || part.omitted > 0;

/** Scans one file that is no archive by name; says what archive its first bytes show it is, for the caller to open. */
function scanOne(
  path: string,
  shown: string,
  state: GitField,
  regular: boolean | undefined,
  linkTo: string | undefined,
  report: Reported,
): ArchiveKind | undefined {
  const { cwd, out, skipped, omitted, once, maxSize } = report;
  if (isSourceMap(path)) {
    // Always by its sources: a first pass over the map's one line could be silenced by one source's comment.
    const outcome = once.linked
      ? once.read('map', path, linkTo, () => scanSourceMapFile(path, report.options, maxSize, regular))
      : scanSourceMapFile(path, report.options, maxSize, regular);
    // A clean map is one part with nothing in it: no name made for it either.
    if (!('skipped' in outcome) && !outcome.asOneText && !outcome.parts.some(reports)) return undefined;
    const name = display(cwd, shown);
    if ('skipped' in outcome) {
      skipped.push({ path: name, reason: outcome.skipped, ...(outcome.detail ? { detail: outcome.detail } : {}) });
      return undefined;
    }
    if (outcome.asOneText) skipped.push({ path: name, reason: 'archive-limit', detail: SOURCE_MAP_TOO_LARGE });
    for (const part of outcome.parts) {
      const where = part.source === undefined ? name : `${name}!${part.source}`;
      for (const finding of part.findings) out.push({ path: where, finding, git: state });
      if (part.omitted > 0) omitted.push({ path: where, count: part.omitted });
    }
    return undefined;
  }
  const fileOptions = report.optionsOf(path);
  // No closure per file where no link asks for one.
  const outcome = once.linked
    ? once.read(fileOptions.yaml ? 'yaml' : 'text', path, linkTo, () => scanFile(path, fileOptions, maxSize, regular))
    : scanFile(path, fileOptions, maxSize, regular);
  // A zip renamed .bin, a gzip without .gz: opened as what its first bytes say.
  if ('archive' in outcome) return outcome.archive;
  // Named only when reported: a relative path per clean file was a tenth of a tree's scan.
  if (!('skipped' in outcome) && outcome.findings.length === 0 && !outcome.omitted) return undefined;
  const name = display(cwd, shown);
  if ('skipped' in outcome) {
    skipped.push({ path: name, reason: outcome.skipped, ...(outcome.detail ? { detail: outcome.detail } : {}) });
    return undefined;
  }
  for (const finding of outcome.findings) out.push({ path: name, finding, git: state });
  if (outcome.omitted) omitted.push({ path: name, count: outcome.omitted });
  return undefined;
}

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
    await scanFiles(listing.files, request.maxSize, cwd, findings, skipped, omitted, options);
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
    const history = await scanHistory(root, options);
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
