// Child processes of the e2e run, each in its own process group, so that one
// signal stops a server and everything it started. Every group is stopped on
// exit, on failure and on Ctrl-C.
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';

const groups = new Set<ChildProcess>();

export interface GroupOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
}

export function spawnGroup(command: string, args: string[], options: GroupOptions): ChildProcess {
  const log = openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  groups.add(child);
  child.on('exit', () => groups.delete(child));
  return child;
}

export function stopGroup(child: ChildProcess, timeoutMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      // Children that outlive their parent in the group still get the signal.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* none left */
      }
      resolve();
    });
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

export async function stopAll(): Promise<void> {
  await Promise.all([...groups].map((child) => stopGroup(child)));
}

let cleanups: (() => Promise<void> | void)[] = [];

/** Runs on normal exit and on SIGINT/SIGTERM: stops every group and removes temp folders. */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

export async function cleanupAll(): Promise<void> {
  const pending = cleanups.reverse();
  cleanups = [];
  await stopAll();
  for (const cleanup of pending) {
    try {
      await cleanup();
    } catch {
      /* best effort */
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\nkeyward: ${signal}, stopping everything it started...\n`);
    void cleanupAll().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`,
  );
}
