// Each detector of the scanner on a megabyte built against it (test/core/scan/adversarialInputs.ts, the inputs the
// linearity test uses): MB/s, and the time of 1 MB over 256 KB, 4 when the work grows with the input (issue 31).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type Adversary,
  allowComments,
  base64Triggers,
  baselineFile,
  ignoreFile,
  prefixes,
  sourceMaps,
  splitForms,
} from '../test/core/scan/adversarialInputs.ts';
import { QUICK } from './quick.ts';
import { formatMs, median } from './stats.ts';

/** The median wall time of a run, after one to warm up. */
function medianMs(run: () => unknown, rounds: number): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

export function benchAdversarial(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-bench-adversarial-'));
  const size = QUICK ? 64 << 10 : 1 << 20;
  const rounds = QUICK ? 1 : 7;
  const adversaries: Adversary<unknown>[] = [
    prefixes(),
    splitForms(),
    base64Triggers(),
    sourceMaps(),
    allowComments(),
    ignoreFile(),
    baselineFile(dir),
  ];
  const lines = [`each detector on ${size >> 10} KB built against it; median of ${rounds}, wall time`];
  try {
    for (const adversary of adversaries) {
      const large = adversary.build(size);
      const quarter = adversary.build(size / 4);
      const ms = medianMs(large.run, rounds);
      const ratio = ms / medianMs(quarter.run, rounds);
      const mbs = Buffer.byteLength(large.input) / (1 << 20) / (ms / 1000);
      lines.push(
        `${adversary.name.padEnd(16)} ${mbs.toFixed(1).padStart(7)} MB/s  ${formatMs(ms).padStart(9)}  ` +
          `x${ratio.toFixed(1)} for 4x the input  (${adversary.shape})`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
