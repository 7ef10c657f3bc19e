// The bench ends by itself: its sections that open things (extension activations
// with their timers, an emulator process, undici agents) run in quick mode, and
// the process must exit without a watchdog. Not a benchmark: no figure is checked.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';

// Generous: a loaded two-core machine, and a child per section. A leftover timer
// (a status bar refresh armed after dispose) kept the process for minutes.
const LIMIT_MS = 90_000;

test(
  'npm run bench in quick mode exits by itself, every section included',
  async () => {
    const child = spawn(process.execPath, [resolve('bench/run.ts')], {
      env: { ...process.env, KEYWARD_BENCH_QUICK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = await new Promise<number | null | 'still running'>((done) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        done('still running');
      }, LIMIT_MS);
      child.on('exit', (code) => {
        clearTimeout(timer);
        done(code);
      });
    });
    expect({ exit, output }).toMatchObject({ exit: 0 });
    for (const section of ['Bundle budget', 'Streaming client', 'Key scanner', 'Panel rendering'])
      expect(output).toContain(`== ${section}`);
    expect(output).toMatch(/activate \(quick mode/);
    expect(output).toMatch(/200 deltas/);
  },
  LIMIT_MS + 10_000,
);
