// The direct service's organization API, for admin keys only, from specs/openai-openapi.yaml:
//   GET    /organization/projects[/{project_id}]                     ProjectListResponse, Project
//   GET    /organization/projects/{project_id}/api_keys[/{key_id}]   ProjectApiKeyListResponse, ProjectApiKey
//   DELETE /organization/projects/{project_id}/api_keys/{key_id}     ProjectApiKeyDeleteResponse; 400 for a
//          service account's key ("an error if the key belonged to a service account")
//   GET    /organization/projects/{project_id}/service_accounts      400 when the project is archived
//   POST   /organization/projects/{project_id}/service_accounts      the account's API key, returned once
//   GET    /organization/costs                                       directCosts.ts
// A project or service-account key gets "Missing scopes" (the live answer for such a key, see README.md); so does an
// admin key whose permissions lack the scope. A deleted key is refused from the next request on: the seed says
// revocation "takes effect within a few seconds", and at once is the strictest reading a client must survive.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { directError, missingScopes, readLimit } from './directAuth.ts';
import { handleCosts } from './directCosts.ts';
import type { DirectKey, DirectOrg, DirectScope, DirectState, Project } from './directState.ts';
import { BodyError, readJsonObject, sendJson } from './http.ts';
import type { ServiceConfig } from './routerService.ts';

export interface OrganizationContext {
  state: DirectState;
  config: ServiceConfig;
  now: () => number;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** `sk-proj...xyz`: the key's kind prefix, three dots, its last three characters (the spec's "sk-admin...def"). */
export function redactedValue(value: string): string {
  const head = /^sk-(?:proj|svcacct|admin)(?=-)/.exec(value)?.[0] ?? value.slice(0, 6);
  return `${head}...${value.slice(-3)}`;
}

function notFound(res: ServerResponse, what: string, id: string): void {
  directError(res, 404, `No ${what} found with id '${id}'.`, 'invalid_request_error', null);
}

/** A cursor list in creation order: `after` is the last id of the previous page. */
function listPage<T extends { id: string }>(
  res: ServerResponse,
  query: URLSearchParams,
  items: T[],
  shape: (item: T) => unknown,
): void {
  const limit = readLimit(res, query, 20, 100);
  if (limit === null) return;
  const after = query.get('after');
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  const page = items.slice(start, start + limit);
  sendJson(res, 200, {
    object: 'list',
    data: page.map(shape),
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: start + limit < items.length,
  });
}

function projectObject(project: Project) {
  return {
    id: project.id,
    object: 'organization.project',
    name: project.name,
    created_at: seconds(project.createdAt),
    archived_at: project.archivedAt === null ? null : seconds(project.archivedAt),
    status: project.archivedAt === null ? 'active' : 'archived',
  };
}

function keyObject(org: DirectOrg, key: DirectKey) {
  const account = key.owner.type === 'service_account' ? org.serviceAccounts.get(key.owner.id) : undefined;
  const owner = account
    ? {
        type: 'service_account',
        service_account: {
          id: account.id,
          name: account.name,
          created_at: seconds(account.createdAt),
          role: account.role,
        },
      }
    : {
        type: 'user',
        user: {
          id: org.owner.id,
          name: org.owner.name,
          email: org.owner.email,
          created_at: seconds(org.owner.createdAt),
          role: 'owner',
        },
      };
  return {
    object: 'organization.project.api_key',
    redacted_value: redactedValue(key.value),
    name: key.name,
    created_at: seconds(key.createdAt),
    last_used_at: key.lastUsedAt === null ? null : seconds(key.lastUsedAt),
    id: key.id,
    owner_project_access: 'active',
    owner,
  };
}

/** The project's keys a list shows: not admin keys (they belong to the organisation), not deleted ones. */
function projectKeys(state: DirectState, project: Project): DirectKey[] {
  return [...state.keys.values()].filter((k) => k.projectId === project.id && k.kind !== 'admin' && !k.revoked);
}

/** The scope an organization route needs: reading, changing, or the costs. */
function scopeOf(method: string, parts: string[]): DirectScope {
  if (parts[0] === 'costs') return 'api.usage.read';
  return method === 'GET' ? 'api.management.read' : 'api.management.write';
}

export async function handleOrganization(
  ctx: OrganizationContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  key: DirectKey,
): Promise<void> {
  const method = req.method ?? 'GET';
  const query = new URL(req.url ?? '/', 'http://emulator').searchParams;
  const parts = path.split('/').filter(Boolean).slice(1);
  const scope = scopeOf(method, parts);
  if (key.kind !== 'admin') return missingScopes(ctx, res, scope, true);
  const lacking = ctx.state.missingScope(key, scope);
  if (lacking) return missingScopes(ctx, res, lacking, true);
  const org = ctx.state.org(key.orgId);
  const invalid = () => directError(res, 404, `Invalid URL (${method} /v1${path})`, 'invalid_request_error', null);

  if (parts[0] === 'costs' && parts.length === 1) {
    if (method !== 'GET') return invalid();
    return handleCosts(ctx, res, org, query);
  }
  if (parts[0] !== 'projects') return invalid();
  if (parts.length === 1 && method === 'GET') {
    const all = [...org.projects.values()];
    const shown = query.get('include_archived') === 'true' ? all : all.filter((p) => p.archivedAt === null);
    return listPage(res, query, shown, projectObject);
  }
  const project = parts[1] ? org.projects.get(parts[1]) : undefined;
  if (!project) return parts[1] ? notFound(res, 'project', parts[1]) : invalid();
  if (parts.length === 2 && method === 'GET') return sendJson(res, 200, projectObject(project));
  if (parts[2] === 'api_keys') return apiKeys(ctx, res, method, query, org, project, parts[3], parts.length);
  if (parts[2] === 'service_accounts' && parts.length === 3)
    return serviceAccounts(ctx, req, res, method, query, org, project);
  return invalid();
}

function apiKeys(
  ctx: OrganizationContext,
  res: ServerResponse,
  method: string,
  query: URLSearchParams,
  org: DirectOrg,
  project: Project,
  keyId: string | undefined,
  length: number,
): void {
  const keys = projectKeys(ctx.state, project);
  if (length === 3 && method === 'GET') return listPage(res, query, keys, (k) => keyObject(org, k));
  const key = keys.find((k) => k.id === keyId);
  if (length !== 4 || !keyId || (method !== 'GET' && method !== 'DELETE'))
    return directError(res, 404, `Invalid URL (${method})`, 'invalid_request_error', null);
  if (!key) return notFound(res, 'API key', keyId);
  if (method === 'GET') return sendJson(res, 200, keyObject(org, key));
  if (key.owner.type === 'service_account')
    return directError(
      res,
      400,
      "This API key belongs to a service account and can't be deleted on its own; delete the service account instead.",
      'invalid_request_error',
      null,
    );
  key.revoked = true;
  sendJson(res, 200, { object: 'organization.project.api_key.deleted', id: key.id, deleted: true });
}

async function serviceAccounts(
  ctx: OrganizationContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  query: URLSearchParams,
  org: DirectOrg,
  project: Project,
): Promise<void> {
  if (method !== 'GET' && method !== 'POST')
    return directError(res, 404, `Invalid URL (${method})`, 'invalid_request_error', null);
  if (project.archivedAt !== null)
    return directError(
      res,
      400,
      `Project ${project.id} is archived: archived projects have no service accounts.`,
      'invalid_request_error',
      null,
    );
  const accountObject = (a: { id: string; name: string; role: string; createdAt: number }) => ({
    object: 'organization.project.service_account',
    id: a.id,
    name: a.name,
    role: a.role,
    created_at: seconds(a.createdAt),
  });
  if (method === 'GET') {
    const accounts = [...org.serviceAccounts.values()].filter((a) => a.projectId === project.id);
    return listPage(res, query, accounts, accountObject);
  }
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(req);
  } catch (error) {
    if (error instanceof BodyError) return directError(res, 400, error.message, 'invalid_request_error', null);
    throw error;
  }
  if (typeof body.name !== 'string' || body.name.length === 0)
    return directError(
      res,
      400,
      "Missing required parameter: 'name'.",
      'invalid_request_error',
      'missing_required_parameter',
      'name',
    );
  const account = ctx.state.createServiceAccount(org, project, body.name);
  if (body.create_service_account_only === true) {
    account.role = 'none';
    return sendJson(res, 200, { ...accountObject(account), api_key: null });
  }
  const key = ctx.state.createKey({
    orgId: org.id,
    projectId: project.id,
    kind: 'svcacct',
    name: 'Secret Key',
    serviceAccountId: account.id,
  });
  sendJson(res, 200, {
    ...accountObject(account),
    api_key: {
      object: 'organization.project.service_account.api_key',
      value: key.value,
      name: key.name,
      created_at: seconds(key.createdAt),
      id: key.id,
    },
  });
}
