// A folder holding a `keyward` command that runs the built CLI, for tests of hooks
// that look keyward up on PATH as a teammate's machine would.
import { chmodSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, tempDir } from './gitFixtures.ts';

/** The folder with `keyward` (running on `node`, this test's Node unless told) in it. */
export function keywardBinDir(node = process.execPath): string {
  const dir = tempDir('keyward-bin-');
  const shim = join(dir, 'keyward');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(node)} ${JSON.stringify(CLI)} "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** PATH for a hook: the given folders first, then this Node, then the system's tools. */
export function hookPath(...first: string[]): string {
  return [...first, dirname(process.execPath), '/usr/bin', '/bin'].join(':');
}
