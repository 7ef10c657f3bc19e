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
// V8's optimizing compiler stays on: turning it off (--no-turbofan) took 10 % of CPU off the bench's 50 MB of
// small files but doubled the CPU of a scan of this repository's node_modules (0.55 → 1.2 s user), where the
// per-file loop runs long enough to pay for its compiled code.

void runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // A getter: process.stdin builds a stream (and loads its module) on first touch, and only `ask` reads it.
  get stdin() {
    return process.stdin;
  },
}).then(
  (code) => exitWith(code),
  (error: unknown) => {
    // A failure no command expected: one line, never a stack trace that could quote a key.
    process.stderr.write(`keyward: ${redactSecrets(String((error as Error)?.message ?? error))}\n`);
    exitWith(1);
  },
);

/**
 * Ends the process once what the command wrote is out (an empty write calls back after every earlier one). A
 * command has finished its work when it returns; left to end by itself, Node would first wait for V8's background
 * tasks, optimising compiles still queued among them: 10-25 ms at the end of a scan, and CPU for code that never
 * runs. If a stream never calls back (it broke), the process still ends when nothing is left, with this code.
 */
function exitWith(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
