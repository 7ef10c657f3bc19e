// keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git] [--include-dir NAME] [--max-size BYTES]
//              [--verify [--verify-base-url SERVICE=URL]...] [--baseline FILE] [--write-baseline FILE]
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { redactSecrets } from '../core/redact.ts';
import { type ArchiveKind, archiveKind, scanArchiveFile } from '../core/scan/archive.ts';
import { BaselineError, BaselineIndex, readBaseline, writeBaseline } from '../core/scan/baseline.ts';
import { IGNORE_FILE, loadIgnoreFile, repositoryAbove } from '../core/scan/ignoreFile.ts';
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
  ignoreProblemsText,
  isIncomplete,
  jsonReport,
  omittedText,
  printablePath,
  skippedText,
  textReport,
} from '../core/scan/report.ts';
import type { ShippedPart } from '../core/scan/sourceMap.ts';
import { isSourceMap } from '../core/scan/formats.ts';
import { scanStaged } from '../core/scan/staged.ts';
import { type ScanOptions, optionsFor, primeScanner } from '../core/scan/scanner.ts';
import { type FolderFiles, type Listed, countFiles, isFolderFiles, listTargets } from '../core/scan/targets.ts';
import { officialBaseUrls } from '../core/scan/verifyHosts.ts';
import { checkBaseUrl } from '../core/urlPolicy.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { BASE_URL_ENV, TIMEOUT_ENV, UsageError, millisecondsOption, proxyFor } from './common.ts';
import type { ProxyConfig } from '../core/proxyConfig.ts';
import { type CliIo, EXIT } from './io.ts';
import { sarifReport } from '../core/scan/sarifReport.ts';

declare const KEYWARD_VERSION: string | undefined;

/** Each service's official host, where --verify sends a key unless --verify-base-url names another. */
const OFFICIAL = officialBaseUrls();

export const SCAN_HELP = `Usage: keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git]
                    [--include-dir NAME] [--max-size BYTES] [--verify]
                    [--verify-base-url SERVICE=URL]...
                    [--baseline FILE] [--write-baseline FILE]

Finds API keys in files: the routing and direct services' keys, other AI
providers' (Anthropic, Google, Groq, xAI, Hugging Face, Perplexity, Replicate,
Together AI, Fireworks AI), and keys split into pieces or base64-encoded. Exit status:
1 keys found; else 2 when a file or folder could not be read (or on a usage or
git error, or when the report could not be written); 0 only when everything was
scanned and is clean.

  PATH...            files or folders to scan (default: the current folder)
  --format FORMAT    text (default), json, or sarif (SARIF 2.1.0 for code scanning)
  --staged           scan what is staged for the next commit (for a pre-commit hook)
  --history          scan every commit's added lines (git log -p), and what each
                     merge wrote that none of its parents had; a shallow or
                     partial clone, or a graft file, is named (exit 2)
  --no-git           walk the folders without asking git which files it would commit
  --include-dir NAME with --no-git (or outside a repository), also walk folders
                     named NAME that are skipped by default (.git, node_modules);
                     repeatable
  --max-size BYTES   skip larger files, and report them as not scanned (default:
                     no limit; large files are scanned in overlapping windows)
  --verify           ask each key's own service whether the key is live, at no
                     cost: routing keys GET ${OFFICIAL.router ?? ''}/key,
                     direct keys GET ${OFFICIAL.direct ?? ''}/models, each
                     key only to its own service's official host (never where
                     ${BASE_URL_ENV.router} / ${BASE_URL_ENV.direct} point).
                     Reports live, inactive or unknown and the URL asked
                     (checkedAt); the exit status does not change. Never done
                     without this flag.
  --verify-base-url SERVICE=URL
                     with --verify, ask SERVICE (router or direct) at URL
                     instead of its official host (https, or http for
                     localhost); repeatable, one per service
  --write-baseline FILE
                     record every key found (fingerprint, file and masked form;
                     never the key) in FILE, to commit; exit 0 unless something
                     could not be scanned
  --baseline FILE    report the keys FILE already holds as unchanged and count
                     only new ones: a key that moved within its file is not new,
                     the same key in another file is. A FILE that cannot be read
                     or is not a baseline stops the scan (exit 2)

.keywardignore at the repository root (else the current folder) lists what not
to count, one entry a line with its reason: a key's fingerprint then the reason
("0123456789abcdef  revoked test key"), or a path glob as in .gitignore then
"# reason" ("test/fixtures/  # generated keys"). A suppressed key is still listed,
with the line that suppressed it; a line that is neither is named and suppresses
nothing (exit 2 when no key counts).

Inside a git repository the files git tracks or would commit are scanned; ignored
files are skipped, but a file or folder named is read whole, what git ignores in it
included (those files reported as ignored by git). A repository git refuses (dubious ownership, a corrupt HEAD) is
named with git's reason and read as a plain folder (exit 2 unless keys are found).
Binary files are searched too, and so is what ships: inside
zip-based files (.vsix, .zip, .jar, .apk, .whl, .nupkg, .docx, .xlsx, .epub …),
.tar, .tgz, and single compressed files (.gz; .zst where Node has zstd), known
by name or by their first bytes, nested up to 3 deep, reported as
archive.vsix!extension/dist/x.js (a second entry of one name as x.js[2]); and
in source maps' original sources, each one a file of its own for allow
comments (x.js.map!src/x.ts). bzip2, xz, 7-Zip and RAR files are named as not
scanned. Entry count, unpacked bytes and compression ratio are capped; whatever
a cap leaves unread is named, like every path not scanned, on stderr (text), in
"skipped" (json) or as a tool notification (sarif).
Past 20 probable (medium-confidence) keys in one file the rest are counted, not
listed ("omitted" in json). Keys are never printed.

Allow comments: on the key's line keyward-ignore, gitleaks:allow,
"pragma: allowlist secret" (or whitelist), secretlint-disable-line [RULE...];
on the line before it keyward-ignore-next-line, secretlint-disable-next-line
[RULE...], "pragma: allowlist nextline secret"; around lines keyward-disable ...
keyward-enable or secretlint-disable [RULE...] ... secretlint-enable, in any
comment syntax (a pragma only in a comment, as detect-secrets reads it). A
secretlint comment naming rules hides only the keys they find
(@secretlint/secretlint-rule-openai for direct-service keys).

Usage: keyward install-hook [--force]
  Installs a git pre-commit hook that runs "keyward scan --staged".
`;

/** `--verify-base-url SERVICE=URL`, each at most once, for a service --verify asks; https or loopback http. */
function verifyBaseUrls(values: readonly string[]): Partial<Record<ServiceId, string>> {
  const chosen: Partial<Record<ServiceId, string>> = {};
  const services = Object.keys(OFFICIAL) as ServiceId[];
  for (const value of values) {
    const at = value.indexOf('=');
    const id = services.find((s) => s === value.slice(0, at));
    if (at < 0 || id === undefined)
      throw new UsageError(`--verify-base-url takes SERVICE=URL with SERVICE ${services.join(' or ')}, not "${value}"`);
    if (chosen[id] !== undefined) throw new UsageError(`--verify-base-url names ${id} twice`);
    const url = value.slice(at + 1).trim();
    const check = checkBaseUrl(url);
    if (!check.ok)
      throw new UsageError(
        check.reason === 'insecure'
          ? `--verify-base-url ${id}=${url} uses http: a key would travel in clear text; use https (http is allowed only for localhost)`
          : `--verify-base-url ${id}=${url} is not a valid https URL`,
        check.reason,
        'insecure_url',
      );
    chosen[id] = url.replace(/\/+$/, '');
  }
  return chosen;
}

/** A base URL as stderr may show it: without a user name or password. */
function shownUrl(raw: string): string {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

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
        verify: { type: 'boolean', default: false },
        'verify-base-url': { type: 'string', multiple: true, default: [] },
        baseline: { type: 'string' },
        'write-baseline': { type: 'string' },
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
  let services: Partial<Record<ServiceId, string>> | undefined;
  let timeoutMs = 0;
  let proxy: ProxyConfig | undefined;
  try {
    const chosen = verifyBaseUrls(values['verify-base-url']);
    if (!values.verify && Object.keys(chosen).length > 0)
      throw new UsageError('--verify-base-url is used only with --verify');
    if (values.verify) {
      services = { ...OFFICIAL, ...chosen };
      timeoutMs = millisecondsOption(undefined, '', io.env, TIMEOUT_ENV.idle, 15_000);
      proxy = proxyFor(io.env);
      for (const id of Object.keys(OFFICIAL) as ServiceId[]) {
        const variable = BASE_URL_ENV[id];
        if (chosen[id] === undefined && io.env[variable]?.trim())
          io.stderr.write(
            `keyward scan: --verify: ${variable} is not used; keys found in files go to ${OFFICIAL[id]} (--verify-base-url ${id}=URL to choose another)\n`,
          );
      }
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`keyward scan: ${error.message}\n`);
    return EXIT.usage;
  }
  let baseline: BaselineIndex | undefined;
  if (values.baseline !== undefined) {
    try {
      baseline = new BaselineIndex(readBaseline(resolve(values.baseline)));
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      // Never "all new" nor "all old": a baseline that cannot be used stops the scan.
      io.stderr.write(`keyward scan: --baseline ${redactSecrets(error.message)}\n`);
      return EXIT.usage;
    }
  }
  // Keys stay in this process, by fingerprint, and only when --verify asks for them.
  const keys = new Map<string, string>();
  const options: ScanOptions = services ? { onKey: (fingerprint, key) => keys.set(fingerprint, key) } : {};
  const cwd = process.cwd();
  const useGit = !values['no-git'];
  const git = new GitStatusCache();
  const findings: FileFinding[] = [];
  const skipped: Skipped[] = [];
  const omitted: Omitted[] = [];

  try {
    if (values.staged || values.history) {
      const root = await git.root(cwd);
      if (!root) {
        const flag = values.staged ? '--staged' : '--history';
        const refusal = await git.refusal(cwd);
        io.stderr.write(
          refusal
            ? `keyward scan: ${flag}: git refuses the repository at ${refusal.repository}: ${refusal.message}\n`
            : `keyward scan: ${flag} needs a git repository\n`,
        );
        return EXIT.usage;
      }
      if (values.staged) {
        const staged = await scanStaged(root, options);
        for (const hit of staged.findings)
          findings.push({ path: display(cwd, join(root, hit.path)), finding: hit.finding, git: 'staged' });
        for (const skip of staged.skipped) skipped.push({ ...skip, path: display(cwd, join(root, skip.path)) });
        for (const o of staged.omitted) omitted.push({ path: display(cwd, join(root, o.path)), count: o.count });
      }
      if (values.history) {
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
    } else {
      const targets = (positionals.length > 0 ? positionals : ['.']).map((p) => resolve(p));
      for (const target of targets) {
        if (!existsSync(target)) {
          io.stderr.write(`keyward scan: no such file or folder: ${target}\n`);
          return EXIT.usage;
        }
      }
      const listing = await listTargets(targets, {
        useGit,
        git,
        includeDirs: new Set(values['include-dir']),
        named: positionals.length > 0,
      });
      for (const skip of listing.skipped) skipped.push({ ...skip, path: display(cwd, skip.path) });
      await scanFiles(listing.files, maxSize, cwd, findings, skipped, omitted, options);
    }
  } catch (error) {
    io.stderr.write(`keyward scan: ${redactSecrets((error as Error).message)}\n`);
    return EXIT.usage;
  }

  if (services && findings.length > 0) {
    // Loaded only here: a scan without --verify never loads the network stack.
    const { KeyVerifier } = await import('../core/scan/verify.ts');
    const verifier = new KeyVerifier({ baseUrls: services, timeoutMs, proxy });
    if (format === 'text')
      io.stderr.write(
        `keyward scan: --verify: asking each key's own service (${Object.values(services).map(shownUrl).join(', ')}) whether it is live\n`,
      );
    await Promise.all(
      findings.map(async (f) => {
        const key = keys.get(f.finding.fingerprint);
        f.verification = key
          ? await verifier.verify(f.finding.service, key)
          : { status: 'unknown', reason: 'the key could not be read back' };
      }),
    );
    keys.clear();
  }

  // The baseline and the ignore file name paths from the repository root, wherever the scan ran.
  const root =
    (useGit || values.staged || values.history ? await git.root(cwd).catch(() => null) : repositoryAbove(cwd)) ?? cwd;
  const pathOf = rootPath(cwd, root);
  const ignore = loadIgnoreFile(root, display(cwd, join(root, IGNORE_FILE)));
  const sorted = triageFindings(findings, { ...(ignore ? { ignore } : {}), ...(baseline ? { baseline } : {}), pathOf });
  const triage: Triage = {
    suppressed: sorted.suppressed,
    unchanged: sorted.unchanged,
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(ignore ? { ignoreFile: { file: ignore.file, problems: ignore.problems } } : {}),
  };
  const counted = sorted.counted;

  let wrote: number | undefined;
  if (values['write-baseline'] !== undefined) {
    const file = values['write-baseline'];
    try {
      wrote = await writeBaseline(file, cwd, baselineEntries(findings, pathOf));
    } catch (error) {
      io.stderr.write(`keyward scan: --write-baseline ${file}: ${redactSecrets((error as Error).message)}\n`);
      return EXIT.usage;
    }
  }

  const version = typeof KEYWARD_VERSION === 'string' ? KEYWARD_VERSION : 'dev';
  if (format === 'text') io.stderr.write(skippedText(skipped) + ignoreProblemsText(triage));
  if (format === 'text') io.stdout.write(omittedText(omitted));
  io.stdout.write(
    format === 'json'
      ? jsonReport(counted, skipped, omitted, triage)
      : format === 'sarif'
        ? sarifReport(counted, version, skipped, omitted, triage)
        : textReport(counted, skipped, triage),
  );
  const incomplete = isIncomplete(skipped) || hasIgnoreProblems(triage);
  if (wrote !== undefined) {
    const files = new Set(findings.map((f) => pathOf(f.path))).size;
    const file = printablePath(values['write-baseline']!);
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
