// The `keyward` command line over core/.
import { redactSecrets } from '../core/redact.ts';
import { FdOutput } from './fdOutput.ts';
import { nodeVersionProblem } from './nodeVersion.ts';
import { runCli } from './run.ts';

const argv = process.argv.slice(2);
// A Windows console takes text through libuv's console writer, as process.stdout does: bytes written to the
// descriptor would show the "…" of a masked key as other characters there. Elsewhere a terminal, a pipe and a
// file all take the UTF-8 bytes as they are.
const direct = process.platform !== 'win32';
const stdout = direct ? new FdOutput(1) : undefined;
const stderr = direct ? new FdOutput(2) : process.stderr;
const problem = nodeVersionProblem(process.version, argv[0]);
if (problem) {
  stderr.write(problem + '\n');
  process.exit(2);
}

void runCli(argv, {
  stdout: stdout ?? process.stdout,
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
 * Ends the process once what the command wrote is out (written synchronously; on Windows, once the streams say
 * so). Not by process.exit: it stops V8's worker threads without tearing the heap down, and a background compile
 * that is waiting for the main thread to collect garbage then waits for ever (nodejs/node#54918; in this CLI 2–8
 * scans in 100 of a folder with keys hung so). Ending by itself, Node tears the heap down first, which releases
 * such a compile, and on Node 24 it no longer waits for queued compiles (no slower than process.exit, measured).
 * A report that could not be written is no clean result: said on stderr, and exit 2 where the command had
 * nothing worse to say; a reader that stopped early (`| head`) is no failure.
 */
function exitWith(code: number): void {
  const trouble = stdout?.trouble;
  if (trouble && !trouble.readerGone) {
    stderr.write(`keyward: could not write to standard output (${trouble.code})\n`);
    if (code === 0) code = 2;
  }
  process.exitCode = code;
  // Nothing should be left to keep the process up (clients are closed, stdin is read to its end); should something
  // be, it ends anyway, long after any compile has finished. Unref'd: this timer alone keeps nothing waiting.
  setTimeout(() => process.exit(code), LINGER_MS).unref();
}

const LINGER_MS = 2000;
