// A folder the user names is scanned whatever git ignores: its files are reported "(ignored by git)", as a
// named file's are, never "no keys found" over a folder nothing was read from. Scanning the repository itself
// still leaves ignored files out, as before.
import { symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { type Repo, json, makeRepo, scanCli } from './gitFixtures.ts';

/** A repository ignoring `secret/`, with a key in it, one in a folder below, and a tracked file forced in. */
function ignoredFolder(): { repo: Repo; top: string; inner: string; forced: string } {
  const repo = makeRepo();
  const keys = { top: routerKey(), inner: directKey('proj'), forced: routerKey() };
  repo.write('.gitignore', 'secret/\n');
  repo.write('README.md', 'nothing here\n');
  repo.write('secret/forced.ts', `export const k = "${keys.forced}";\n`);
  repo.git('add', '.');
  repo.git('add', '-f', 'secret/forced.ts');
  repo.git('commit', '-q', '-m', 'one');
  repo.write('secret/a.ts', `export const k = "${keys.top}";\n`);
  repo.write('secret/inner/b.env', `KEY=${keys.inner}\n`);
  return { repo, ...keys };
}

describe('keyward scan of a folder git ignores', () => {
  it('scans a named ignored folder and says each file is ignored by git', () => {
    const { repo, top, inner, forced } = ignoredFolder();
    const run = scanCli(repo.dir, ['secret', '--format', 'json']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => [f.path, f.git, f.fingerprint]).sort()).toEqual(
      [
        ['secret/a.ts', 'ignored', fingerprint(top)],
        ['secret/forced.ts', 'tracked', fingerprint(forced)],
        ['secret/inner/b.env', 'ignored', fingerprint(inner)],
      ].sort(),
    );
    expect(report.complete).toBe(true);
    const text = scanCli(repo.dir, ['secret']);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/^secret\/a\.ts:1:\d+: .* \(ignored by git\)$/m);
    expect(text.stdout).toMatch(/^secret\/inner\/b\.env:1:\d+: .* \(ignored by git\)$/m);
  });

  it('scans a named folder inside an ignored one, and the ignored folder as the current folder', () => {
    const { repo, inner } = ignoredFolder();
    const run = scanCli(repo.dir, ['secret/inner', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.git, f.fingerprint])).toEqual([
      ['secret/inner/b.env', 'ignored', fingerprint(inner)],
    ]);
    const here = scanCli(`${repo.dir}/secret/inner`, ['--format', 'json']);
    expect(here.status).toBe(1);
    expect(json(here).findings.map((f) => [f.path, f.git])).toEqual([['b.env', 'ignored']]);
  });

  // The folder itself is not ignored, only what it holds (`build/*`): naming it still reads every file in it.
  it('scans what git ignores inside a named folder that is not ignored itself; the repository scan still skips it', () => {
    const repo = makeRepo();
    const key = routerKey();
    repo.write('.gitignore', 'build/*\n!build/.keep\n');
    repo.write('build/.keep', '');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'one');
    repo.write('build/out.js', `var k = "${key}";\n`);
    const named = scanCli(repo.dir, ['build', '--format', 'json']);
    expect(named.status).toBe(1);
    expect(json(named).findings.map((f) => [f.path, f.git, f.fingerprint])).toEqual([
      ['build/out.js', 'ignored', fingerprint(key)],
    ]);
    const whole = scanCli(repo.dir, ['--format', 'json']);
    expect(whole.status).toBe(0);
    expect(json(whole).findings).toEqual([]);
  });

  it('names what an ignored folder holds that it does not read, as a walk does', () => {
    const { repo } = ignoredFolder();
    repo.write('secret/node_modules/pkg/index.js', `export const k = "${routerKey()}";\n`);
    symlinkSync('/dev/null', `${repo.dir}/secret/link`);
    const run = scanCli(repo.dir, ['secret', '--format', 'json']);
    expect(run.status).toBe(1);
    const report = json(run);
    expect(report.findings.map((f) => f.path)).not.toContain('secret/node_modules/pkg/index.js');
    expect(report.skipped.map((s) => [s.path, s.reason]).sort()).toEqual(
      [
        ['secret/link', 'symlink'],
        ['secret/node_modules', 'excluded-folder'],
      ].sort(),
    );
  });

  it('still leaves ignored files out of a scan of the repository, as before', () => {
    const { repo, forced } = ignoredFolder();
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.fingerprint])).toEqual([['secret/forced.ts', fingerprint(forced)]]);
    const named = scanCli(repo.dir, ['.', '--format', 'json']);
    expect(json(named).findings.map((f) => f.path)).toEqual(['secret/forced.ts']);
  });
});
