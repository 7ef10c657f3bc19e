// keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git] [--include-dir NAME] [--max-size BYTES]
//              [--verify]
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { redactSecrets } from '../core/redact.ts';
import { archiveKind, scanArchiveFile } from '../core/scan/archive.ts';
import { scanFile } from '../core/scan/fileScan.ts';
import { GitStatusCache } from '../core/scan/gitStatus.ts';
import { scanHistory } from '../core/scan/history.ts';
import {
  type FileFinding,
  type Omitted,
  type Skipped,
  isIncomplete,
  jsonReport,
  omittedText,
  sarifReport,
  skippedText,
  textReport,
} from '../core/scan/report.ts';
import { isSourceMap, scanShippedText } from '../core/scan/sourceMap.ts';
import { scanStaged } from '../core/scan/staged.ts';
import { type ScanOptions, optionsFor } from '../core/scan/scanner.ts';
import { type Listed, listTargets } from '../core/scan/targets.ts';
import { BASE_URL_ENV, TIMEOUT_ENV, UsageError, baseUrlFor, millisecondsOption } from './common.ts';
import { type CliIo, EXIT } from './io.ts';

declare const KEYWARD_VERSION: string | undefined;

export const SCAN_HELP = `Usage: keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git]
                    [--include-dir NAME] [--max-size BYTES] [--verify]

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
  --verify           ask each key's own service whether the key is live, at no
                     cost: routing keys GET <router base>/key, direct keys GET
                     <direct base>/models, each key only to its own service
                     (${BASE_URL_ENV.router} / ${BASE_URL_ENV.direct}; https or
                     localhost). Reports live, inactive or unknown; the exit
                     status does not change. Never done without this flag.

Inside a git repository the files git tracks or would commit are scanned; ignored
files are skipped. Binary files are searched too, and so is what ships: inside
.vsix, .zip, .jar, .tgz and .tar archives (nested up to 3 deep; reported as
archive.vsix!extension/dist/x.js) and in source maps' original sources
(x.js.map!src/x.ts). Entry count, unpacked bytes and compression ratio are
capped; whatever a cap leaves unread is named, like every path not scanned, on
stderr (text), in "skipped" (json) or as a tool notification (sarif).
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

function display(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel).split(sep).join('/');
}

/**
 * A file reached through links is read once, and what it holds is reported under each of its names (a
 * 126 MB binary linked twice in node_modules was read three times). Keyed by the real path the links
 * resolve to, which names the same device and inode; with no link in the listing, nothing is kept.
 */
class OncePerFile {
  private readonly targets = new Set<string>();
  private readonly outcomes = new Map<string, unknown>();

  constructor(files: readonly Listed[]) {
    for (const file of files) if (file.linkTo !== undefined) this.targets.add(file.linkTo);
  }

  /** `as`: how the name says to read it (an archive kind, YAML or text), which names of one file may not share. */
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
  files: readonly Listed[],
  maxSize: number,
  cwd: string,
  out: FileFinding[],
  skipped: Skipped[] = [],
  omitted: Omitted[] = [],
  options: ScanOptions = {},
): Promise<void> {
  const once = new OncePerFile(files);
  for (const { path, shown, state, regular, linkTo } of files) {
    const kind = archiveKind(path);
    if (kind) {
      const name = display(cwd, shown);
      const result = await once.read(kind, path, linkTo, () =>
        scanArchiveFile(path, kind, options, undefined, maxSize),
      );
      if (!('findings' in result)) {
        skipped.push({ path: name, reason: result.skipped, ...(result.detail ? { detail: result.detail } : {}) });
        continue;
      }
      const at = (inner: string) => (inner === '' ? name : `${name}!${inner}`);
      for (const hit of result.findings) out.push({ path: at(hit.inner), finding: hit.finding, git: state });
      for (const skip of result.skipped)
        skipped.push({ path: at(skip.inner), reason: skip.reason, ...(skip.detail ? { detail: skip.detail } : {}) });
      for (const o of result.omitted) omitted.push({ path: at(o.inner), count: o.count });
      continue;
    }
    const fileOptions = optionsFor(path, options);
    const outcome = once.read(fileOptions.yaml ? 'yaml' : 'text', path, linkTo, () =>
      scanFile(path, fileOptions, maxSize, regular),
    );
    // Named only when reported: a relative path per clean file was a tenth of a tree's scan.
    if (!('skipped' in outcome) && outcome.findings.length === 0 && !outcome.omitted) continue;
    const name = display(cwd, shown);
    if ('skipped' in outcome) {
      skipped.push({ path: name, reason: outcome.skipped, ...(outcome.detail ? { detail: outcome.detail } : {}) });
      continue;
    }
    if (isSourceMap(path) && outcome.findings.length > 0) {
      // Read again, whole, for its sources: only maps that hold a key at all pay for this.
      const parts = scanShippedText(readFileSync(path), path, options);
      for (const part of parts) {
        const where = part.source === undefined ? name : `${name}!${part.source}`;
        for (const finding of part.findings) out.push({ path: where, finding, git: state });
        if (part.omitted > 0) omitted.push({ path: where, count: part.omitted });
      }
      continue;
    }
    for (const finding of outcome.findings) out.push({ path: name, finding, git: state });
    if (outcome.omitted) omitted.push({ path: name, count: outcome.omitted });
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
        verify: { type: 'boolean', default: false },
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
  let services: Record<'router' | 'direct', string> | undefined;
  let timeoutMs = 0;
  if (values.verify) {
    try {
      services = { router: baseUrlFor('router', undefined, io.env), direct: baseUrlFor('direct', undefined, io.env) };
      timeoutMs = millisecondsOption(undefined, '', io.env, TIMEOUT_ENV.idle, 15_000);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.stderr.write(`keyward scan: ${error.message}\n`);
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
        io.stderr.write(`keyward scan: ${values.staged ? '--staged' : '--history'} needs a git repository\n`);
        return EXIT.usage;
      }
      if (values.staged) {
        const staged = await scanStaged(root, options);
        for (const hit of staged.findings)
          findings.push({ path: display(cwd, join(root, hit.path)), finding: hit.finding, git: 'staged' });
        for (const skip of staged.skipped) skipped.push({ ...skip, path: display(cwd, join(root, skip.path)) });
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
      await scanFiles(listing.files, maxSize, cwd, findings, skipped, omitted, options);
    }
  } catch (error) {
    io.stderr.write(`keyward scan: ${redactSecrets((error as Error).message)}\n`);
    return EXIT.usage;
  }

  if (services && findings.length > 0) {
    // Loaded only here: a scan without --verify never loads the network stack.
    const { KeyVerifier } = await import('../core/scan/verify.ts');
    const verifier = new KeyVerifier({ baseUrls: services, timeoutMs });
    if (format === 'text')
      io.stderr.write(
        `keyward scan: --verify: asking each key's own service (${services.router}, ${services.direct}) whether it is live\n`,
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

  const version = typeof KEYWARD_VERSION === 'string' ? KEYWARD_VERSION : 'dev';
  if (format === 'text') io.stderr.write(skippedText(skipped));
  if (format === 'text') io.stdout.write(omittedText(omitted));
  io.stdout.write(
    format === 'json'
      ? jsonReport(findings, skipped, omitted)
      : format === 'sarif'
        ? sarifReport(findings, version, skipped, omitted)
        : textReport(findings, skipped),
  );
  return findings.length > 0 ? EXIT.failure : isIncomplete(skipped) ? EXIT.usage : EXIT.ok;
}
