// The `keyward` command line over core/.
import { redactSecrets } from '../core/redact.ts';
import { FdOutput } from './fdOutput.ts';
import { nodeVersionProblem } from './nodeVersion.ts';
import { runCli } from './run.ts';

const argv = process.argv.slice(2);
const stdout = new FdOutput(1);
const stderr = new FdOutput(2);
const problem = nodeVersionProblem(process.version, argv[0]);
if (problem) {
  stderr.write(problem + '\n');
  process.exit(2);
}
// V8's optimizing compiler stays on: turning it off (--no-turbofan) took 10 % of CPU off the bench's 50 MB of
// small files but doubled the CPU of a scan of this repository's node_modules (0.55 → 1.2 s user), where the
// per-file loop runs long enough to pay for its compiled code.

void runCli(argv, {
  stdout,
  stderr,
  env: process.env,
  // A getter: process.stdin builds a stream (and loads its module) on first touch, and only `ask` reads it.
  get stdin() {
    return process.stdin;
  },
}).then(
  (code) => exitWith(code),
  (error: unknown) => {
    // A failure no command expected: one line, never a stack trace that could quote a key.
    stderr.write(`keyward: ${redactSecrets(String((error as Error)?.message ?? error))}\n`);
    exitWith(1);
  },
);

/**
 * Ends the process: what the command wrote is out (the writes are synchronous). Left to end by itself, Node would
 * first wait for V8's background tasks, optimising compiles still queued among them: 10-25 ms at the end of a
 * scan, and CPU for code that never runs. A report that could not be written is no clean result: said on stderr,
 * and exit 2 where the command had nothing worse to say; a reader that stopped early (`| head`) is no failure.
 */
function exitWith(code: number): void {
  const trouble = stdout.trouble;
  if (trouble && !trouble.readerGone) {
    stderr.write(`keyward: could not write to standard output (${trouble.code})\n`);
    if (code === 0) code = 2;
  }
  process.exit(code);
}
