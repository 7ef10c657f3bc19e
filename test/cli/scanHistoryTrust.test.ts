// keyward scan --history misses nothing and runs nothing (issue 19, items 1-3
// and 5): a partial clone fetches nothing and names what it lacks; keys a merge
// introduced are reported once; config cannot narrow what git log shows; a
// shallow clone says its history is cut short; UTF-16 files are read as UTF-16.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { json, makePartialClone, makeRepo, plainGit, scanCli, tempDir } from './gitFixtures.ts';

const sarifOf = (stdout: string) => (JSON.parse(stdout) as any).runs[0];
const found = (stdout: string) =>
  json({ status: 0, stdout, stderr: '' })
    .findings.map((f) => [f.path, f.line, f.fingerprint, f.commit?.slice(0, 12)])
    .sort();

describe('a partial clone (item 1)', () => {
  it('is armed: plain git log -p runs the upload-pack its config names to fetch the missing blob', () => {
    const clone = makePartialClone({ 'old.env': `KEY=${routerKey()}\n` });
    plainGit(clone.dir, ['log', '-p', '--all']);
    expect(clone.ran()).toMatch(/^ran: /);
  });

  it('keyward scan --history runs nothing, fetches nothing, and names the blob it could not read (exit 2)', () => {
    const key = routerKey();
    const clone = makePartialClone({ 'old.env': `KEY=${key}\n` });
    const run = scanCli(clone.dir, ['--history', '--format', 'json']);
    expect(clone.ran()).toBe('');
    expect(run.status).toBe(2);
    const report = json(run);
    expect(report.complete).toBe(false);
    expect(report.skipped.filter((s) => s.incomplete).map((s) => [s.path, s.reason])).toEqual(
      expect.arrayContaining([['old.env', 'not-fetched']]),
    );
    const text = scanCli(clone.dir, ['--history']);
    expect(clone.ran()).toBe('');
    expect(text.status).toBe(2);
    expect(text.stderr).toMatch(/NOT SCANNED: old\.env: in history but never fetched \(a partial clone\)/);
    expect(text.stdout + text.stderr).not.toContain(key);
  });
});

describe('keys a merge introduced (item 2)', () => {
  // gitleaks (gitleaks/gitleaks sources/git.go) runs `git log -p -U0 --full-history --all` and TruffleHog
  // (trufflesecurity/trufflehog pkg/gitparse/gitparse.go) `git log --patch --full-history --all`: neither
  // asks for merge diffs, and git log -p shows none by default. keyward reads merges with --cc: the lines
  // a merge wrote that are in none of its parents.
  it('reports a key written while resolving a conflict and one added by merge --no-commit, once each, after the files are gone', () => {
    const keys = { resolved: routerKey(), added: directKey('proj'), branch: routerKey() };
    const repo = makeRepo();
    repo.write('config.env', 'KEY=placeholder\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'root');
    repo.git('checkout', '-q', '-b', 'side');
    repo.write('config.env', 'KEY=from-side\n');
    repo.write('branch.env', `KEY=${keys.branch}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'side');
    repo.git('checkout', '-q', 'main');
    repo.write('config.env', 'KEY=from-main\n');
    repo.git('commit', '-q', '-am', 'main');
    // A conflict on config.env, resolved with a key that neither side had.
    try {
      repo.git('merge', '-q', 'side');
    } catch {
      // The conflict is the point.
    }
    repo.write('config.env', `KEY=${keys.resolved}\n`);
    repo.git('add', 'config.env');
    repo.git('commit', '-q', '--no-edit');
    const conflictMerge = repo.git('rev-parse', 'HEAD').trim();
    // merge --no-commit, then a new file added to the merge commit.
    repo.git('checkout', '-q', '-b', 'other', 'HEAD~1');
    repo.write('other.txt', 'other\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'other');
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--no-commit', '--no-ff', 'other');
    repo.write('added.env', `KEY=${keys.added}\n`);
    repo.git('add', 'added.env');
    repo.git('commit', '-q', '--no-edit');
    const addMerge = repo.git('rev-parse', 'HEAD').trim();
    const sideCommit = repo.git('rev-parse', 'side').trim();
    // Both files deleted afterwards: only history holds the keys.
    repo.git('rm', '-q', 'config.env', 'added.env', 'branch.env');
    repo.git('commit', '-q', '-m', 'gone');

    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(found(run.stdout)).toEqual(
      [
        ['added.env', 1, fingerprint(keys.added), addMerge.slice(0, 12)],
        ['branch.env', 1, fingerprint(keys.branch), sideCommit.slice(0, 12)],
        ['config.env', 1, fingerprint(keys.resolved), conflictMerge.slice(0, 12)],
      ].sort(),
    );
  });
});

describe('config cannot narrow history (item 3)', () => {
  function rootOnly(): { repo: ReturnType<typeof makeRepo>; key: string } {
    const key = routerKey();
    const repo = makeRepo();
    // Two keys in one file, far apart: hunks a diff.interHunkContext setting would join with context lines.
    repo.write('root.env', `KEY=${key}\n${'filler\n'.repeat(3)}OTHER=${routerKey()}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'root');
    repo.write('root.env', `KEY=${key}\nchanged\n${'filler\n'.repeat(2)}OTHER=x\n`);
    repo.git('commit', '-q', '-am', 'second');
    return { repo, key };
  }

  it.each([
    ['repository config', 'repo'],
    ['global config ($HOME/.gitconfig)', 'home'],
    ['global config ($XDG_CONFIG_HOME/git/config)', 'xdg'],
  ] as const)('log.showRoot=false in %s does not hide the root commit', (_name, where) => {
    const { repo, key } = rootOnly();
    const home = tempDir('keyward-home-');
    const config =
      '[log]\n\tshowRoot = false\n[diff]\n\tinterHunkContext = 10\n\tsubmodule = diff\n\trenames = copies\n';
    if (where === 'repo') {
      repo.git('config', 'log.showRoot', 'false');
      repo.git('config', 'diff.interHunkContext', '10');
    } else if (where === 'home') writeFileSync(join(home, '.gitconfig'), config);
    else {
      mkdirSync(join(home, 'xdg', 'git'), { recursive: true });
      writeFileSync(join(home, 'xdg', 'git', 'config'), config);
    }
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
    const run = scanCli(repo.dir, ['--history', '--format', 'json'], env);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.line, f.fingerprint])).toEqual(
      expect.arrayContaining([['root.env', 1, fingerprint(key)]]),
    );
    expect(json(run).findings).toHaveLength(2);
  });

  it('a changed line next to an unchanged one is still read when diff.interHunkContext joins the hunks', () => {
    const repo = makeRepo();
    repo.write('app.env', 'A=1\nB=2\nC=3\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'root');
    const key = routerKey();
    repo.write('app.env', `A=changed\nB=2\nC=${key}\n`);
    repo.git('commit', '-q', '-am', 'key');
    repo.git('config', 'diff.interHunkContext', '5');
    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.line, f.fingerprint])).toEqual([['app.env', 3, fingerprint(key)]]);
  });

  // TruffleHog runs git with --no-replace-objects (trufflesecurity/trufflehog pkg/gitparse/gitparse.go).
  it('a replacement ref cannot swap the commit that added a key for a clean one', () => {
    const repo = makeRepo();
    const key = routerKey();
    repo.write('app.env', `KEY=${key}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'key');
    const withKey = repo.git('rev-parse', 'HEAD').trim();
    repo.write('app.env', 'KEY=\n');
    repo.git('commit', '-q', '-am', 'clean');
    const cleanTree = repo.git('rev-parse', 'HEAD^{tree}').trim();
    const decoy = repo.git('commit-tree', cleanTree, '-m', 'key').trim();
    repo.git('replace', withKey, decoy);
    expect(repo.git('log', '-p', '--all', '--format=%H')).not.toContain(key);
    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(1);
    expect(json(run).findings.map((f) => [f.path, f.fingerprint, f.commit])).toEqual([
      ['app.env', fingerprint(key), withKey],
    ]);
  });

  it('a graft file that hides older commits is named (exit 2), never a clean pass', () => {
    const repo = makeRepo();
    repo.write('app.env', `KEY=${routerKey()}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'key');
    repo.git('rm', '-q', 'app.env');
    repo.write('README.md', 'clean\n');
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'clean');
    writeFileSync(join(repo.dir, '.git', 'info', 'grafts'), `${repo.git('rev-parse', 'HEAD').trim()}\n`);
    const run = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(run.status).toBe(2);
    expect(json(run).skipped).toEqual([
      expect.objectContaining({ path: '.', reason: 'grafted-history', incomplete: true }),
    ]);
  });

  // gitleaks and TruffleHog scan a shallow clone's commits without a word about the rest; GitHub's
  // actions/checkout fetches one commit by default (fetch-depth: 1).
  it('a shallow clone says its history is cut short, with the remedy, on stderr, in JSON and SARIF, and exits 2', () => {
    const source = makeRepo();
    source.write('old.env', `KEY=${routerKey()}\n`);
    source.git('add', '.');
    source.git('commit', '-q', '-m', 'old');
    source.git('rm', '-q', 'old.env');
    source.write('README.md', 'clean\n');
    source.git('add', '.');
    source.git('commit', '-q', '-m', 'clean');
    const dir = tempDir('keyward-shallow-');
    makeRepo(tempDir(), false).git('clone', '-q', '--depth=1', `file://${source.dir}`, dir);
    expect(execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: dir }).toString().trim()).toBe('true');

    const text = scanCli(dir, ['--history']);
    expect(text.status).toBe(2);
    expect(text.stderr).toMatch(/NOT SCANNED: \.: history is cut short \(a shallow clone\).*git fetch --unshallow/);
    const report = json(scanCli(dir, ['--history', '--format', 'json']));
    expect(report.complete).toBe(false);
    expect(report.skipped).toEqual([
      expect.objectContaining({ path: '.', reason: 'shallow-history', incomplete: true }),
    ]);
    const sarif = scanCli(dir, ['--history', '--format', 'sarif']);
    expect(sarif.status).toBe(2);
    const run = sarifOf(sarif.stdout);
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications).toEqual([
      expect.objectContaining({
        level: 'error',
        descriptor: { id: 'shallow-history' },
        message: { text: expect.stringMatching(/git fetch --unshallow/) },
      }),
    ]);
  });
});

describe('UTF-16 files (item 5)', () => {
  const utf16 = (text: string, order: 'le' | 'be') => {
    const le = Buffer.from(`\ufeff${text}`, 'utf16le');
    return order === 'le' ? le : Buffer.from(le).swap16();
  };

  it('a key in a UTF-16 file with a byte-order mark is found in history (after the file is deleted) and staged', () => {
    const keys = { le: routerKey(), be: directKey('proj'), later: routerKey(), staged: routerKey() };
    const repo = makeRepo();
    repo.write('win.ps1', utf16(`$env:KEY = "${keys.le}"\r\n`, 'le'));
    repo.write('mac.txt', utf16(`KEY=${keys.be}\n`, 'be'));
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'utf-16');
    // A key added to a UTF-16 file that already existed: a hunk in the middle of the file.
    repo.write('win.ps1', utf16(`$env:KEY = "${keys.le}"\r\n# more\r\n$env:LATER = "${keys.later}"\r\n`, 'le'));
    repo.git('commit', '-q', '-am', 'later');
    const later = repo.git('rev-parse', 'HEAD').trim();
    repo.git('rm', '-q', 'win.ps1', 'mac.txt');
    repo.git('commit', '-q', '-m', 'gone');
    repo.write('staged.ps1', utf16(`$k = "${keys.staged}"\r\n`, 'le'));
    repo.git('add', 'staged.ps1');

    const history = scanCli(repo.dir, ['--history', '--format', 'json']);
    expect(history.status).toBe(1);
    expect(
      json(history)
        .findings.map((f) => [f.path, f.line, f.fingerprint])
        .sort(),
    ).toEqual(
      [
        ['mac.txt', 1, fingerprint(keys.be)],
        ['win.ps1', 1, fingerprint(keys.le)],
        ['win.ps1', 3, fingerprint(keys.later)],
      ].sort(),
    );
    expect(json(history).findings.find((f) => f.fingerprint === fingerprint(keys.later))!.commit).toBe(later);
    const staged = scanCli(repo.dir, ['--staged', '--format', 'json']);
    expect(staged.status).toBe(1);
    expect(json(staged).findings.map((f) => [f.path, f.line, f.fingerprint])).toEqual([
      ['staged.ps1', 1, fingerprint(keys.staged)],
    ]);
    for (const key of Object.values(keys)) expect(history.stdout + staged.stdout).not.toContain(key);
  });
});
