// keyward scan --fix-disable, the built CLI against the emulator: a key found in a file is disabled at its account
// with the management key from the environment, another account's key is named and left alone, a key the ignore
// file accepts is not touched, and no key reaches any output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { makeRepo } from './gitFixtures.ts';
import { type Run, cli } from './cliSupport.ts';

let bed: TestBed;
let accountId: string;
let manager: string;
let dir: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', {});
  accountId = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'acct' })).id;
  await bed.admin('POST', `/router/accounts/${accountId}/purchase`, { amount: 20 });
  manager = (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, name: 'm', management: true })).key;
  // A repository, so the scan reads its ignore file; the files stay untracked (would be committed).
  dir = makeRepo().dir;
});

const make = async (account: string, name: string) =>
  (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId: account, name })).key;
const answers = async (key: string) =>
  (
    await bed.router('/chat/completions', key, {
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    })
  ).status === 200;
const scan = (args: string[], env: Record<string, string> = { OPENROUTER_MANAGEMENT_KEY: manager }) =>
  cli(
    ['scan', '--fix-disable', ...args],
    { OPENROUTER_BASE_URL: bed.emulator.routerBaseUrl, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', ...env },
    undefined,
    dir,
  );
const clean = (run: Run, ...secrets: string[]) => {
  for (const secret of [manager, ...secrets]) expect(run.stdout + run.stderr).not.toContain(secret);
};

describe('keyward scan --fix-disable', () => {
  it("disables the account's key found in a file, names another account's, and still counts both", async () => {
    const leaked = await make(accountId, 'laptop');
    const other = (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'o' })).id;
    await bed.admin('POST', `/router/accounts/${other}/purchase`, { amount: 5 });
    const stranger = await make(other, 's');
    writeFileSync(join(dir, 'config.js'), `const key = "${leaked}";\n`);
    writeFileSync(join(dir, 'other.py'), `KEY = "${stranger}"\n`);
    const run = await scan(['--format', 'json']);
    expect(run.code).toBe(1);
    const stops = Object.fromEntries(
      (JSON.parse(run.stdout).findings as { path: string; stopped: { status: string; key?: { name: string } } }[]).map(
        (f) => [f.path.split(/[\\/]/).pop(), f.stopped],
      ),
    );
    expect(stops['config.js']).toMatchObject({ status: 'disabled', key: { name: 'laptop' } });
    expect(stops['other.py']).toMatchObject({ status: 'not_found' });
    expect([await answers(leaked), await answers(stranger)]).toEqual([false, true]);
    clean(run, leaked, stranger);
    // Again, as text: the key is disabled already, said on its line; the summary line names what was not done.
    const text = await scan([]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/config\.js.*laptop sk-or-v1-\S+ disabled already/);
    expect(text.stdout).toMatch(/other\.py.*not disabled: no key the management key manages is this one/);
    expect(text.stderr).toMatch(/--fix-disable: 1 of 2 keys disabled; 1 not \(each says why\)/);
    clean(text, leaked, stranger);
  });

  it('leaves a key the ignore file accepts alone', async () => {
    const accepted = await make(accountId, 'docs');
    writeFileSync(join(dir, 'README.md'), `Example: ${accepted}\n`);
    writeFileSync(join(dir, '.keywardignore'), '/README.md # the docs example, revoked by hand\n');
    const run = await scan(['--format', 'json']);
    const report = JSON.parse(run.stdout);
    expect([report.findings.length, report.suppressed.length, report.suppressed[0].stopped]).toEqual([0, 1, undefined]);
    expect(await answers(accepted)).toBe(true);
    clean(run, accepted);
  });

  it('refuses to start without a management key, before anything is scanned', async () => {
    const run = await scan([], {});
    expect([run.code, run.stderr]).toEqual([
      2,
      expect.stringMatching(/--fix-disable needs OPENROUTER_MANAGEMENT_KEY or OPENAI_ADMIN_KEY in the environment/),
    ]);
  });
});
