// The `keyward` command: loads the CLI's bundle (cliMain.js, beside this file) as Node's CommonJS loader would,
// through V8's code cache (codeCache.ts), and keeps that cache when the process ends. This file stays small and
// imports only Node's built-ins and codeCache.ts: it is compiled on every run.
import { closeSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { CLI_MAIN } from '../core/cliParts.ts';
import { type CacheSlot, type LauncherHooks, openSlot, writeSlot } from './codeCache.ts';

const main = join(__dirname, CLI_MAIN);
let source = '';
let slot: CacheSlot | undefined;
try {
  const fd = openSync(main, 'r');
  try {
    const bytes = readFileSync(fd);
    slot = openSlot(fstatSync(fd, { bigint: true }), bytes);
    source = bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
} catch (error) {
  writeSync(
    2,
    `keyward: its bundle ${main} cannot be read (${(error as NodeJS.ErrnoException).code ?? error}); install keyward again\n`,
  );
  process.exit(2);
}

// The wrapper Node's CommonJS loader puts around a module, on the source's first line so that lines keep their numbers.
const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
// A cache V8 refuses (another build of V8, other flags) only means the source is compiled as without one.
const script = new Script(wrapped, { filename: main, ...(slot?.data ? { cachedData: slot.data } : {}) });
const fresh = !slot?.data || script.cachedDataRejected === true;
const bundle: { exports: { launcherHooks?: LauncherHooks } } = { exports: {} };
if (slot) {
  const kept = slot;
  process.on('exit', () => {
    try {
      const hooks = bundle.exports.launcherHooks;
      const weight = hooks?.runWeight() ?? 0;
      if (!fresh && weight <= kept.weight) return;
      hooks?.beforeCodeCache();
      writeSlot(kept, weight, script.createCachedData());
    } catch {
      // The cache is for speed: a folder that cannot be listed, say, changes nothing the command did.
    }
  });
}
(script.runInThisContext() as (...args: unknown[]) => void)(
  bundle.exports,
  createRequire(main),
  bundle,
  main,
  __dirname,
);
