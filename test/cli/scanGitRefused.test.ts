// A repository git refuses (dubious ownership) or cannot read (a corrupt HEAD
// makes git look past it) is never scanned as a plain folder in silence: the
// refusal is named with its remedy, and a key in a tracked node_modules/ cannot
// end in exit 0 (issue 19, item 4).
import { chownSync, lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routerKey } from '../emulator/keyFactory.ts';
import { type Repo, isRoot, json, makeRepo, scanCli } from './gitFixtures.ts';

function trackedNodeModules(key: string): Repo {
  const repo = makeRepo();
  repo.write('README.md', 'clean\n');
  repo.write('node_modules/vendored/index.js', `module.exports = "${key}";\n`);
  repo.git('add', '-f', '.');
  repo.git('commit', '-q', '-m', 'vendored');
  return repo;
}

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}

const refusals = [
  [
    'dubious ownership (safe.directory)',
    (repo: Repo) => chownTree(repo.dir, 65534),
    /git refuses this repository.*dubious ownership.*safe\.directory/,
  ],
  [
    'a corrupt HEAD',
    (repo: Repo) => writeFileSync(join(repo.dir, '.git', 'HEAD'), 'not a ref\n'),
    /git refuses this repository.*not a git repository.*\.git is there: repair it \(a corrupt HEAD\?\)/,
  ],
] as const;

if (!isRoot) console.warn('scanGitRefused: SKIPPED LOUDLY: dubious ownership needs root to hand the tree to nobody');

describe('a repository git refuses', () => {
  it.each(refusals)('%s: named with its remedy, files not called "outside git", exit 2 not 0', (name, refuse, said) => {
    if (name.startsWith('dubious') && !isRoot) return;
    const key = routerKey();
    const repo = trackedNodeModules(key);
    refuse(repo);
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(2);
    const report = json(run);
    expect(report.complete).toBe(false);
    const refused = report.skipped.find((s) => s.reason === 'git-refused')!;
    expect(refused).toMatchObject({ path: '.', incomplete: true });
    expect(refused.message).toMatch(said);
    expect(report.skipped).toContainEqual(expect.objectContaining({ path: 'node_modules', reason: 'excluded-folder' }));
    const text = scanCli(repo.dir, []);
    expect(text.status).toBe(2);
    expect(text.stderr).toMatch(/NOT SCANNED: \.: git refuses this repository/);
    expect(text.stdout).not.toMatch(/not in a git repository/);
    // A file named on the command line is not called "not in a git repository" either.
    const file = json(scanCli(repo.dir, ['--format', 'json', 'README.md']));
    expect(file.skipped.map((s) => s.reason)).toEqual(['git-refused']);
    expect(run.stdout + run.stderr + text.stdout + text.stderr).not.toContain(key);
  });

  it.each(refusals)('%s: --history and --staged say git refuses it, with the remedy, and exit 2', (name, refuse) => {
    if (name.startsWith('dubious') && !isRoot) return;
    const repo = trackedNodeModules(routerKey());
    refuse(repo);
    for (const flag of ['--history', '--staged']) {
      const run = scanCli(repo.dir, [flag]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^keyward scan: ${flag}: git refuses the repository at .+: .+`));
      expect(run.stderr).toMatch(name.startsWith('dubious') ? /safe\.directory/ : /repair it/);
    }
  });
});
