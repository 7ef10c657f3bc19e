// keyward scan --history over the streaming core: binary files and quoted
// paths searched, and a failing git log exits 2 with git's reason.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { json, makeRepo, scanCli } from './gitFixtures.ts';

describe('keyward scan --history', () => {
  it('finds keys in binary files and in files git quotes the names of', () => {
    const repo = makeRepo();
    const keys = [routerKey(), directKey('proj'), routerKey()];
    repo.write('app.bin', Buffer.concat([Buffer.from([0, 1, 0]), Buffer.from(keys[0]!), Buffer.from([0])]));
    repo.write('ünï code.env', `KEY=${keys[1]}\n`);
    repo.write('notes.md', `++ b/elsewhere\n${keys[2]}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'one');
    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(
      json(run)
        .findings.map((f) => [f.path, f.line, f.fingerprint])
        .sort(),
    ).toEqual(
      [
        ['app.bin', 1, fingerprint(keys[0]!)],
        ['notes.md', 2, fingerprint(keys[2]!)],
        ['ünï code.env', 1, fingerprint(keys[1]!)],
      ].sort(),
    );
    repo.remove();
  });

  it("exits 2 with git's reason when git log fails", () => {
    const repo = makeRepo();
    repo.write('a.txt', 'a\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'a');
    const objects = join(repo.dir, '.git', 'objects');
    for (const dir of readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d)))
      rmSync(join(objects, dir), { recursive: true });
    const run = scanCli(repo.dir, ['--history']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/git log failed \(exit \d+\): .+/);
    expect(run.stdout).toBe('');
    repo.remove();
  });
});
