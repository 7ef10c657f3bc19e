// Dispatches a `keyward` invocation. Exit codes: 0 success, 1 a service error or
// findings, 2 a usage error, 130 interrupted.
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

declare const KEYWARD_VERSION: string | undefined;

const HELP = `keyward: prompt model APIs and keep keys out of code.

Usage:
  keyward <command> [options]

Commands:
  help        Show this help.
  version     Print the version.

Run "keyward <command> --help" for a command's options.
`;

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {};

export function registerCommand(name: string, command: Command): void {
  COMMANDS[name] = command;
}

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
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`keyward: unknown command "${name}". Run "keyward --help" for the list.\n`);
    return EXIT.usage;
  }
  return command(rest, io);
}
