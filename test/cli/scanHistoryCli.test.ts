// keyward scan --history over the streaming core: binary files and quoted
// paths searched, and a failing git log exits 2 with git's reason.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
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

  it('opens archives committed at any time, by their name or their first bytes, even since deleted', () => {
    const repo = makeRepo();
    const [zipped, unnamed, gzipped] = [routerKey(), directKey('proj'), directKey('svcacct')];
    const deflated = (text: string): [Uint8Array, { level: 6 }] => [strToU8(text), { level: 6 }];
    repo.write('bundle.zip', Buffer.from(zipSync({ 'conf/.env': deflated(`KEY=${zipped}\n`) })));
    repo.write('backup.dat', Buffer.from(zipSync({ 'x.env': deflated(`KEY=${unnamed}\n`) })));
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'archives');
    const first = repo.git('rev-parse', 'HEAD').trim();
    repo.git('rm', '-q', 'bundle.zip', 'backup.dat');
    repo.write('settings.env.gz', gzipSync(`KEY=${gzipped}\n`));
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'gone, and a gzip');
    const second = repo.git('rev-parse', 'HEAD').trim();
    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.commit, f.fingerprint]).sort()).toEqual(
      [
        ['bundle.zip!conf/.env', first, fingerprint(zipped)],
        ['backup.dat!x.env', first, fingerprint(unnamed)],
        ['settings.env.gz', second, fingerprint(gzipped)],
      ].sort(),
    );
    expect(report.complete).toBe(true);
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
