// The direct service's admin client over HTTP against the emulator's organization API.
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DirectAdminApi, monthStartUtc } from '../../../src/core/keys/directAdminApi.ts';
import { keysMatching } from '../../../src/core/keys/redactedMatch.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { directKey } from '../../emulator/keyFactory.ts';
import { FAST } from '../clientSupport.ts';

let bed: TestBed;
let orgId: string;
let projectId: string;
let adminKey: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', {});
  const org = await bed.admin<{ id: string; defaultProjectId: string }>('POST', '/direct/orgs', { name: 'org' });
  [orgId, projectId] = [org.id, org.defaultProjectId];
  await bed.admin('POST', `/direct/orgs/${orgId}/purchase`, { amount: 50 });
  adminKey = (await newKey({ kind: 'admin' })).key;
});

const newKey = (extra: Record<string, unknown> = {}) =>
  bed.admin<{ id: string; key: string }>('POST', '/direct/keys', { orgId, ...extra });

const client = (key = adminKey) =>
  new DirectAdminApi({
    baseUrl: bed.emulator.directBaseUrl,
    adminKey: key,
    ...FAST,
    now: () => bed.emulator.clock.now(),
  });

const ask = (key: string) => bed.direct('/responses', key, { body: { model: 'gpt-4o-mini', input: 'hi' } });

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('DirectAdminApi: lists', () => {
  it('lists every project over all pages, archived ones only when asked', async () => {
    const made: string[] = [];
    for (let i = 0; i < 104; i++)
      made.push((await bed.admin<{ id: string }>('POST', `/direct/orgs/${orgId}/projects`, { name: `p${i}` })).id);
    await bed.admin('PATCH', `/direct/orgs/${orgId}/projects/${made[0]}`, { archived: true });
    const projects = await client().listProjects();
    expect(projects.map((p) => p.id)).toEqual([projectId, ...made.slice(1)]);
    expect(projects[0]).toEqual({ id: projectId, name: 'Default', createdAtMs: expect.any(Number), archived: false });
    const all = await client().listProjects({ includeArchived: true });
    expect(all).toHaveLength(105);
    expect(all.find((p) => p.id === made[0])?.archived).toBe(true);
  });

  it("lists a project's keys over all pages with owner, last use and redacted value, and finds a key by it", async () => {
    const keys = [];
    for (let i = 0; i < 101; i++) keys.push(await newKey({ name: `key ${i}` }));
    const service = await newKey({ kind: 'svcacct', name: 'ci' });
    await bed.emulator.clock.set(Date.parse('2026-11-20T08:00:00Z'));
    expect((await ask(keys[3]!.key)).status).toBe(200);
    const listed = await client().listProjectKeys(projectId);
    expect(listed.map((k) => k.id)).toEqual([...keys.map((k) => k.id), service.id]);
    const owner = bed.emulator.direct.org(orgId).owner;
    expect(listed[3]).toEqual({
      id: keys[3]!.id,
      name: 'key 3',
      redactedValue: expect.stringMatching(/^sk-proj\.\.\..{3}$/),
      createdAtMs: expect.any(Number),
      lastUsedAtMs: Date.parse('2026-11-20T08:00:00Z'),
      owner: { type: 'user', id: owner.id, name: owner.name, email: owner.email },
    });
    expect(listed.at(-1)!.owner).toEqual({
      type: 'service_account',
      id: expect.stringMatching(/^svc_acct_/),
      name: 'ci',
    });
    for (const k of [keys[0]!, keys[100]!, service]) {
      const found = keysMatching(k.key, listed);
      // Three characters of tail may collide among 102 keys: the right one is always among the matches.
      expect(found.map((f) => f.id)).toContain(k.id);
    }
    const first = keys[0]!.key;
    const altered = first.slice(0, -1) + (first.endsWith('A') ? 'B' : 'A');
    expect(keysMatching(altered, listed.slice(0, 1))).toEqual([]);
    expect(keysMatching(first, listed.slice(0, 1))).toEqual([listed[0]]);
  });

  it('keeps what the network says only after the redactor: a name that is a key is masked', async () => {
    const pasted = directKey('proj');
    await newKey({ name: `oops ${pasted}` });
    const [row] = await client().listProjectKeys(projectId);
    expect(row!.name).not.toContain(pasted);
    expect(row!.name).toMatch(/^oops sk-proj-…/);
  });
});

describe('DirectAdminApi: changes', () => {
  it('deletes a key, which the service refuses from then on', async () => {
    const leaked = await newKey();
    await client().deleteProjectKey(projectId, leaked.id);
    expect((await ask(leaked.key)).status).toBe(401);
    expect((await client().listProjectKeys(projectId)).map((k) => k.id)).toEqual([]);
    const again = await failure(client().deleteProjectKey(projectId, leaked.id));
    expect([again.kind, again.status]).toEqual(['bad_request', 404]);
  });

  it("does not delete a service account's key: the service's 400, kept as a bad request", async () => {
    const service = await newKey({ kind: 'svcacct' });
    const error = await failure(client().deleteProjectKey(projectId, service.id));
    expect([error.kind, error.status]).toEqual(['bad_request', 400]);
    expect((await ask(service.key)).status).toBe(200);
  });

  it('creates a service account whose key works, and which never prints', async () => {
    const created = await client().createServiceAccount(projectId, 'Keyward');
    expect(created).toMatchObject({ id: expect.stringMatching(/^svc_acct_/), name: 'Keyward', projectId });
    const value = created.key!.value.reveal();
    expect(value).toMatch(/^sk-svcacct-/);
    expect((await ask(value)).status).toBe(200);
    for (const shown of [JSON.stringify(created), inspect(created, { depth: 5 }), `${created.key!.value}`])
      expect(shown).not.toContain(value);
    expect(JSON.stringify(created)).toContain('sk-svcacct-…');
  });
});

describe('DirectAdminApi: costs this month', () => {
  it('sums the daily buckets from 00:00 UTC on the 1st, last month left out', async () => {
    await bed.emulator.clock.set(Date.parse('2026-10-31T22:00:00Z'));
    await bed.admin('POST', `/direct/orgs/${orgId}/spend`, { amount: 7 });
    await bed.emulator.clock.set(Date.parse('2026-11-01T00:00:00Z'));
    await bed.admin('POST', `/direct/orgs/${orgId}/spend`, { amount: 1.5 });
    await bed.emulator.clock.set(Date.parse('2026-11-17T15:00:00Z'));
    const user = await newKey();
    expect((await ask(user.key)).status).toBe(200);
    await bed.admin('POST', `/direct/orgs/${orgId}/spend`, { amount: 0.25 });
    const costs = await client().costsThisMonth();
    const org = bed.emulator.direct.org(orgId);
    expect(costs.fromMs).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(costs.currency).toBe('usd');
    expect(costs.total).toBeCloseTo(bed.emulator.direct.monthSpend(org), 10);
    expect(costs.total).toBeGreaterThan(1.75);
    expect(costs.days).toHaveLength(17);
    expect(costs.days[0]).toEqual({ startMs: Date.parse('2026-11-01T00:00:00Z'), amount: 1.5 });
    expect(monthStartUtc(Date.parse('2026-12-31T23:59:59Z'))).toBe(Date.parse('2026-12-01T00:00:00Z'));
  });
});

describe('DirectAdminApi: errors, in the error language and without the key', () => {
  it('refuses, before sending anything, a key that is not an admin key', async () => {
    const project = (await newKey()).key;
    bed.emulator.requests.length = 0;
    const error = await failure(client(project).listProjects());
    expect([error.kind, error.code]).toEqual(['auth', 'not_admin_key']);
    expect(bed.emulator.requests).toEqual([]);
    expect(`${error.message} ${error.action}`).not.toContain(project);
  });

  it('an admin key the service does not know: auth, with advice about admin keys', async () => {
    const unknown = directKey('admin');
    const error = await failure(client(unknown).listProjects());
    expect([error.kind, error.status, error.code]).toEqual(['auth', 401, 'invalid_api_key']);
    expect(error.action).toMatch(/Admin keys page/);
  });

  it('a Read Only admin key deleting: permission, naming the scope', async () => {
    const reader = (await newKey({ kind: 'admin', permissions: 'Read Only' })).key;
    const target = await newKey();
    const error = await failure(client(reader).deleteProjectKey(projectId, target.id));
    expect([error.kind, error.code]).toEqual(['permission', 'api.management.write']);
  });

  it("the spec's 429 on costs: rate_limit with the wait it gave; a 500: server; a redirect is not followed", async () => {
    await bed.admin('POST', '/faults', { kind: 'rate_limit', path: '/organization/costs', retryAfter: 3 });
    const limited = await failure(client().costsThisMonth());
    expect([limited.kind, limited.retryAfterSeconds]).toEqual(['rate_limit', 3]);
    await bed.admin('POST', '/faults', { kind: 'http500', path: '/organization/projects' });
    expect((await failure(client().listProjects())).kind).toBe('server');
    await bed.admin('POST', '/faults', { kind: 'redirect', path: '/organization/projects' });
    expect((await failure(client().listProjects())).kind).toBe('redirected');
  });

  it('never carries the admin key in an error, whatever field the server echoes it in', async () => {
    for (const field of ['message', 'code', 'title'] as const) {
      await bed.admin('POST', '/faults', { kind: 'echo_key', field, path: '/organization/projects' });
      const error = await failure(client().listProjects());
      const shown = [error.message, String(error.code), error.action, JSON.stringify(error.toData()), inspect(error)];
      for (const text of shown) expect(text).not.toContain(adminKey);
    }
  });

  it('keeps the admin key out of the client itself: inspect and JSON show nothing of it', () => {
    const api = client();
    expect(inspect(api, { depth: 5, showHidden: true })).not.toContain(adminKey);
    expect(JSON.stringify(api)).not.toContain(adminKey);
  });
});
