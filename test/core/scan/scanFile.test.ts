// Reading one file: special files named and never read, a folder where a file
// was expected is no crash, and files around the one-read buffer all scanned.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../../../src/core/scan/fileScan.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { tempDir } from '../../cli/gitFixtures.ts';

describe('scanFile', () => {
  it.skipIf(!existsSync('/dev/zero'))('names devices instead of reading them (forever)', () => {
    expect(scanFile('/dev/zero')).toEqual({ skipped: 'special-file', detail: 'character device' });
    expect(scanFile('/dev/null')).toEqual({ skipped: 'special-file', detail: 'character device' });
  });

  it('names a FIFO, a folder and a missing path', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    mkdirSync(join(dir, 'folder'));
    expect(scanFile(join(dir, 'pipe'))).toEqual({ skipped: 'special-file', detail: 'FIFO' });
    expect(scanFile(join(dir, 'folder'))).toEqual({ skipped: 'folder' });
    expect(scanFile(join(dir, 'gone'))).toEqual({ skipped: 'missing' });
  });

  // Around 1 MB, and the one-read buffer, which is the largest file read whole (16 MB; larger ones go in windows).
  it.each([0, 1, (1 << 20) - 100, 1 << 20, (1 << 20) + 1, 9 << 20, 16 << 20, (16 << 20) + 1, 17 << 20])(
    'scans a file of %i bytes with a key at its end',
    (size) => {
      const dir = tempDir();
      const key = routerKey();
      const tail = `\n${key}`;
      writeFileSync(
        join(dir, 'f'),
        Buffer.concat([
          Buffer.alloc(Math.max(0, size - tail.length), 'a'),
          Buffer.from(size === 0 ? '' : size < tail.length ? 'x' : tail),
        ]),
      );
      // As the CLI reads a file its listing called regular (no stat first), and as anything else reads one.
      for (const seenRegular of [false, true]) {
        const outcome = scanFile(join(dir, 'f'), {}, Infinity, seenRegular);
        expect('findings' in outcome && outcome.findings.length).toBe(size >= tail.length ? 1 : 0);
        if ('findings' in outcome && outcome.findings[0])
          expect(outcome.findings[0]).toMatchObject({ line: size > tail.length ? 1 : 0, column: 0 });
      }
    },
  );
});
