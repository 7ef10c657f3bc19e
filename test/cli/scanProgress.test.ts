// keyward scan's progress line as a person sees it (issue 35 §1): on a terminal (a pseudo-terminal made by
// script(1)) a long scan of files or of history redraws one line on stderr; a short one prints none; on a pipe
// nothing, however long. KEYWARD_PROGRESS_AFTER_MS=0 stands in for a scan of several seconds.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliCacheHome, makeRepo, scanCli, tempDir } from './gitFixtures.ts';
import { writeLongHistory } from './historyCorpus.ts';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** What a terminal shows for `keyward scan ARGS` in `cwd` (stdout and stderr both, as a terminal has them). */
function onTerminal(cwd: string, args: string[], env: Record<string, string> = {}): string {
  const command = [process.execPath, CLI, 'scan', ...args].map((a) => `'${a}'`).join(' ');
  const run = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, XDG_CACHE_HOME: cliCacheHome(), ...env },
    timeout: 60_000,
  });
  return run.stdout;
}

function folderOf(files: number): string {
  const dir = tempDir('keyward-progress-');
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `f${i}.js`), `export const n${i} = ${i};\n`);
  return dir;
}

const LINE = /\r\x1b\[Kkeyward scan: [\d,]+ of [\d,]+ files, [\d.]+ MB, [\d,]+ files\/s, [\d.]+ MB\/s/;

describe.skipIf(!hasScript)('the progress line of keyward scan', () => {
  it('a long scan of files shows it on a terminal, and wipes it before the report', () => {
    const dir = folderOf(400);
    for (const threads of ['1', '2']) {
      const shown = onTerminal(dir, ['--no-git', '--threads', threads, '.'], { KEYWARD_PROGRESS_AFTER_MS: '0' });
      expect(shown).toMatch(LINE);
      expect(shown).toMatch(/\r\x1b\[Kkeyward scan: no keys found/);
    }
  });

  it('a long history scan shows commits, of how many, and the time left', () => {
    const repo = makeRepo();
    writeLongHistory(repo, 500, 20);
    const shown = onTerminal(repo.dir, ['--history', '--threads', '2'], { KEYWARD_PROGRESS_AFTER_MS: '0' });
    expect(shown).toMatch(/\r\x1b\[Kkeyward scan: [\d,]+ of 521 commits, [\d.]+ MB, .*left/);
  });

  it('a short scan shows none on a terminal', () => {
    const shown = onTerminal(folderOf(400), ['--no-git', '.']);
    // (A terminal ends each line with "\r\n": the line's own mark is the erase that redraws it.)
    expect(shown).not.toContain('\x1b[K');
    expect(shown).toContain('keyward scan: no keys found');
  });

  it('on a pipe there is none, however long the scan', () => {
    const dir = folderOf(400);
    const run = scanCli(dir, ['--no-git', '--format', 'text', '.'], { KEYWARD_PROGRESS_AFTER_MS: '0' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('\r');
  });
});
