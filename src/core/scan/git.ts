// The one way Keyward runs git. A scanned repository is untrusted: its config
// can name programs (fsmonitor, textconv and external diff drivers, a pager,
// hooks, a signature verifier) that git would run with our environment, API
// keys included. Every call turns those off and hands git only the variables it
// needs. No call may reach a remote either: a partial clone fetches missing
// objects on demand, through whatever upload-pack, ssh command or remote helper
// the repository names, so lazy fetching and every transport are off. No other
// module may start git (test/core/scanGit.test.ts checks).
import { loadBuiltin } from '../builtin.ts';
import { lazy } from '../lazy.ts';
import { redactSecrets } from '../redact.ts';

type ChildProcesses = typeof import('node:child_process');
/** Loaded on the first git call: a scan with --no-git never pays for child processes. */
const children = lazy(() => loadBuiltin<ChildProcesses>('node:child_process'));
const spawn = ((...args: Parameters<ChildProcesses['spawn']>) => children().spawn(...args)) as ChildProcesses['spawn'];

/** Config that would run a program or change the output we parse, neutralised for every call. */
const HOOKS_OFF = 'core.hooksPath=/dev/null';
const SAFE_CONFIG = [
  'core.fsmonitor=false',
  HOOKS_OFF,
  'core.pager=cat',
  'core.quotePath=true',
  'color.ui=never',
  'log.showSignature=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'diff.external=',
  // What `git log -p` shows: the root commit's files, renames found as git does by default.
  'log.showRoot=true',
  'diff.renames=true',
  // No transport at all (GIT_ALLOW_PROTOCOL in gitEnv also overrides a repository's protocol.<name>.allow).
  'protocol.allow=never',
  'core.sshCommand=false',
].flatMap((setting) => ['-c', setting]);

/** Flags that switch off config-driven programs, for the subcommands that take them. */
const SUBCOMMAND_FLAGS: Record<string, readonly string[]> = {
  log: ['--no-textconv', '--no-ext-diff', '--no-show-signature', '--no-color'],
  show: ['--no-textconv', '--no-ext-diff', '--no-show-signature', '--no-color'],
  diff: ['--no-textconv', '--no-ext-diff', '--no-color'],
};

/** What the parent environment may pass to git: where programs and home are, locale, temp. */
const ALLOWED_ENV =
  /^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TMP|TEMP|XDG_CONFIG_HOME|SYSTEMROOT|SystemRoot|WINDIR|windir|COMSPEC|ComSpec|PATHEXT|USERPROFILE|HOMEDRIVE|HOMEPATH)$/;
/** A name that looks like a secret is dropped even when the allow-list would pass it. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION/i;

export interface GitCallOptions {
  /**
   * Keep GIT_INDEX_FILE from the parent: a pre-commit hook of `git commit -a` or
   * `git commit PATH` gets a temporary index, and that is what will be committed.
   */
  inheritIndexFile?: boolean;
  /** Written to git's stdin, which is closed after it. */
  input?: string | Buffer;
  /** Leave stdin open for the caller to write (git cat-file --batch). */
  keepStdin?: boolean;
  /**
   * Leave core.hooksPath as the repository has it, to ask where its hooks are
   * (install-hook). Only for commands that run no hook.
   */
  keepHooksPath?: boolean;
  signal?: AbortSignal;
  /**
   * Filter drivers (`filter.<name>`) whose clean and process commands are emptied for this call: a command that
   * reads the working tree (`git diff HEAD`) would run a repository's clean filter on each changed file, and no
   * fixed setting turns filters off (`configuredFilters` lists them).
   */
  filtersOff?: readonly string[];
  /**
   * Let git fill its output buffer before it writes (GIT_FLUSH=0) rather than write after each commit, as it does
   * to a pipe: a long log then reaches the reader in fewer, larger pieces (history.ts).
   */
  buffered?: boolean;
}

/** The environment a git child gets: an allow-list of the parent's, and git's own switches. */
export function gitEnv(parent: NodeJS.ProcessEnv = process.env, options: GitCallOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && ALLOWED_ENV.test(name) && !SECRET_NAME.test(name)) env[name] = value;
  }
  if (options.inheritIndexFile && parent.GIT_INDEX_FILE) env.GIT_INDEX_FILE = parent.GIT_INDEX_FILE;
  if (options.buffered) env.GIT_FLUSH = '0';
  return {
    ...env,
    // Messages we read (could not open directory ...) in one language.
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    // A partial clone would fetch a missing blob from its promisor remote; this is the switch
    // `git --no-lazy-fetch` sets (git 2.45+), honoured by older git too. A missing blob is then an error we report.
    GIT_NO_LAZY_FETCH: '1',
    // Set, even empty, it replaces protocol.allow and every protocol.<name>.allow the repository's config may set:
    // no transport is allowed.
    GIT_ALLOW_PROTOCOL: '',
    // Replacement refs rewrite what a commit holds; a scan reads the objects themselves (as TruffleHog does).
    GIT_NO_REPLACE_OBJECTS: '1',
  };
}

/**
 * A path as a pathspec that means exactly that path: a file named "*.env" or
 * ":(exclude)x" is a name, not a pattern. (Not GIT_LITERAL_PATHSPECS: check-ignore refuses it.)
 */
export function literalPath(path: string): string {
  return `:(literal)${path}`;
}

/** The full argument list: neutral config first, then the subcommand with its safety flags. */
export function gitArgs(
  args: readonly string[],
  options: Pick<GitCallOptions, 'keepHooksPath' | 'filtersOff'> = {},
): string[] {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) throw new Error('git: no subcommand');
  const config = options.keepHooksPath
    ? SAFE_CONFIG.filter((arg, i) => arg !== HOOKS_OFF && SAFE_CONFIG[i + 1] !== HOOKS_OFF)
    : SAFE_CONFIG;
  // An empty clean or process command is no filter at all (git's convert.c runs neither when it is "").
  const filters = (options.filtersOff ?? []).flatMap((name) => [
    '-c',
    `filter.${name}.clean=`,
    '-c',
    `filter.${name}.process=`,
  ]);
  return ['--no-pager', ...config, ...filters, subcommand, ...(SUBCOMMAND_FLAGS[subcommand] ?? []), ...rest];
}

/** The filter drivers the repository's config (with its includes, global and system) names. */
export async function configuredFilters(cwd: string): Promise<string[]> {
  const listed = await runGit(['config', '--name-only', '--get-regexp', '^filter\\.'], cwd);
  const names = listed.stdout
    .split('\n')
    .map((line) => /^filter\.(.+)\.[^.]+$/.exec(line.trim())?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)];
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitBufferResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** git's stderr, redacted and trimmed, for a message. */
export function gitMessage(stderr: string): string {
  return redactSecrets(stderr.trim()).slice(0, 2000);
}

/** A running git whose stdout is read as it comes: the caller consumes `stdout`, then awaits `done`. */
export interface GitStream {
  stdout: NodeJS.ReadableStream;
  /** Resolves with the exit code (128 when git could not start, or was killed) and stderr. */
  done: Promise<{ code: number; stderr: string }>;
  kill(): void;
  stdin: NodeJS.WritableStream | null;
}

export function gitStream(args: readonly string[], cwd: string, options: GitCallOptions = {}): GitStream {
  const child = spawn('git', gitArgs(args, options), {
    cwd,
    env: gitEnv(process.env, options),
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 1 << 20) stderr += chunk;
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  options.signal?.addEventListener('abort', kill, { once: true });
  const done = new Promise<{ code: number; stderr: string }>((resolve) => {
    child.on('error', (error) => {
      stderr += `${error.message}\n`;
    });
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', kill);
      resolve({ code: typeof code === 'number' && code >= 0 ? code : 128, stderr });
    });
  });
  // git may exit before reading all its input (a bad object id); that is reported by the exit code.
  child.stdin.on('error', () => undefined);
  if (options.input !== undefined) child.stdin.end(options.input);
  else if (!options.keepStdin) child.stdin.end();
  return { stdout: child.stdout, done, kill, stdin: child.stdin };
}

/** Runs git to the end and collects stdout as bytes. */
export async function runGitBuffer(
  args: readonly string[],
  cwd: string,
  options: GitCallOptions = {},
): Promise<GitBufferResult> {
  const stream = gitStream(args, cwd, options);
  const chunks: Buffer[] = [];
  stream.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const { code, stderr } = await stream.done;
  return { code, stdout: Buffer.concat(chunks), stderr };
}

/** Runs git to the end and collects stdout as text. */
export async function runGit(args: readonly string[], cwd: string, options: GitCallOptions = {}): Promise<GitResult> {
  const result = await runGitBuffer(args, cwd, options);
  return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr };
}
