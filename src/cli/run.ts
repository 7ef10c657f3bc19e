// Dispatches a `keyward` invocation; the exit codes are in io.ts. Commands are loaded
// lazily and import io.ts, never this file (test/lint/importCycles.test.ts).
import { type CliIo, EXIT } from './io.ts';

export { type CliIo, EXIT };

declare const KEYWARD_VERSION: string | undefined;

const HELP = `keyward: prompt model APIs and keep keys out of code.

Usage:
  keyward <command> [options]

Commands:
  ask         Send a prompt to the routing or the direct service and stream the answer.
  status      Check a key: limits, credit, free-model requests today, permissions.
  scan        Find keys in files, staged changes or git history (for CI and pre-commit).
  install-hook  Install a git pre-commit hook that runs "keyward scan --staged".
  keys        List, create, rotate, disable and delete the account's keys (management or admin key).
  help        Show this help.
  version     Print the version.

Run "keyward <command> --help" for a command's options.
`;

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  ask: async () => (await import('./ask.ts')).askCommand,
  status: async () => (await import('./status.ts')).statusCommand,
  scan: async () => (await import('./scan.ts')).scanCommand,
  'install-hook': async () => (await import('./installHook.ts')).installHookCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
};

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (name === 'version' || name === '--version') {
    io.stdout.write(`${typeof KEYWARD_VERSION === 'string' ? KEYWARD_VERSION : 'dev'}\n`);
    return EXIT.ok;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr.write(`keyward: unknown command "${name}". Run "keyward --help" for the list.\n`);
    return EXIT.usage;
  }
  return (await load())(rest, io);
}
