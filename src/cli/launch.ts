// The `keyward` command: turns on Node's own compile cache, then loads the CLI's bundle (cliMain.js, beside this
// file), so that the bundle's code compiled by one run is reused by the next. Node keeps the cache, checks it
// against the source and its own build, and honours NODE_DISABLE_COMPILE_CACHE; this file only says where.
// Measured on Node 24, an empty folder's scan interleaved against the bundle run without it: 0.92× the wall time,
// and level with the hand-made bytecode cache this replaced. Node 20 has no compile cache: the bundle just loads.
import { createRequire, enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { CLI_MAIN } from '../core/cliParts.ts';
import { cacheFolder } from './cacheFolder.ts';

const folder = cacheFolder(process.platform, process.env);
if (typeof enableCompileCache === 'function' && folder !== undefined) {
  try {
    enableCompileCache(folder);
  } catch {
    // The cache is for speed only: a folder that cannot be made changes nothing the command does.
  }
}
// Required, not imported: an import would load the bundle before the cache is on.
createRequire(__filename)(join(__dirname, CLI_MAIN));
