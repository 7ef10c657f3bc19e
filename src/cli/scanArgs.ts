// `keyward scan`'s arguments, checked before anything is read: the format, the size cap, --verify and its base URLs,
// the baseline. A bad one is a usage error (exit 2) that names it; nothing is scanned.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ProxyConfig } from '../core/proxyConfig.ts';
import { redactSecrets } from '../core/redact.ts';
import { BaselineError, BaselineIndex, readBaseline } from '../core/scan/baseline.ts';
import { officialBaseUrls } from '../core/scan/verifyHosts.ts';
import { checkBaseUrl } from '../core/urlPolicy.ts';
import type { KeyOwner } from '../shared/keyShapes.ts';
import { SERVICE_IDS } from '../shared/serviceIds.ts';
import { BASE_URL_ENV, TIMEOUT_ENV, UsageError, millisecondsOption, proxyFor } from './common.ts';
import { type CliIo, EXIT } from './io.ts';
import { type FixDisableSetup, fixDisableSetup } from './scanFixDisable.ts';

/** Each service's and provider's official host, where --verify sends a key unless --verify-base-url names another. */
const OFFICIAL = officialBaseUrls();

export const SCAN_HELP = `Usage: keyward scan [PATH...] [--format text|json|sarif] [--staged] [--history] [--no-git]
                    [--include-dir NAME] [--max-size BYTES] [--verify]
                    [--verify-base-url SERVICE=URL]...
                    [--baseline FILE] [--write-baseline FILE] [--config FILE]
                    [--fix-disable] [--threads N]

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
                     direct keys GET ${OFFICIAL.direct ?? ''}/models, and
                     Anthropic, Google (Gemini), Groq, xAI, Hugging Face,
                     Replicate and Together AI keys at their API's model list
                     or "who am I" (docs/cli.md lists each); each key only to
                     its own official host (never where ${BASE_URL_ENV.router} /
                     ${BASE_URL_ENV.direct} point). Reports live, inactive or
                     unknown (with why: nothing to ask, as for Perplexity and
                     Fireworks AI keys, or an answer that says nothing) and the
                     URL asked (checkedAt); the exit status does not change.
                     Never done without this flag.
  --verify-base-url SERVICE=URL
                     with --verify, ask SERVICE (router, direct, or a provider:
                     anthropic, google, groq, xai, huggingface, replicate,
                     together) at URL instead of its official host (https, or
                     http for localhost); repeatable, one per service
  --fix-disable      disable each key found (not the ones the ignore file or
                     the baseline accept) at its account, with the management
                     key in OPENROUTER_MANAGEMENT_KEY: the key is matched by
                     the form the account lists; a key matching several, or
                     none, is named and left alone. Keys still count (exit 1)
  --write-baseline FILE
                     record every key found (fingerprint, file and masked form;
                     never the key) in FILE, to commit; exit 0 unless something
                     could not be scanned
  --baseline FILE    report the keys FILE already holds as unchanged and count
                     only new ones: a key that moved within its file is not new,
                     the same key in another file is. A FILE that cannot be read
                     or is not a baseline stops the scan (exit 2)
  --config FILE      read the team's rules from FILE (a gitleaks.toml as it
                     is) instead of .keyward.toml at the repository root

  --threads N        scan on at most N threads (and read --history through at
                     most N git processes); default: one fewer than the cores
                     (the JavaScript engine's own threads, or the parse of
                     what git prints, use the last). A scan of few files (and
                     --staged) runs on one thread; 1 runs every scan on one.
                     The report is the same whatever N

On a terminal, a scan that runs for more than a few seconds shows its progress
(files or commits, megabytes, rate, time left) on one line of stderr; never when
stderr is a pipe or a file.

.keywardignore at the repository root (else the current folder) lists what not
to count, one entry a line with its reason: a key's fingerprint then the reason
("0123456789abcdef  revoked test key"), or a path glob as in .gitignore then
"# reason" ("test/fixtures/  # generated keys"). A suppressed key is still listed,
with the line that suppressed it; a line that is neither is named and suppresses
nothing (exit 2 when no key counts).

.keyward.toml at the repository root (or --config FILE) holds the team's own
rules, in gitleaks' [[rules]] format: id, description, regex (RE2 syntax),
secretGroup, keywords, entropy and [[rules.allowlists]] (condition, regexTarget,
regexes, stopwords). Any other field is named as not supported (exit 2 when no
key counts, unless it only describes, as tags do). A rule that cannot run (no
id or regex, an invalid regex, or one that could backtrack without bound, such
as (a+)+) is named with its line and nothing is scanned (exit 2).

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

/** `--verify-base-url OWNER=URL`, each at most once, for a service or provider --verify asks; https or loopback http. */
function verifyBaseUrls(values: readonly string[]): Partial<Record<KeyOwner, string>> {
  const chosen: Partial<Record<KeyOwner, string>> = {};
  const services = Object.keys(OFFICIAL) as KeyOwner[];
  for (const value of values) {
    const at = value.indexOf('=');
    const id = services.find((s) => s === value.slice(0, at));
    if (at < 0 || id === undefined)
      throw new UsageError(
        `--verify-base-url takes SERVICE=URL with SERVICE one of ${services.join(', ')}, not "${value}"`,
      );
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
export function shownUrl(raw: string): string {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

/** A scan as asked for, its arguments checked. */
export interface ScanRequest {
  format: 'text' | 'json' | 'sarif';
  paths: string[];
  staged: boolean;
  history: boolean;
  useGit: boolean;
  includeDirs: Set<string>;
  maxSize: number;
  /** With --verify: where each service's keys are asked about, how long to wait, through which proxy. */
  verify?: { services: Partial<Record<KeyOwner, string>>; timeoutMs: number; proxy: ProxyConfig };
  baseline?: BaselineIndex;
  baselineFile?: string;
  writeBaseline?: string;
  /** With --fix-disable: the accounts whose keys may be disabled. */
  fixDisable?: FixDisableSetup;
  /** --config: the team rules file to read instead of .keyward.toml at the root. */
  config?: string;
  /**
   * --threads: at most this many threads (git processes for --history); undefined: one fewer than the cores
   * (scanPool.ts's defaultThreads), for either.
   */
  threads?: number;
}

function parse(args: string[]) {
  return parseArgs({
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
      'fix-disable': { type: 'boolean', default: false },
      config: { type: 'string' },
      threads: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

/** --verify's services, wait and proxy; a --verify-base-url without --verify is a usage error. */
function verifySetup(verify: boolean, urls: readonly string[], io: CliIo): ScanRequest['verify'] {
  const chosen = verifyBaseUrls(urls);
  if (!verify && Object.keys(chosen).length > 0) throw new UsageError('--verify-base-url is used only with --verify');
  if (!verify) return undefined;
  for (const id of SERVICE_IDS) {
    const variable = BASE_URL_ENV[id];
    if (OFFICIAL[id] !== undefined && chosen[id] === undefined && io.env[variable]?.trim())
      io.stderr.write(
        `keyward scan: --verify: ${variable} is not used; keys found in files go to ${OFFICIAL[id]} (--verify-base-url ${id}=URL to choose another)\n`,
      );
  }
  return {
    services: { ...OFFICIAL, ...chosen },
    timeoutMs: millisecondsOption(undefined, '', io.env, TIMEOUT_ENV.idle, 15_000),
    proxy: proxyFor(io.env),
  };
}

/** The request, or the exit code when the arguments say stop (help) or are wrong (named on stderr). */
export function scanRequest(args: string[], io: CliIo): ScanRequest | number {
  let parsed;
  try {
    parsed = parse(args);
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
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) {
    io.stderr.write(`keyward scan: --threads must be a whole number of at least 1, not "${values.threads}"\n`);
    return EXIT.usage;
  }
  let verify: ScanRequest['verify'];
  let fixDisable: FixDisableSetup | undefined;
  try {
    verify = verifySetup(values.verify, values['verify-base-url'], io);
    if (values['fix-disable']) fixDisable = fixDisableSetup(io);
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
  return {
    format,
    paths: positionals,
    staged: values.staged,
    history: values.history,
    useGit: !values['no-git'],
    includeDirs: new Set(values['include-dir']),
    maxSize,
    ...(verify ? { verify } : {}),
    ...(fixDisable ? { fixDisable } : {}),
    ...(baseline ? { baseline, baselineFile: values.baseline } : {}),
    ...(values['write-baseline'] !== undefined ? { writeBaseline: values['write-baseline'] } : {}),
    ...(values.config !== undefined ? { config: resolve(values.config) } : {}),
    ...(threads !== undefined ? { threads } : {}),
  };
}
