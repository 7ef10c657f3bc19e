// A hostile repository: its config names a program for everything git could
// run. keyward scan, --staged, --history, --no-git and the git status the
// editor grades findings with must run none of them, and no git child may see
// an API key from the environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { type HostileRepo, json, makeHostileRepo, plainGit, scanCli } from './gitFixtures.ts';

let repo: HostileRepo;
const keys = { committed: routerKey(), staged: directKey('proj') };
const secrets = {
  OPENROUTER_API_KEY: routerKey(),
  OPENAI_API_KEY: directKey('proj'),
  GITHUB_TOKEN: 'ghp_notreal',
  AWS_SECRET_ACCESS_KEY: 'notreal',
};

beforeAll(() => {
  repo = makeHostileRepo(
    { 'config.env': `OPENROUTER_API_KEY=${keys.committed}\n` },
    { 'staged.env': `OPENAI_API_KEY=${keys.staged}\n` },
  );
});
afterAll(() => repo.remove());

describe('a hostile repository', () => {
  it('is armed: plain git runs its programs with the keys in their environment', () => {
    repo.reset();
    plainGit(repo.dir, ['log', '-p', '--all'], secrets);
    plainGit(repo.dir, ['status'], secrets);
    plainGit(repo.dir, ['diff', '--cached'], secrets);
    const ran = repo.ran();
    expect(ran).toMatch(/ran: /);
    expect(ran).toContain(secrets.OPENROUTER_API_KEY);
    expect(ran).toMatch(/--verify/);
  });

  it.each([
    [
      'keyward scan',
      [],
      [
        ['config.env', 'tracked', keys.committed],
        ['staged.env', 'tracked', keys.staged],
      ],
    ],
    ['keyward scan --staged', ['--staged'], [['staged.env', 'staged', keys.staged]]],
    ['keyward scan --history', ['--history'], [['config.env', 'history', keys.committed]]],
    [
      'keyward scan --no-git',
      ['--no-git'],
      [
        ['config.env', 'unknown', keys.committed],
        ['staged.env', 'unknown', keys.staged],
      ],
    ],
  ] as const)('%s runs nothing the repository names and still finds the keys', (_name, args, expected) => {
    repo.reset();
    const run = scanCli(repo.dir, ['--format', 'json', ...args], secrets);
    expect(repo.ran()).toBe('');
    expect(run.status).toBe(1);
    const found = json(run)
      .findings.map((f) => [f.path, f.git, f.fingerprint])
      .sort();
    expect(found).toEqual(expected.map(([path, git, key]) => [path, git, fingerprint(key)]).sort());
    for (const key of [...Object.values(keys), ...Object.values(secrets)])
      expect(run.stdout + run.stderr).not.toContain(key);
  });
});
