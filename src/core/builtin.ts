// A Node built-in loaded when first used, synchronously. Hashing takes about 4 ms to load and child
// processes about 3 ms, of a `keyward scan` start that should take 50: a scan that finds nothing
// never fingerprints a key, and one with --no-git never starts git. (Only git.ts may name the child
// process module, here as anywhere: test/core/scanGit.test.ts.)
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

// process.getBuiltinModule came in Node 20.16; `keyward scan` runs on any Node 20.
const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;

/** The built-in named `node:…`; the caller names its type (`typeof import('node:crypto')`). */
export function loadBuiltin<Module>(name: `node:${string}`): Module {
  return (getBuiltin?.call(process, name) ?? createRequire(resolve('keyward.cjs'))(name)) as Module;
}
