// How much of the CLI this run has used, for the code cache the launcher keeps (src/cli/launch.ts): a cache holds
// the functions compiled by the run that wrote it, so a run that used more of them writes it again. Measured on the
// bench's 10,674 files: a cache written by a scan of an empty folder made that scan 1.24× rg -j1's wall time, one
// written by a scan like it 1.20× (1.30× without a cache).
import { MANY_FILES } from './topTier.ts';

let weight = 0;

/** A scan ran over `files` files and found `findings` keys. */
export function weighScan(files: number, findings: number): void {
  weight = Math.max(weight, 1 + (files >= MANY_FILES ? 1 : 0) + (findings > 0 ? 1 : 0));
}

/** 0 for a run that scanned nothing; up to 3 for a scan of many files that found keys. */
export function runWeight(): number {
  return weight;
}
