// keyward scan --history reads what a merge wrote that none of its parents had, binary files included: with --cc
// git leaves --text aside and prints "Binary files differ" with no "+++" line, so a zip, a UTF-16 file or any binary
// added while resolving a merge (and removed since) is read whole from its blob, as in an ordinary commit.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { type Repo, json, makeRepo, scanCli } from './gitFixtures.ts';

const utf16 = (text: string, order: 'le' | 'be') => {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  return order === 'le' ? le : Buffer.from(le).swap16();
};

/** Binary files holding keys: a zip, UTF-16LE and UTF-16BE text with their marks, and bytes with NULs. */
function binaries(): { files: Record<string, Buffer>; expected: [string, string][] } {
  const keys = [routerKey(), directKey('proj'), routerKey(), directKey('svcacct')];
  const files = {
    'bundle.zip': Buffer.from(zipSync({ 'conf/.env': [strToU8(`KEY=${keys[0]}\n`), { level: 6 }] })),
    'le.txt': utf16(`key = "${keys[1]}"\r\n`, 'le'),
    'be.txt': utf16(`key = "${keys[2]}"\n`, 'be'),
    'app.bin': Buffer.concat([Buffer.from([0, 1, 0, 2]), Buffer.from(keys[3]!), Buffer.from([0, 0])]),
  };
  const expected: [string, string][] = [
    ['bundle.zip!conf/.env', fingerprint(keys[0]!)],
    ['le.txt', fingerprint(keys[1]!)],
    ['be.txt', fingerprint(keys[2]!)],
    ['app.bin', fingerprint(keys[3]!)],
  ];
  return { files, expected };
}

function twoBranches(): Repo {
  const repo = makeRepo();
  repo.write('a.txt', 'a\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'start');
  repo.git('checkout', '-q', '-b', 'side');
  repo.write('side.txt', 'side\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'side');
  repo.git('checkout', '-q', 'main');
  repo.write('main.txt', 'main\n');
  repo.git('add', '.');
  repo.git('commit', '-q', '-m', 'main');
  return repo;
}

function commitThenRemove(repo: Repo, files: Record<string, Buffer>, message: string): string {
  for (const [path, bytes] of Object.entries(files)) repo.write(path, bytes);
  repo.git('add', '--', ...Object.keys(files));
  repo.git('commit', '-q', '-m', message);
  const commit = repo.git('rev-parse', 'HEAD').trim();
  repo.git('rm', '-q', '--', ...Object.keys(files));
  repo.git('commit', '-q', '-m', 'removed');
  return commit;
}

describe('keyward scan --history and merge commits', () => {
  it('finds binary, archive and UTF-16 files a merge added, as in an ordinary commit', () => {
    const { files, expected } = binaries();
    const ordinary = makeRepo();
    ordinary.write('a.txt', 'a\n');
    ordinary.git('add', '.');
    ordinary.git('commit', '-q', '-m', 'start');
    const plain = commitThenRemove(ordinary, files, 'binaries');
    const inPlain = json(scanCli(ordinary.dir, ['--history', '--format', 'json']));
    expect(inPlain.findings.map((f) => [f.path, f.fingerprint]).sort()).toEqual([...expected].sort());
    expect(new Set(inPlain.findings.map((f) => f.commit))).toEqual(new Set([plain]));

    const merged = twoBranches();
    merged.git('merge', '-q', '--no-commit', '--no-ff', 'side');
    const merge = commitThenRemove(merged, files, 'merge side, with binaries');
    expect(merged.git('rev-list', '--parents', '-n', '1', merge).trim().split(' ')).toHaveLength(3);
    const run = scanCli(merged.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.fingerprint]).sort()).toEqual([...expected].sort());
    expect(new Set(report.findings.map((f) => f.commit))).toEqual(new Set([merge]));
    expect(report.complete).toBe(true);
  });

  it('reports a key once, in the commit that added it, when a merge keeps a binary a branch added', () => {
    const { files, expected } = binaries();
    const repo = twoBranches();
    repo.git('checkout', '-q', 'side');
    for (const [path, bytes] of Object.entries(files)) repo.write(path, bytes);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'binaries on side');
    const added = repo.git('rev-parse', 'HEAD').trim();
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const report = json(scanCli(repo.dir, ['--history', '--format', 'json']));
    expect(report.findings.map((f) => [f.path, f.fingerprint]).sort()).toEqual([...expected].sort());
    expect(new Set(report.findings.map((f) => f.commit))).toEqual(new Set([added]));
  });
});
