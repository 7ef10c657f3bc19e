// The `keyward` command line over core/.
import { nodeVersionProblem } from './nodeVersion.ts';
import { runCli } from './run.ts';

const problem = nodeVersionProblem(process.version);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exit(2);
}

void runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, stdin: process.stdin }).then((code) => {
  process.exitCode = code;
});
