// `keyward status` says what a key check could and could not see, never counts
// past the free allowance, and explains a negative balance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';
import { cli } from './cliSupport.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', { sandbox: true }));

const router = () => ['status', '--service', 'router', '--base-url', bed.emulator.routerBaseUrl];
const direct = () => ['status', '--service', 'direct', '--base-url', bed.emulator.directBaseUrl];

describe('keyward status', () => {
  it('direct: listing models is said not to prove the key may create responses', async () => {
    const { key } = await bed.admin<{ key: string }>('POST', '/direct/keys', {
      orgId: bed.emulator.sandbox!.directOrgId,
      permissions: 'Restricted',
      scopes: ['api.model.read'],
    });
    const text = await cli(direct(), { OPENAI_API_KEY: key });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/may list models/);
    expect(text.stdout).toMatch(
      /responses {2}not checked: only a prompt shows whether the key may create responses \(api\.responses\.write\)/,
    );
    const json = await cli([...direct(), '--json'], { OPENAI_API_KEY: key });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, canListModels: true, canCreateResponses: null });
  });

  it('router: the free count shown stops at the limit', async () => {
    const { routerFundedAccountId, keys } = bed.emulator.sandbox!;
    await bed.admin('POST', `/router/accounts/${routerFundedAccountId}/free-requests`, { used: 1001 });
    const run = await cli(router(), { OPENROUTER_API_KEY: keys.routerFunded });
    expect(run.stdout).toMatch(/free today 1000\/1000/);
    expect(run.stdout).not.toMatch(/1001/);
  });

  it('router: a negative balance is named with what to add', async () => {
    const { routerFundedAccountId } = bed.emulator.sandbox!;
    const { key } = await bed.admin<{ key: string }>('POST', '/router/keys', {
      accountId: routerFundedAccountId,
      name: 'mgmt',
      management: true,
      limit: 10,
    });
    await bed.admin('POST', `/router/accounts/${routerFundedAccountId}/spend`, { amount: 25 });
    const run = await cli(router(), { OPENROUTER_API_KEY: key });
    expect(run.stdout).toMatch(/balance {4}\$-5\.00/);
    expect(run.stdout).toMatch(
      /the balance is below zero: every call fails, free models included, until at least \$5\.00 of credits are added/,
    );
  });

  it('router: the key is masked as everywhere else (prefix, ellipsis, last four), not as the service labels it', async () => {
    const key = bed.emulator.sandbox!.keys.routerFunded;
    const run = await cli(router(), { OPENROUTER_API_KEY: key });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^key {8}sk-or-v1-…${key.slice(-4)}$`, 'm'));
    expect(run.stdout).not.toContain('...');
    const json = await cli([...router(), '--json'], { OPENROUTER_API_KEY: key });
    expect(JSON.parse(json.stdout)).toMatchObject({ key: { masked: `sk-or-v1-…${key.slice(-4)}` } });
  });
});
