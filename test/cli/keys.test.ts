// keyward keys, the built CLI against the emulator: the management key and the admin key from the environment only,
// a new key written to a 0600 file and nowhere else, a leaked key found by itself and disabled, an ambiguous or
// unknown key refused, rotate in the safe order with a failure that names its step; no key in any output.
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { tempDir } from './gitFixtures.ts';
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
  manager = await make({ name: 'manager', management: true });
  dir = tempDir();
});

const make = async (extra: Record<string, unknown>) =>
  (await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, ...extra })).key;
const keys = (args: string[], env: Record<string, string> = {}) =>
  cli(['keys', ...args, '--service', 'router', '--base-url', bed.emulator.routerBaseUrl], {
    OPENROUTER_MANAGEMENT_KEY: manager,
    ...env,
  });
const answers = async (key: string) =>
  (
    await bed.router('/chat/completions', key, {
      body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    })
  ).status === 200;
const clean = (run: Run, ...secrets: string[]) => {
  for (const secret of [manager, ...secrets]) expect(run.stdout + run.stderr).not.toContain(secret);
};

describe('keyward keys (routing service)', () => {
  it('creates a limited key into a 0600 file, lists it, and never prints a key unless asked', async () => {
    const out = join(dir, 'key.txt');
    const made = await keys(['create', '--name', 'ci', '--limit', '4', '--reset', 'daily', '--out', out, '--json']);
    expect(made.code).toBe(0);
    const key = readFileSync(out, 'utf8').trim();
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(JSON.parse(made.stdout)).toMatchObject({
      ok: true,
      key: { name: 'ci', limit: 4, limitReset: 'daily' },
      out,
    });
    clean(made, key);
    expect(await answers(key)).toBe(true);
    const listed = await keys(['list', '--json']);
    expect(JSON.parse(listed.stdout).keys.map((k: { name: string; limitUsd: number }) => [k.name, k.limitUsd])).toEqual(
      [['ci', 4]],
    );
    clean(listed, key);
    // Nowhere to put the key: refused before any key is made.
    const nowhere = await keys(['create', '--name', 'x']);
    expect([nowhere.code, nowhere.stderr]).toEqual([2, expect.stringMatching(/say where the new key goes/)]);
    // Through a link: refused.
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'));
    expect((await keys(['create', '--out', join(dir, 'link')])).code).toBe(2);
  });

  it('disables a leaked key found from a variable, refuses an unknown one, and deletes only with --yes', async () => {
    const leaked = await make({ name: 'laptop' });
    const disabled = await keys(['disable', '--key-from-env', 'LEAKED', '--json'], { LEAKED: leaked });
    expect([disabled.code, JSON.parse(disabled.stdout).action]).toEqual([0, 'disabled']);
    expect(await answers(leaked)).toBe(false);
    clean(disabled, leaked);
    const stranger = (
      await bed.admin<{ key: string }>('POST', '/router/keys', {
        accountId: (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'other' })).id,
      })
    ).key;
    const unknown = await keys(['disable', '--key-from-env', 'K'], { K: stranger });
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/no key of the account matches/)]);
    const id = JSON.parse(disabled.stdout).key.id as string;
    expect((await keys(['enable', '--id', id])).code).toBe(0);
    const again = await keys(['enable', '--id', id]);
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/laptop is enabled already/)]);
    expect((await keys(['delete', '--id', id])).code).toBe(2);
    expect((await keys(['delete', '--id', id, '--yes'])).code).toBe(0);
    expect(JSON.parse((await keys(['list', '--json'])).stdout).keys).toEqual([]);
  });

  it('rotates: the successor written out, .env updated, the old key disabled; a failed step is named', async () => {
    const old = await make({ name: 'app', limit: 6, limitReset: 'weekly' });
    const out = join(dir, 'new.txt');
    const env = join(dir, '.env');
    writeFileSync(env, `KEY=${old}\n`);
    const run = await keys(['rotate', '--out', out, '--env-file', env, '--json'], { OPENROUTER_API_KEY: old });
    expect(run.code).toBe(0);
    const fresh = readFileSync(out, 'utf8').trim();
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, failedAt: null, envLines: 1, oldDeleted: false });
    expect(readFileSync(env, 'utf8')).toBe(`KEY=${fresh}\n`);
    expect([await answers(fresh), await answers(old)]).toEqual([true, false]);
    clean(run, old, fresh);
    // The management key cannot see a stranger's key: nothing made, exit 1, the step named.
    const failed = await keys(['rotate', '--out', join(dir, 'n2.txt'), '--json'], {
      OPENROUTER_API_KEY: (
        await bed.admin<{ key: string }>('POST', '/router/keys', {
          accountId: (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'o' })).id,
        })
      ).key,
    });
    expect([failed.code, JSON.parse(failed.stdout).failedAt]).toEqual([1, 'find']);
  });

  it('reads the management key from the environment only', async () => {
    const run = await cli(['keys', 'list', '--service', 'router', '--base-url', bed.emulator.routerBaseUrl], {});
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/OPENROUTER_MANAGEMENT_KEY is not set/)]);
  });
});

describe('keyward keys (direct service)', () => {
  it('lists the project keys an admin key sees, and deletes a leaked one found from a file, with --yes', async () => {
    const orgId = (await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'org' })).id;
    const newKey = async (kind: string, name: string) =>
      (await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId, kind, name })).key;
    const admin = await newKey('admin', 'ops');
    const leaked = await newKey('proj', 'ci');
    const direct = (args: string[]) =>
      cli(['keys', ...args, '--service', 'direct', '--base-url', bed.emulator.directBaseUrl], {
        OPENAI_ADMIN_KEY: admin,
      });
    const listed = await direct(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ci {2}sk-proj\S*\.{3}\S+ {2}id \S+\n/m);
    const file = join(dir, 'leaked.txt');
    writeFileSync(file, `${leaked}\n`);
    expect((await direct(['disable', '--key-file', file])).code).toBe(2);
    const deleted = await direct(['delete', '--key-file', file, '--yes']);
    expect([deleted.code, deleted.stdout]).toEqual([0, expect.stringMatching(/^deleted: ci sk-proj/)]);
    expect((await bed.direct('/responses', leaked, { body: { model: 'gpt-4o-mini', input: 'hi' } })).status).toBe(401);
    for (const run of [listed, deleted]) expect(run.stdout + run.stderr).not.toMatch(new RegExp(`${admin}|${leaked}`));
  });
});
