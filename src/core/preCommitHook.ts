// The git pre-commit hook Keyward installs, shared by `keyward install-hook` and
// the editor command. The hook names no path of this machine: a clone moves, and
// a teammate's checkout has its own keyward (on PATH or in node_modules).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type SafeTarget, UnsafePath, readTarget, safeTarget, writeTarget } from './safeWrite.ts';
import { DEFAULT_BASELINE } from './scan/baseline.ts';
import { runGit } from './scan/git.ts';

/** The line that tells a hook Keyward wrote from anyone else's. */
export const HOOK_MARK = '# installed by keyward install-hook';

const BYPASS = 'To commit once without the check: git commit --no-verify';

/** A POSIX shell script: runs `keyward scan --staged` and says it is Keyward's hook when it fails. */
export function preCommitHookScript(): string {
  return `#!/bin/sh
${HOOK_MARK}
# Keyward's pre-commit hook: refuses a commit that would add a routing- or
# direct-service API key. Uses the keyward on PATH, else this project's own
# (npx --no-install keyward, offline: a commit never downloads anything).
# Reinstall: keyward install-hook. Remove: delete this file.
# With a committed baseline (keyward scan --write-baseline ${DEFAULT_BASELINE}) only new keys stop a commit.
set -- scan --staged
if [ -f ${DEFAULT_BASELINE} ]; then set -- "$@" --baseline ${DEFAULT_BASELINE}; fi
if command -v keyward >/dev/null 2>&1; then
  keyward "$@"
elif command -v npx >/dev/null 2>&1 && npm_config_offline=true npx --no-install keyward version >/dev/null 2>&1; then
  npm_config_offline=true npx --no-install keyward "$@"
else
  echo "Keyward's pre-commit hook: the keyward command was not found (not on PATH, not in this project's node_modules)." >&2
  echo "  Fix: npm install --save-dev keyward (or npm install --global keyward)." >&2
  echo "  ${BYPASS}" >&2
  exit 1
fi
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
    echo "  Fix what it names, or update keyward (npm install --save-dev keyward@latest)." >&2
    ;;
esac
echo "  ${BYPASS}" >&2
exit $status
`;
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
  | { kind: 'installed'; path: string; replaced: 'nothing' | 'keyward' | 'foreign' }
  | Extract<HookState, { kind: 'not_a_repository' | 'unsafe' | 'foreign' }>;

/** Installs (or refreshes) Keyward's hook; replaces another hook only when `force` says so. */
export async function installPreCommitHook(cwd: string, options: { force?: boolean } = {}): Promise<InstallResult> {
  const { state, target } = await locate(cwd, true);
  if (state.kind === 'not_a_repository' || state.kind === 'unsafe') return state;
  if (state.kind === 'foreign' && !options.force) return state;
  if (!target) return { kind: 'not_a_repository' };
  // Executable whatever the old file's mode was: a hook git cannot run is silently skipped.
  await writeTarget({ ...target, mode: 0o755 }, preCommitHookScript(), 0o755);
  return { kind: 'installed', path: state.path, replaced: state.kind === 'absent' ? 'nothing' : state.kind };
}
