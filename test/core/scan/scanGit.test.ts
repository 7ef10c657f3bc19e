// The one git helper: no other module starts a process, every call turns off
// what a repository's config could run, and children get no secrets. The git
// status the editor grades findings with agrees with the file reading through
// symlinked paths.
import { readFileSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { scanBlobs } from '../../../src/core/scan/blobScan.ts';
import { gitArgs, gitEnv, runGit } from '../../../src/core/scan/git.ts';
import { GitStatusCache } from '../../../src/core/scan/gitStatus.ts';
import { prefetchStates } from '../../../src/core/scan/gitPrefetch.ts';
import { countCommits, scanHistory } from '../../../src/core/scan/history.ts';
import { scanStaged } from '../../../src/core/scan/staged.ts';
import { listTargets } from '../../../src/core/scan/targets.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import {
  type HostileRepo,
  makeHostileRepo,
  makePartialClone,
  makeRepo,
  plainGit,
  tempDir,
} from '../../cli/gitFixtures.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('one way to run git', () => {
  it('no module but src/core/scan/git.ts starts a process', () => {
    const starters = sources('src').filter((file) =>
      /node:child_process|['"]child_process['"]/.test(readFileSync(file, 'utf8')),
    );
    expect(starters.map((f) => relative('.', f).split('\\').join('/'))).toEqual(['src/core/scan/git.ts']);
  });

  it('turns off config-driven programs on every call, and the safety flags of log, show and diff', () => {
    const args = gitArgs(['log', '-p']);
    expect(args[0]).toBe('--no-pager');
    for (const setting of [
      'core.fsmonitor=false',
      'core.hooksPath=/dev/null',
      'core.pager=cat',
      'log.showSignature=false',
      'color.ui=never',
      'protocol.allow=never',
      'log.showRoot=true',
      'diff.renames=true',
    ])
      expect(args).toContain(setting);
    expect(args.slice(args.indexOf('log'))).toEqual([
      'log',
      '--no-textconv',
      '--no-ext-diff',
      '--no-show-signature',
      '--no-color',
      '-p',
    ]);
    expect(gitArgs(['diff', '--cached'])).toEqual(expect.arrayContaining(['--no-textconv', '--no-ext-diff']));
    expect(gitArgs(['rev-parse', '--git-path', 'hooks'], { keepHooksPath: true })).not.toContain(
      'core.hooksPath=/dev/null',
    );
  });

  it('hands git an allow-list of the environment: no key, token or secret, no GIT_DIR', () => {
    const env = gitEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'de_DE.UTF-8',
      LC_CTYPE: 'C',
      TMPDIR: '/tmp',
      OPENROUTER_API_KEY: 'a',
      OPENAI_API_KEY: 'b',
      GITHUB_TOKEN: 'c',
      AWS_SECRET_ACCESS_KEY: 'd',
      DB_PASSWORD: 'e',
      NPM_CONFIG_AUTH: 'f',
      GIT_DIR: '/elsewhere',
      GIT_WORK_TREE: '/elsewhere',
      GIT_EXTERNAL_DIFF: '/bin/evil',
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/bin/evil'",
      GIT_INDEX_FILE: '/i',
      LC_SECRET_TOKEN: 'g',
    });
    expect(Object.keys(env).sort()).toEqual([
      'GIT_ALLOW_PROTOCOL',
      'GIT_ASKPASS',
      'GIT_CONFIG_NOSYSTEM',
      'GIT_NO_LAZY_FETCH',
      'GIT_NO_REPLACE_OBJECTS',
      'GIT_OPTIONAL_LOCKS',
      'GIT_PAGER',
      'GIT_TERMINAL_PROMPT',
      'HOME',
      'LANG',
      'LC_ALL',
      'LC_CTYPE',
      'PAGER',
      'PATH',
      'SSH_ASKPASS',
      'TMPDIR',
    ]);
    expect(env).toMatchObject({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_PAGER: 'cat',
      GIT_NO_LAZY_FETCH: '1',
      GIT_ALLOW_PROTOCOL: '',
    });
    expect(gitEnv({ GIT_INDEX_FILE: '/i' }, { inheritIndexFile: true }).GIT_INDEX_FILE).toBe('/i');
  });

  it('lets a history log fill its buffer before writing (fewer, larger pieces), and nothing else', () => {
    expect(gitEnv({}, { buffered: true }).GIT_FLUSH).toBe('0');
    expect(gitEnv({ GIT_FLUSH: '1' }).GIT_FLUSH).toBeUndefined();
  });

  it('a real git child sees no API key', async () => {
    const repo = makeRepo();
    const dump = join(tempDir(), 'env');
    repo.git('config', 'alias.envdump', `!env > '${dump}'`);
    const saved = { ...process.env };
    Object.assign(process.env, {
      OPENROUTER_API_KEY: routerKey(),
      OPENAI_API_KEY: directKey('proj'),
      SOME_TOKEN: 'tok',
    });
    try {
      expect((await runGit(['envdump'], repo.dir)).code).toBe(0);
    } finally {
      for (const name of ['OPENROUTER_API_KEY', 'OPENAI_API_KEY', 'SOME_TOKEN']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
    const seen = readFileSync(dump, 'utf8');
    expect(seen).toMatch(/^PATH=/m);
    expect(seen).not.toMatch(/API_KEY|SOME_TOKEN|sk-/);
    repo.remove();
  });
});

describe('every git entry point in a hostile repository', () => {
  let repo: HostileRepo;
  const saved = { ...process.env };
  beforeAll(() => {
    repo = makeHostileRepo(
      { 'a.env': `KEY=${routerKey()}\n`, 'src/b.ts': 'export {};\n' },
      { 'c.env': `KEY=${directKey('proj')}\n` },
    );
    process.env.OPENROUTER_API_KEY = routerKey();
    process.env.OPENAI_API_KEY = directKey('proj');
  });
  afterEach(() => expect(repo.ran()).toBe(''));
  afterAll(() => {
    for (const name of ['OPENROUTER_API_KEY', 'OPENAI_API_KEY']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    repo.remove();
  });

  it('the git status used for diagnostics: tracked, untracked, ignored', async () => {
    repo.write('.gitignore', 'local.env\n*.secret\n');
    const git = new GitStatusCache();
    expect(await git.root(join(repo.dir, 'src'))).toBeTruthy();
    expect(await git.status(join(repo.dir, 'a.env'))).toBe('tracked');
    expect(await git.status(join(repo.dir, 'new.env'))).toBe('untracked');
    expect(await git.status(join(repo.dir, 'local.env'))).toBe('ignored');
    expect(await git.status(join(repo.dir, 'src', 'x.secret'))).toBe('ignored');
    // A name with pattern characters is that name, not a glob that matches a.env.
    expect(await git.status(join(repo.dir, '*.env'))).toBe('untracked');
  });

  it('many open files graded with two git calls, the same answers as one by one, nothing kept across a change', async () => {
    repo.write('.gitignore', 'local.env\n*.secret\n');
    const names = ['a.env', 'new.env', 'local.env', 'src/x.secret', '*.env', 'src/b.ts'];
    const files = names.map((name) => join(repo.dir, ...name.split('/')));
    const calls: string[][] = [];
    const counting = new GitStatusCache((args, cwd, input) => {
      calls.push(args);
      return runGit(args, cwd, input === undefined ? {} : { input });
    });
    // Each folder's repository is asked once, and kept (as one by one).
    await counting.root(repo.dir);
    await counting.root(join(repo.dir, 'src'));
    calls.length = 0;
    await prefetchStates(counting, files);
    expect(calls.map((args) => args[0])).toEqual(['ls-files', 'check-ignore']);
    const states = await Promise.all(files.map((file) => counting.status(file)));
    expect(calls).toHaveLength(2);
    const oneByOne = new GitStatusCache();
    expect(states).toEqual(await Promise.all(files.map((file) => oneByOne.status(file))));
    expect(states).toEqual(['tracked', 'untracked', 'ignored', 'ignored', 'untracked', 'tracked']);
    // Invalidated while git was asked: the answers are not kept, and status() asks again.
    const asked = prefetchStates(counting, [files[1]!]);
    counting.invalidate();
    await asked;
    calls.length = 0;
    await counting.status(files[1]!);
    expect(calls.length).toBeGreaterThan(0);
  });

  it('listing, staged blobs, history and the commit count', async () => {
    expect((await listTargets([repo.dir], { useGit: true, git: new GitStatusCache() })).files.length).toBeGreaterThan(
      2,
    );
    expect((await scanStaged(repo.dir)).findings.map((f) => f.path)).toEqual(['c.env']);
    expect((await scanHistory(repo.dir)).findings.map((f) => f.path)).toEqual(['a.env']);
    expect(await countCommits(repo.dir)).toBe(2);
  });
});

describe('staged blobs that are archives', () => {
  it('are handed back to be opened, or named when past the size given, never scanned as text', async () => {
    const repo = makeRepo();
    const zip = zipSync({ 'a.env': strToU8(`KEY=${routerKey()}\n`) });
    repo.write('small.zip', Buffer.from(zip));
    repo.write('plain.txt', `KEY=${routerKey()}\n`);
    repo.git('add', '.');
    const oid = (path: string) => repo.git('rev-parse', `:${path}`).trim();
    const blobs = ['small.zip', 'plain.txt'].map((path) => ({ path, oid: oid(path) }));
    const opened = await scanBlobs(repo.dir, blobs, {}, 'the staged blobs', {}, 1 << 20);
    expect(opened.archives.map((a) => [a.blob.path, a.kind, a.bytes.length])).toEqual([
      ['small.zip', 'zip', zip.length],
    ]);
    expect(opened.findings.map((f) => f.blob.path)).toEqual(['plain.txt']);
    const capped = await scanBlobs(repo.dir, blobs, {}, 'the staged blobs', {}, zip.length - 1);
    expect(capped.archives).toEqual([]);
    expect(capped.tooLarge.map((t) => [t.blob.path, t.size])).toEqual([['small.zip', zip.length]]);
    expect(capped.findings.map((f) => f.blob.path)).toEqual(['plain.txt']);
    repo.remove();
  });
});

describe('every git entry point in a partial clone', () => {
  it('fetches nothing: the upload-pack the clone names never runs, whatever reads a blob it lacks', async () => {
    const clone = makePartialClone({ 'old.env': `KEY=${routerKey()}\n` });
    const missing = (await runGit(['rev-list', '--all', '--objects', '--missing=print'], clone.dir)).stdout
      .split('\n')
      .find((line) => line.startsWith('?'))!
      .slice(1);
    const read = await runGit(['cat-file', '-p', missing], clone.dir);
    expect(read.code).not.toBe(0);
    expect(read.stderr).toMatch(/lazy fetching disabled|could not fetch|not allowed/);
    expect((await listTargets([clone.dir], { useGit: true, git: new GitStatusCache() })).files.length).toBe(1);
    expect((await scanStaged(clone.dir)).findings).toEqual([]);
    expect(await countCommits(clone.dir)).toBe(2);
    const history = await scanHistory(clone.dir);
    expect(history.skipped.map((s) => [s.path, s.reason])).toEqual(
      expect.arrayContaining([['old.env', 'not-fetched']]),
    );
    expect(clone.ran()).toBe('');
    // Armed: plain git fetches it through that program.
    plainGit(clone.dir, ['cat-file', '-p', missing]);
    expect(clone.ran()).toMatch(/^ran: /);
  });
});

describe('git status through symlinked paths', () => {
  it('grades a tracked file opened through a symlinked folder or a symlink to the repository as tracked', async () => {
    const repo = makeRepo();
    repo.write('config/app.env', `KEY=${routerKey()}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'one');
    const outside = tempDir();
    symlinkSync(repo.dir, join(outside, 'repo-link'));
    symlinkSync(join(repo.dir, 'config'), join(repo.dir, 'config-link'));
    const git = new GitStatusCache();
    expect(await git.status(join(outside, 'repo-link', 'config', 'app.env'))).toBe('tracked');
    expect(await git.status(join(repo.dir, 'config-link', 'app.env'))).toBe('tracked');
    expect(await git.status(join(outside, 'repo-link', 'config', 'new.env'))).toBe('untracked');
    expect(await git.root(join(outside, 'repo-link'))).toBe(await git.root(repo.dir));
    repo.remove();
  });
});
