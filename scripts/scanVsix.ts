// The dogfood step of `npm run package`: the VSIX just built is scanned with
// this repository's own `keyward scan`, inside the archive, and packaging fails
// on any finding or on anything the scan could not read.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const vsix = process.argv[2] ?? 'keyward.vsix';
const cli = resolve(import.meta.dirname, '..', 'dist', 'cli.js');
if (!existsSync(vsix)) {
  process.stderr.write(`scanVsix: ${vsix} does not exist: package first.\n`);
  process.exit(2);
}
const run = spawnSync(process.execPath, [cli, 'scan', '--no-git', vsix], { stdio: 'inherit' });
if (run.status !== 0) {
  process.stderr.write(
    run.status === 1
      ? `scanVsix: ${vsix} ships a key (above). Remove it from the sources, rebuild, and rotate the key.\n`
      : `scanVsix: ${vsix} could not be scanned whole (exit ${run.status ?? run.signal}); not shipping it unscanned.\n`,
  );
  process.exit(run.status === 1 ? 1 : 2);
}
process.stdout.write(`scanVsix: ${vsix} ships no key.\n`);
