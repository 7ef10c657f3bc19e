// What no scanner written in Node can go below on this machine, beside the scanner's own figures (scanCores.ts):
// Node's start, and a plain read of every file once (readLoop.js); and, on all cores, the CPU a scan spends shared
// perfectly among them. Issue 35's goals are ratios to ripgrep and git, which start in a few milliseconds and read
// the same files: these lines say how much of each goal is left for the scanning itself.
import { resolve } from 'node:path';
import { type Run, medianOf, pairedRatio } from './processTimes.ts';
import { formatMs } from './stats.ts';

const READ_LOOP = resolve('bench/readLoop.js');

/** The two commands measured in the same interleaved rounds as the scans: Node's start, and the plain read. */
export function floorCommands(dir: string): string[][] {
  return [
    [process.execPath, '-e', '0'],
    [process.execPath, READ_LOOP, dir],
  ];
}

/**
 * The floor against rg -j1 and the goal's ratio (`goal`×): how many times rg's wall the plain read already takes,
 * and what the goal leaves for everything else keyward does; `oneThread`'s CPU over the cores, the best wall on all.
 */
export function floorLines(
  [start, read]: Run[][],
  rgOne: Run[],
  rgAll: Run[],
  oneThread: Run[],
  cores: number,
  goal: number,
): string[] {
  const floor = pairedRatio(read!, rgOne, 'wallMs');
  const left = medianOf(rgOne, 'wallMs') * goal - medianOf(read!, 'wallMs');
  const best = medianOf(oneThread, 'cpuMs') / cores;
  return [
    `  floor in Node: its start ${formatMs(medianOf(start!, 'wallMs'))}; start, listing and one read of every file, no scan, ${formatMs(medianOf(read!, 'wallMs'))} = ${floor.median.toFixed(2)}x rg -P -j1 (pairs ${floor.min.toFixed(2)}-${floor.max.toFixed(2)}): the ${goal}x goal leaves ${left > 0 ? `${formatMs(left)} for scanning` : `nothing for scanning (${formatMs(-left)} short)`}`,
    `  all cores at best: --threads 1's cpu shared perfectly, ${formatMs(best)} = ${(best / medianOf(rgAll, 'wallMs')).toFixed(2)}x rg -P on all cores`,
  ];
}

/** The best a split history can do here: the one walk's CPU, its git included, shared perfectly among the cores. */
export function historyFloorLine(oneWalk: Run[], log: Run[], cores: number): string {
  const best = medianOf(oneWalk, 'cpuMs') / cores;
  return `  at best on ${cores} cores: the one walk's cpu (its git included) shared perfectly, ${formatMs(best)} = ${(best / medianOf(log, 'wallMs')).toFixed(2)}x one git log -p (a split adds cpu, never removes it)`;
}
