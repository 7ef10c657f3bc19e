// The `keyward` command line over core/.
import { redactSecrets } from '../core/redact.ts';
import { nodeVersionProblem } from './nodeVersion.ts';
import { runCli } from './run.ts';

const argv = process.argv.slice(2);
const problem = nodeVersionProblem(process.version, argv[0]);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exit(2);
}

void runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // A getter: process.stdin builds a stream (and loads its module) on first touch, and only `ask` reads it.
  get stdin() {
    return process.stdin;
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A failure no command expected: one line, never a stack trace that could quote a key.
    process.stderr.write(`keyward: ${redactSecrets(String((error as Error)?.message ?? error))}\n`);
    process.exitCode = 1;
  },
);
