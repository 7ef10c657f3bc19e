// V8's top tier (TurboFan) for a `keyward scan` of many files only once the scan has run long enough to profit
// from it. TurboFan compiles on a second thread: its compiles of the per-file loop and the text scan cost 20–45 ms
// of CPU, which a scan that ends within a quarter of a second (a pre-commit hook, a repository of ordinary size)
// never earns back, while Maglev's code, quick to make, runs those loops nearly as fast for that long. Measured on
// Node 24, interleaved against the same build without it: bench/scanner.ts's 10,674 files, CPU -6 % and wall the
// same; this repository's node_modules (26,000 files, 490 MB), CPU -2 to -4 % and wall the same; 418 source files
// with keys, -7 % wall and -11 % CPU. The tier is off from the start of a scan of many files and back on from LONG_MS of the process's
// life, checked between files. V8 reads --turbofan whenever it decides what to optimise, so it can be set now;
// --max-opt, read once at start, cannot. Not on V8 before 12 (Node 20): without Maglev, what runs instead is the
// baseline code, and the bench's scan took 7 % longer.
import { loadBuiltin } from '../core/builtin.ts';

type V8 = typeof import('node:v8');

/** The process's age from which TurboFan is back on: past the whole of the bench's scan, a third into node_modules'. */
const LONG_MS = 250;
/**
 * Fewer files than this are a short scan anyway: node:v8 is not worth loading (3-4 ms: it brings Node's streams).
 */
export const MANY_FILES = 256;

let v8: V8 | undefined;

/** The process's age in ms. Not performance.now(): its first use loads perf_hooks (ten modules, 1-2 ms). */
function age(): number {
  return process.uptime() * 1000;
}

/**
 * Turns TurboFan off for a scan of `files` files, unless the scan is small or the process already old; once: the
 * listing calls it when it reaches MANY_FILES (TurboFan compiled the walk's loop and Node's directory reading
 * before the scan began, ~9 ms of CPU in the bench's tree), the scan again with its count.
 */
export function deferTopTier(files: number): void {
  if (v8 !== undefined || files < MANY_FILES || age() >= LONG_MS) return;
  if (Number(process.versions.v8.split('.')[0]) < 12) return;
  try {
    v8 = loadBuiltin<V8>('node:v8');
    v8.setFlagsFromString('--no-turbofan');
  } catch {
    // Only speed is at stake: a scan goes on with the engine as it is.
    v8 = undefined;
  }
}

/** Turns TurboFan back on once the process has run LONG_MS (cheap: call it every few hundred files). */
export function topTierIfLong(): void {
  if (age() >= LONG_MS) restoreTopTier();
}

/** Turns TurboFan back on if a scan turned it off: V8 stamps a code cache with its flags as they are when it is made. */
export function restoreTopTier(): void {
  if (v8 !== undefined) {
    v8.setFlagsFromString('--turbofan');
    v8 = undefined;
  }
}

/** Whether TurboFan is off for now (for tests). */
export function topTierDeferred(): boolean {
  return v8 !== undefined;
}
