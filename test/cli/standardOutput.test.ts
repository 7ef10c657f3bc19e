// The CLI writes its report straight to the descriptors (src/cli/fdOutput.ts). A report that could not
// be written is no clean result: a full disk (/dev/full) is named on stderr and exits 2, never 0; a reader
// that stops early (`keyward scan | head`) is no failure, and the exit status stays the scan's own.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routerKey } from '../emulator/keyFactory.ts';
import { CLI, tempDir } from './gitFixtures.ts';

const FULL = '/dev/full';

/** `keyward scan ARGS` with its standard output on a full disk. */
function scanIntoFullDisk(args: string[]): { status: number | null; stderr: string } {
  const out = openSync(FULL, 'w');
  try {
    const run = spawnSync(process.execPath, [CLI, 'scan', ...args], {
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: run.status, stderr: run.stderr };
  } finally {
    closeSync(out);
  }
}

describe('keyward scan: standard output', () => {
  it.skipIf(!existsSync(FULL))('a report that cannot be written exits 2 and says why, where the scan was clean', () => {
    const run = scanIntoFullDisk(['--no-git', '--format', 'json', tempDir('keyward-full-')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('keyward: could not write to standard output (ENOSPC)\n');
  });

  it.skipIf(!existsSync(FULL))('keys found stay exit 1 when the report cannot be written', () => {
    const folder = tempDir('keyward-full-keys-');
    writeFileSync(join(folder, 'a.js'), `const k = "${routerKey()}";\n`);
    const run = scanIntoFullDisk(['--no-git', folder]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('could not write to standard output (ENOSPC)');
  });

  it('a reader that stops reading is no failure: the scan exits with its own status, nothing on stderr', async () => {
    const folder = tempDir('keyward-pipe-');
    for (let i = 0; i < 40; i++) writeFileSync(join(folder, `f${i}.js`), `const k = "${routerKey()}";\n`);
    const child = spawn(process.execPath, [CLI, 'scan', '--no-git', '--format', 'json', folder], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away before the report is written: every write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    expect(status).toBe(1);
    expect(stderr).toBe('');
  });
});
