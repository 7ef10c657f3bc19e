// keyward install-hook [--force]
import { parseArgs } from 'node:util';
import { installPreCommitHook } from '../core/preCommitHook.ts';
import { redactSecrets } from '../core/redact.ts';
import { type CliIo, EXIT } from './io.ts';

export const INSTALL_HOOK_HELP = `Usage: keyward install-hook [--force]

Installs a git pre-commit hook in the repository around the current folder that
runs "keyward scan --staged" and refuses a commit that adds a key. The hook finds
keyward on PATH or in the project's node_modules (npx --no-install keyward); it
names no path of this machine, so it keeps working when the clone moves.

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
    result = await installPreCommitHook(process.cwd(), { force });
  } catch (error) {
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
          '  It runs "keyward scan --staged" with the keyward on PATH or in node_modules; to skip it once: git commit --no-verify\n',
      );
      return EXIT.ok;
  }
}
