// The `keyward` command line over core/.
import { setFlagsFromString } from 'node:v8';
import { redactSecrets } from '../core/redact.ts';
import { nodeVersionProblem } from './nodeVersion.ts';
import { runCli } from './run.ts';

const argv = process.argv.slice(2);
const problem = nodeVersionProblem(process.version, argv[0]);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exit(2);
}
// A scan is a short process whose hot code is native searches: V8's optimizing compiler spent about a third
// of its CPU time (on worker threads) compiling code the scan then ran for a few milliseconds. Set before any
// code is hot, this only keeps the engine at its faster-to-compile tiers; interleaved over the bench's 10,674
// files it took CPU from 0.30 to 0.27 s with wall time unchanged (bench/scanner.ts).
if (argv[0] === 'scan') setFlagsFromString('--no-turbofan');

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
