// The git pre-commit hook Keyward installs, shared by `keyward install-hook` and
// the editor command. The hook runs the keyward recorded when it was installed, by
// absolute path (Node and script), and nothing else: never `keyward` looked up on
// PATH at commit time nor `npx --no-install keyward`, which run whatever a cloned
// repository put in node_modules/.bin. A keyward inside the repository's worktree
// is never recorded (a checkout can replace it); when that is the one installing,
// its launcher and bundle are copied into the git folder, where no checkout writes.
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { delimiter, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { CLI_SCAN_PARTS } from '../cliParts.ts';
import { type SafeTarget, UnsafePath, readTarget, safeTarget, writeTarget } from '../safeWrite.ts';
import { DEFAULT_BASELINE } from './baseline.ts';
import { runGit } from './git.ts';

/** The line that tells a hook Keyward wrote from anyone else's. */
export const HOOK_MARK = '# installed by keyward install-hook';

const BYPASS = 'To commit once without the check: git commit --no-verify';

/** What the hook runs, absolute real paths: a Node and the CLI script, or one program. Empty: none was found. */
export type HookKeyward = readonly string[];

/** The keyward of this process: the Node running it and its script (`keyward install-hook`). */
export function thisKeyward(): HookKeyward {
  return process.argv[1] ? [process.execPath, process.argv[1]] : [];
}

/** Single-quoted for a POSIX shell: nothing in it is expanded. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A POSIX shell script: runs the recorded keyward's `scan --staged` and says it is Keyward's hook when it fails. */
export function preCommitHookScript(keyward: HookKeyward): string {
  const recorded = keyward.map(shellQuote).join(' ');
  return `#!/bin/sh
${HOOK_MARK}
# Keyward's pre-commit hook: refuses a commit that would add an API key (the
# routing or direct service's, or another AI provider's). It runs the keyward recorded below when it was
# installed, never one found on PATH or in this project's node_modules (a
# cloned repository could supply that one). Reinstall: keyward install-hook.
# Remove: delete this file.
# With a committed baseline (keyward scan --write-baseline ${DEFAULT_BASELINE}) only new keys stop a commit.
set -- ${recorded}
missing=
[ "$#" -gt 0 ] || missing='no keyward was recorded (none was found outside this repository when the hook was installed)'
for part in "$@"; do
  [ -f "$part" ] || missing="$part is gone"
done
if [ -n "$missing" ]; then
  echo "Keyward's pre-commit hook cannot run the keyward it was installed with: $missing." >&2
  echo "  Fix: install keyward outside this repository (npm install --global keyward) and run keyward install-hook again" >&2
  echo "  (or, with keyward in this project's devDependencies, npx keyward install-hook)." >&2
  echo "  ${BYPASS}" >&2
  exit 1
fi
# Whatever is there, a link or a device included, goes to keyward, which reads only a plain file and names
# anything else ([ -f ] would follow a link, and skipping it would count every baselined key as new).
baseline=
if [ -e ${DEFAULT_BASELINE} ] || [ -L ${DEFAULT_BASELINE} ]; then baseline=${DEFAULT_BASELINE}; fi
"$@" scan --staged \${baseline:+--baseline "$baseline"}
status=$?
case $status in
  0) exit 0 ;;
  1)
    echo "Keyward's pre-commit hook refused this commit: the staged changes above add a key." >&2
    echo "  Fix: remove the key (rotate it if it is real), or mark a false finding with a keyward-ignore comment" >&2
    echo "  or a line in .keywardignore (its fingerprint or path, and the reason)." >&2
    ;;
  *)
    echo "Keyward's pre-commit hook could not check this commit (keyward exited with $status; see above)." >&2
    echo "  Fix what it names, or update keyward and run keyward install-hook again." >&2
    ;;
esac
echo "  ${BYPASS}" >&2
exit $status
`;
}

function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function real(path: string): Promise<string | undefined> {
  try {
    const resolved = await realpath(path);
    return statSync(resolved).isFile() ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** A program on PATH by name, as its real path, skipping any inside `worktree`. */
async function onPath(name: string, env: NodeJS.ProcessEnv, worktree: string): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const found = await real(join(dir, name));
    if (found && !inside(found, worktree)) return found;
  }
  return undefined;
}

/** Why a keyward cannot be recorded, in words. */
export class HookKeywardError extends Error {}

/**
 * What the hook will run, checked: each part exists and lies outside the
 * worktree. A script inside it (`npx keyward install-hook` from the project's
 * node_modules) is copied to `<git folder>/keyward/keyward.cjs` first, with its parts; a Node
 * inside it is refused. Without a keyward of its own (the editor), the
 * `keyward` on PATH outside the worktree is recorded, if there is one.
 */
async function resolveKeyward(
  worktree: string,
  gitDir: string,
  given: HookKeyward | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  if (given === undefined) {
    const program = await onPath('keyward', env, worktree);
    if (!program) return [];
    // An npm bin links to a script with a `node` shebang; run it with a Node outside the worktree too.
    if (!['.js', '.cjs', '.mjs'].includes(extname(program))) return [program];
    const node = await onPath('node', env, worktree);
    return node ? [node, program] : [];
  }
  const parts: string[] = [];
  for (const [index, part] of given.entries()) {
    const found = await real(part);
    if (!found) throw new HookKeywardError(`${part} is not a file`);
    if (!inside(found, worktree)) {
      parts.push(found);
      continue;
    }
    if (index === 0 && given.length > 1)
      throw new HookKeywardError(
        `the Node.js running keyward (${found}) is inside this repository, which could replace it; run keyward install-hook with a Node.js installed outside it`,
      );
    parts.push(await copyIntoGitDir(found, gitDir));
  }
  return parts;
}

/**
 * The CLI's launcher, copied where no checkout writes (the git folder) with the parts beside it that a scan
 * loads, and a package.json saying they are CommonJS: the repository's own may say otherwise.
 */
async function copyIntoGitDir(script: string, gitDir: string): Promise<string> {
  await mkdir(join(gitDir, 'keyward'), { recursive: true });
  const write = async (name: string, text: string) => {
    const target = await safeTarget(gitDir, join('keyward', name));
    await writeTarget({ ...target, mode: 0o644 }, text, 0o644);
    return target.path;
  };
  for (const part of CLI_SCAN_PARTS) {
    const text = await readFile(join(dirname(script), part), 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new HookKeywardError(`${join(dirname(script), part)}, a part of keyward, cannot be read (${error.code})`);
    });
    await write(part, text);
  }
  await write('package.json', '{ "type": "commonjs" }\n');
  return write('keyward.cjs', await readFile(script, 'utf8'));
}

export type HookState =
  | { kind: 'not_a_repository' }
  /** The hook file is a link or not a plain file: Keyward never writes through it. */
  | { kind: 'unsafe'; path: string; reason: string }
  | { kind: 'absent'; path: string }
  | { kind: 'keyward'; path: string }
  | { kind: 'foreign'; path: string };

interface Located {
  state: HookState;
  target?: SafeTarget;
}

async function locate(cwd: string, create = false): Promise<Located> {
  // Where git runs hooks from, core.hooksPath included: that is what git asks, not what it runs.
  const asked = await runGit(['rev-parse', '--git-path', 'hooks'], cwd, { keepHooksPath: true });
  if (asked.code !== 0 || asked.stdout.trim() === '') return { state: { kind: 'not_a_repository' } };
  const hooksDir = resolve(cwd, asked.stdout.trim());
  const path = resolve(hooksDir, 'pre-commit');
  // Looking does not create the hooks folder (core.hooksPath may name one not made yet); installing does.
  if (create) await mkdir(hooksDir, { recursive: true });
  else if (!existsSync(hooksDir)) return { state: { kind: 'absent', path } };
  let target: SafeTarget;
  try {
    target = await safeTarget(hooksDir, 'pre-commit');
  } catch (error) {
    if (error instanceof UnsafePath) return { state: { kind: 'unsafe', path, reason: error.reason } };
    throw error;
  }
  if (!target.exists) return { state: { kind: 'absent', path }, target };
  const text = await readTarget(target);
  return { state: { kind: text.includes(HOOK_MARK) ? 'keyward' : 'foreign', path }, target };
}

/** What stands where the pre-commit hook of the repository around `cwd` would go. */
export async function inspectPreCommitHook(cwd: string): Promise<HookState> {
  return (await locate(cwd)).state;
}

export type InstallResult =
  | {
      kind: 'installed';
      path: string;
      replaced: 'nothing' | 'keyward' | 'foreign';
      /** What the hook runs (absolute paths); empty when no keyward was found, and the hook then blocks commits. */
      keyward: readonly string[];
    }
  | Extract<HookState, { kind: 'not_a_repository' | 'unsafe' | 'foreign' }>;

export interface InstallOptions {
  force?: boolean;
  /** The keyward to record (the CLI passes itself); without it, the `keyward` on PATH outside the worktree. */
  keyward?: HookKeyward;
  /** Where to look for `keyward` and `node` when none is given. */
  env?: NodeJS.ProcessEnv;
}

/** Installs (or refreshes) Keyward's hook; replaces another hook only when `force` says so. */
export async function installPreCommitHook(cwd: string, options: InstallOptions = {}): Promise<InstallResult> {
  const { state, target } = await locate(cwd, true);
  if (state.kind === 'not_a_repository' || state.kind === 'unsafe') return state;
  if (state.kind === 'foreign' && !options.force) return state;
  if (!target) return { kind: 'not_a_repository' };
  const top = await runGit(['rev-parse', '--show-toplevel'], cwd);
  const common = await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], cwd);
  if (top.code !== 0 || common.code !== 0) return { kind: 'not_a_repository' };
  const worktree = await realpath(top.stdout.trim());
  const gitDir = resolve(cwd, common.stdout.trim());
  const keyward = await resolveKeyward(worktree, gitDir, options.keyward, options.env ?? process.env);
  // Executable whatever the old file's mode was: a hook git cannot run is silently skipped.
  await writeTarget({ ...target, mode: 0o755 }, preCommitHookScript(keyward), 0o755);
  return { kind: 'installed', path: state.path, replaced: state.kind === 'absent' ? 'nothing' : state.kind, keyward };
}
