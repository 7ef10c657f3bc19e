// keyward install-hook [--force]
import { parseArgs } from 'node:util';
import { HookKeywardError, installPreCommitHook, thisKeyward } from '../core/scan/preCommitHook.ts';
import { redactSecrets } from '../core/redact.ts';
import { type CliIo, EXIT } from './io.ts';

export const INSTALL_HOOK_HELP = `Usage: keyward install-hook [--force]

Installs a git pre-commit hook in the repository around the current folder that
runs "keyward scan --staged" and refuses a commit that adds a key. The hook runs
this keyward (the Node.js and script running now, recorded by absolute path),
never one found on PATH or in the project's node_modules at commit time. A
keyward inside the repository (npx keyward from its node_modules) is copied into
the git folder first, where no checkout can replace it. If what the hook recorded
is gone, it refuses commits and says how to reinstall: run this again.

  --force   replace a pre-commit hook that Keyward did not install
`;

export async function installHookCommand(args: string[], io: CliIo): Promise<number> {
  let force: boolean;
  try {
    const { values } = parseArgs({
      args,
      options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
    if (values.help) {
      io.stdout.write(INSTALL_HOOK_HELP);
      return EXIT.ok;
    }
    force = values.force;
  } catch (error) {
    io.stderr.write(`keyward install-hook: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  let result;
  try {
    result = await installPreCommitHook(process.cwd(), { force, keyward: thisKeyward() });
  } catch (error) {
    if (error instanceof HookKeywardError) {
      io.stderr.write(`keyward install-hook: ${redactSecrets(error.message)}; nothing was written\n`);
      return EXIT.usage;
    }
    io.stderr.write(`keyward install-hook: ${redactSecrets((error as Error).message)}\n`);
    return EXIT.failure;
  }
  switch (result.kind) {
    case 'not_a_repository':
      io.stderr.write('keyward install-hook: not inside a git repository\n');
      return EXIT.usage;
    case 'unsafe':
      io.stderr.write(
        `keyward install-hook: ${result.path} is ${result.reason === 'symlink' ? 'a symbolic link' : 'not a plain file'}; Keyward does not write through it. Remove it and run keyward install-hook again.\n`,
      );
      return EXIT.usage;
    case 'foreign':
      io.stderr.write(
        `keyward install-hook: ${result.path} exists and is not Keyward's; rerun with --force to replace it (or add "keyward scan --staged" to it yourself)\n`,
      );
      return EXIT.usage;
    case 'installed':
      io.stdout.write(
        `keyward: ${result.replaced === 'keyward' ? 'updated' : 'installed'} the pre-commit hook at ${result.path}${result.replaced === 'foreign' ? ' (replacing the one that was there)' : ''}\n` +
          `  It runs "scan --staged" of this keyward: ${result.keyward.join(' ')}\n` +
          '  After moving or removing that keyward, run keyward install-hook again. To skip it once: git commit --no-verify\n',
      );
      return EXIT.ok;
  }
}
