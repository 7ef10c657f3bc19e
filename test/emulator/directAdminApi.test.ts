// The direct service's organization API over HTTP, as specs/openai-openapi.yaml has it:
// /organization/projects, .../api_keys (list, retrieve, delete), .../service_accounts, and who may call what.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', {}));

async function org() {
  const created = await bed.admin<{ id: string; defaultProjectId: string }>('POST', '/direct/orgs', { name: 'org' });
  await bed.admin('POST', `/direct/orgs/${created.id}/purchase`, { amount: 10 });
  return created;
}

const key = (orgId: string, extra: Record<string, unknown> = {}) =>
  bed.admin<{ id: string; key: string }>('POST', '/direct/keys', { orgId, ...extra });

async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

type ErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

describe('who may call what', () => {
  it('an admin key calls no model: "Missing scopes" as the live service answers, nothing spent', async () => {
    const { id } = await org();
    const admin = await key(id, { kind: 'admin' });
    const models = await bed.direct('/models', admin.key);
    expect(models.status).toBe(401);
    expect(await json<ErrorBody>(models)).toEqual({
      error: {
        message: expect.stringMatching(
          /^You have insufficient permissions for this operation\. Missing scopes: api\.model\.read\. /,
        ),
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    const respond = await bed.direct('/responses', admin.key, { body: { model: 'gpt-4o-mini', input: 'hi' } });
    expect(respond.status).toBe(401);
    expect((await json<ErrorBody>(respond)).error.message).toContain('Missing scopes: api.responses.write.');
    expect(bed.emulator.direct.monthSpend(bed.emulator.direct.org(id))).toBe(0);
    await bed.admin('POST', '/config', { missingScopesStatus: 403 });
    expect((await bed.direct('/models', admin.key)).status).toBe(403);
  });

  it('a project or service-account key is refused on /organization/* with the scope it lacks', async () => {
    const { id } = await org();
    for (const kind of ['proj', 'svcacct'] as const) {
      const { key: k } = await key(id, { kind });
      const projects = await bed.direct('/organization/projects', k);
      expect(projects.status).toBe(401);
      expect(await json<ErrorBody>(projects)).toEqual({
        error: {
          message:
            "You have insufficient permissions for this operation. Missing scopes: api.management.read. Check that you have the correct role in your organization, and if you're using a restricted API key, that it has the necessary scopes.",
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
      const costs = await bed.direct('/organization/costs?start_time=0', k);
      expect((await json<ErrorBody>(costs)).error.message).toContain('Missing scopes: api.usage.read.');
    }
  });

  it('an unknown, missing or revoked admin key gets the 401 of any key; a Read Only admin key cannot delete', async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    expect((await json<ErrorBody>(await bed.direct('/organization/projects', undefined))).error.message).toMatch(
      /^You didn't provide an API key/,
    );
    await bed.admin('DELETE', `/direct/keys/${admin.id}`);
    const revoked = await bed.direct('/organization/projects', admin.key);
    expect(revoked.status).toBe(401);
    expect((await json<ErrorBody>(revoked)).error.code).toBe('invalid_api_key');
    const reader = await key(id, { kind: 'admin', permissions: 'Read Only' });
    const user = await key(id);
    expect((await bed.direct('/organization/projects', reader.key)).status).toBe(200);
    const refused = await bed.direct(`/organization/projects/${defaultProjectId}/api_keys/${user.id}`, reader.key, {
      method: 'DELETE',
    });
    expect((await json<ErrorBody>(refused)).error.message).toContain('Missing scopes: api.management.write.');
    expect((await bed.direct('/responses', user.key, { body: { model: 'gpt-4o-mini', input: 'hi' } })).status).toBe(
      200,
    );
  });
});

describe('projects', () => {
  it('lists and retrieves projects with the fields of Project, a page at a time', async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    const second = await bed.admin<{ id: string }>('POST', `/direct/orgs/${id}/projects`, { name: 'Second' });
    const third = await bed.admin<{ id: string }>('POST', `/direct/orgs/${id}/projects`, { name: 'Third' });
    await bed.admin('PATCH', `/direct/orgs/${id}/projects/${third.id}`, { archived: true });
    const page = await json(await bed.direct('/organization/projects?limit=1', admin.key));
    expect(page).toEqual({
      object: 'list',
      data: [
        {
          id: defaultProjectId,
          object: 'organization.project',
          name: 'Default',
          created_at: expect.any(Number),
          archived_at: null,
          status: 'active',
        },
      ],
      first_id: defaultProjectId,
      last_id: defaultProjectId,
      has_more: true,
    });
    const rest = await json<{ data: { id: string }[]; has_more: boolean }>(
      await bed.direct(`/organization/projects?after=${defaultProjectId}`, admin.key),
    );
    expect(rest.data.map((p) => p.id)).toEqual([second.id]);
    expect(rest.has_more).toBe(false);
    const all = await json<{ data: { id: string; status: string; archived_at: number | null }[] }>(
      await bed.direct('/organization/projects?include_archived=true', admin.key),
    );
    expect(all.data.map((p) => [p.id, p.status])).toEqual([
      [defaultProjectId, 'active'],
      [second.id, 'active'],
      [third.id, 'archived'],
    ]);
    expect(all.data[2]!.archived_at).toEqual(expect.any(Number));
    const one = await json(await bed.direct(`/organization/projects/${second.id}`, admin.key));
    expect(one).toMatchObject({ id: second.id, object: 'organization.project', name: 'Second' });
    expect((await bed.direct('/organization/projects/proj_nope', admin.key)).status).toBe(404);
    const tooMany = await bed.direct('/organization/projects?limit=101', admin.key);
    expect(tooMany.status).toBe(400);
    expect((await json<ErrorBody>(tooMany)).error.param).toBe('limit');
  });

  it("does not show another organisation's projects", async () => {
    const mine = await org();
    const theirs = await org();
    const admin = await key(mine.id, { kind: 'admin' });
    const listed = await json<{ data: { id: string }[] }>(await bed.direct('/organization/projects', admin.key));
    expect(listed.data.map((p) => p.id)).toEqual([mine.defaultProjectId]);
    expect((await bed.direct(`/organization/projects/${theirs.defaultProjectId}`, admin.key)).status).toBe(404);
    const keys = `/organization/projects/${theirs.defaultProjectId}/api_keys`;
    expect((await bed.direct(keys, admin.key)).status).toBe(404);
  });
});

type ProjectKey = {
  object: string;
  redacted_value: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
  id: string;
  owner_project_access: string;
  owner: Record<string, unknown>;
};

describe("a project's API keys", () => {
  it('lists every live key of the project with exactly the fields of ProjectApiKey, admin keys not among them', async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    const user = await key(id, { name: 'laptop' });
    const service = await key(id, { kind: 'svcacct', name: 'ci' });
    const other = await bed.admin<{ id: string }>('POST', `/direct/orgs/${id}/projects`, { name: 'Other' });
    await key(id, { projectId: other.id });
    const gone = await key(id);
    await bed.admin('DELETE', `/direct/keys/${gone.id}`);
    const list = await json<{ data: ProjectKey[]; first_id: string; last_id: string; has_more: boolean }>(
      await bed.direct(`/organization/projects/${defaultProjectId}/api_keys`, admin.key),
    );
    expect(list.data.map((k) => k.id)).toEqual([user.id, service.id]);
    expect(list).toMatchObject({ object: 'list', first_id: user.id, last_id: service.id, has_more: false });
    const owner = bed.emulator.direct.org(id).owner;
    expect(list.data[0]).toEqual({
      object: 'organization.project.api_key',
      redacted_value: `${user.key.slice(0, 7)}...${user.key.slice(-3)}`,
      name: 'laptop',
      created_at: expect.any(Number),
      last_used_at: null,
      id: user.id,
      owner_project_access: 'active',
      owner: {
        type: 'user',
        user: { id: owner.id, name: owner.name, email: owner.email, created_at: expect.any(Number), role: 'owner' },
      },
    });
    expect(list.data[1]!.redacted_value).toBe(`${service.key.slice(0, 10)}...${service.key.slice(-3)}`);
    expect(list.data[1]!.owner).toEqual({
      type: 'service_account',
      service_account: {
        id: expect.stringMatching(/^svc_acct_/),
        name: 'ci',
        created_at: expect.any(Number),
        role: 'member',
      },
    });
    expect(JSON.stringify(list)).not.toContain(user.key);
  });

  it('pages with limit and after, and says when it was last used', async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    const keys = [await key(id), await key(id), await key(id)];
    await bed.emulator.clock.set(Date.parse('2026-11-20T10:00:00Z'));
    expect((await bed.direct('/responses', keys[1]!.key, { body: { model: 'gpt-4o-mini', input: 'hi' } })).status).toBe(
      200,
    );
    const path = `/organization/projects/${defaultProjectId}/api_keys`;
    const first = await json<{ data: ProjectKey[]; has_more: boolean; last_id: string }>(
      await bed.direct(`${path}?limit=2`, admin.key),
    );
    expect(first.data.map((k) => k.id)).toEqual([keys[0]!.id, keys[1]!.id]);
    expect(first.has_more).toBe(true);
    expect(first.data[1]!.last_used_at).toBe(Date.parse('2026-11-20T10:00:00Z') / 1000);
    const second = await json<{ data: ProjectKey[]; has_more: boolean }>(
      await bed.direct(`${path}?limit=2&after=${first.last_id}`, admin.key),
    );
    expect(second.data.map((k) => k.id)).toEqual([keys[2]!.id]);
    expect(second.has_more).toBe(false);
    const one = await json<ProjectKey>(await bed.direct(`${path}/${keys[2]!.id}`, admin.key));
    expect(one).toMatchObject({ object: 'organization.project.api_key', id: keys[2]!.id, last_used_at: null });
    expect((await bed.direct(`${path}/${admin.id}`, admin.key)).status).toBe(404);
    expect((await bed.direct(`/organization/projects/proj_nope/api_keys`, admin.key)).status).toBe(404);
  });

  it('deletes a key, which stops working at once; deleting it again is a 404', async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    const leaked = await key(id);
    const path = `/organization/projects/${defaultProjectId}/api_keys/${leaked.id}`;
    const deleted = await bed.direct(path, admin.key, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({
      object: 'organization.project.api_key.deleted',
      id: leaked.id,
      deleted: true,
    });
    const used = await bed.direct('/responses', leaked.key, { body: { model: 'gpt-4o-mini', input: 'hi' } });
    expect(used.status).toBe(401);
    expect((await json<ErrorBody>(used)).error.code).toBe('invalid_api_key');
    expect((await bed.direct(path, admin.key, { method: 'DELETE' })).status).toBe(404);
    expect((await bed.direct(path, admin.key)).status).toBe(404);
  });

  it("refuses to delete a service account's key with 400, as the spec's delete summary says", async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    const service = await key(id, { kind: 'svcacct' });
    const refused = await bed.direct(`/organization/projects/${defaultProjectId}/api_keys/${service.id}`, admin.key, {
      method: 'DELETE',
    });
    expect(refused.status).toBe(400);
    expect((await json<ErrorBody>(refused)).error).toMatchObject({ type: 'invalid_request_error' });
    expect((await bed.direct('/responses', service.key, { body: { model: 'gpt-4o-mini', input: 'hi' } })).status).toBe(
      200,
    );
  });
});

describe("a project's service accounts", () => {
  it('creating one returns its API key once; the key works and the list never shows it', async () => {
    const { id, defaultProjectId } = await org();
    const admin = await key(id, { kind: 'admin' });
    const path = `/organization/projects/${defaultProjectId}/service_accounts`;
    const created = await json<{
      object: string;
      id: string;
      name: string;
      role: string;
      created_at: number;
      api_key: { object: string; value: string; name: string; created_at: number; id: string };
    }>(await bed.direct(path, admin.key, { body: { name: 'Keyward' } }));
    expect(created).toEqual({
      object: 'organization.project.service_account',
      id: expect.stringMatching(/^svc_acct_/),
      name: 'Keyward',
      role: 'member',
      created_at: expect.any(Number),
      api_key: {
        object: 'organization.project.service_account.api_key',
        value: expect.stringMatching(/^sk-svcacct-/),
        name: 'Secret Key',
        created_at: expect.any(Number),
        id: expect.stringMatching(/^key_/),
      },
    });
    const answer = await bed.direct('/responses', created.api_key.value, {
      body: { model: 'gpt-4o-mini', input: 'hi' },
    });
    expect(answer.status).toBe(200);
    const list = await bed.direct(path, admin.key);
    const listed = await json<{ data: unknown[] }>(list);
    expect(listed.data).toEqual([
      {
        object: 'organization.project.service_account',
        id: created.id,
        name: 'Keyward',
        role: 'member',
        created_at: created.created_at,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.api_key.value);
    const keys = await json<{ data: ProjectKey[] }>(
      await bed.direct(`/organization/projects/${defaultProjectId}/api_keys`, admin.key),
    );
    expect(keys.data.map((k) => k.id)).toEqual([created.api_key.id]);
    const nameless = await bed.direct(path, admin.key, { body: {} });
    expect(nameless.status).toBe(400);
    expect((await json<ErrorBody>(nameless)).error.param).toBe('name');
  });

  it('an archived project answers 400 to listing or creating them, as the spec says', async () => {
    const { id } = await org();
    const admin = await key(id, { kind: 'admin' });
    const old = await bed.admin<{ id: string }>('POST', `/direct/orgs/${id}/projects`, { name: 'Old' });
    await bed.admin('PATCH', `/direct/orgs/${id}/projects/${old.id}`, { archived: true });
    const path = `/organization/projects/${old.id}/service_accounts`;
    for (const response of [
      await bed.direct(path, admin.key),
      await bed.direct(path, admin.key, { body: { name: 'late' } }),
    ]) {
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error.message).toMatch(/archived/);
    }
  });
});
