// Wall and CPU time of whole processes, run interleaved: round after round, each command once, the order
// reversed every other round, so a machine that speeds up or slows down (7 neighbours on 2 cores) weighs
// on every command alike and no command always runs first. Node cannot read its children's CPU time
// (process.resourceUsage is its own), so a small Python driver runs the rounds and reads
// getrusage(RUSAGE_CHILDREN) around each child, in microseconds, as hyperfine reads it in Rust
// (sharkdp/hyperfine src/timer/unix_timer.rs). Without python3 the wall times come from Node and CPU is
// not measured (NaN), which the caller prints as such.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { median } from './stats.ts';

export interface Run {
  wallMs: number;
  cpuMs: number;
}

const DRIVER = `
import json, resource, subprocess, sys, time
spec = json.loads(sys.argv[1])
commands, rounds, warmup = spec["commands"], spec["rounds"], spec["warmup"]
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
runs = [[] for _ in commands]
for r in range(warmup + rounds):
    order = list(range(len(commands)))
    if r % 2:
        order.reverse()
    for i in order:
        c0 = cpu(); t0 = time.perf_counter()
        subprocess.run(commands[i], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t1 = time.perf_counter(); c1 = cpu()
        if r >= warmup:
            runs[i].append({"wallMs": (t1 - t0) * 1000, "cpuMs": (c1 - c0) * 1000})
print(json.dumps(runs))
`;

/** Each command's runs, in the order given; `warmup` rounds are run first and not counted. */
export function timeInterleaved(commands: string[][], rounds: number, warmup = 1): Run[][] {
  const driven = spawnSync('python3', ['-c', DRIVER, JSON.stringify({ commands, rounds, warmup })], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (driven.status === 0) return JSON.parse(driven.stdout) as Run[][];
  const runs: Run[][] = commands.map(() => []);
  for (let r = 0; r < warmup + rounds; r++) {
    const order = commands.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const [command, ...args] = commands[i]!;
      const start = performance.now();
      spawnSync(command!, args, { stdio: 'ignore', maxBuffer: 1 << 30 });
      if (r >= warmup) runs[i]!.push({ wallMs: performance.now() - start, cpuMs: NaN });
    }
  }
  return runs;
}

/** The median of the ratios round by round (a / b of the same round), and their spread. */
export function pairedRatio(a: Run[], b: Run[], of: keyof Run): { median: number; min: number; max: number } {
  const ratios = a.map((run, i) => run[of] / b[i]![of]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

export const medianOf = (runs: Run[], of: keyof Run): number => median(runs.map((run) => run[of]));

/** The machine's load averages (1, 5, 15 minutes), for every figure that depends on it. */
export function loadAverage(): string {
  try {
    return `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
  } catch {
    return 'load unknown';
  }
}
