// The direct service's refusals before a request is looked at: its error body, the
// 401s of a key it does not accept, and "Missing scopes" for a key that may not
// use an endpoint (a project key on /organization/*, an admin key on a model).
import type { ServerResponse } from 'node:http';
import { sendJson } from './http.ts';
import { directKeyEcho } from './keyFactory.ts';
import type { ServiceConfig } from './routerService.ts';

export function directError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type, param, code } }, headers);
}

export function authFailure(
  res: ServerResponse,
  reason: 'missing' | 'unknown' | 'revoked' | 'disabled' | 'expired',
  token: string | undefined,
): void {
  switch (reason) {
    case 'missing':
      return directError(
        res,
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        'invalid_request_error',
        null,
      );
    case 'disabled':
      return directError(
        res,
        401,
        'This API key has been disabled because it was found in public code. Create a new key at https://platform.openai.com/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      );
    case 'expired':
      return directError(
        res,
        401,
        'The API key provided has expired. Create a new key at https://platform.openai.com/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      );
    default:
      return directError(
        res,
        401,
        `Incorrect API key provided: ${directKeyEcho(token ?? '')}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      );
  }
}

/**
 * "Missing scopes": 401 in most live reports, 403 in some (config.missingScopesStatus). The model endpoints name the
 * roles; the organization endpoints answer in the shorter words of the reports on /organization/costs and
 * /organization/projects (community.openai.com threads 1043058 and 1368874).
 */
export function missingScopes(
  ctx: { config: ServiceConfig },
  res: ServerResponse,
  scope: string,
  organization = false,
): void {
  const roles = organization
    ? 'Check that you have the correct role in your organization'
    : 'Check that you have the correct role in your organization (Reader, Writer, Owner) and project (Member, Owner)';
  directError(
    res,
    ctx.config.missingScopesStatus,
    `You have insufficient permissions for this operation. Missing scopes: ${scope}. ${roles}, and if you're using a restricted API key, that it has the necessary scopes.`,
    'invalid_request_error',
    null,
  );
}

/** `limit` between 1 and `max` (spec: "Limit can range between 1 and 100"), or the answer already sent. */
export function readLimit(res: ServerResponse, query: URLSearchParams, fallback: number, max: number): number | null {
  const raw = query.get('limit');
  if (raw === null) return fallback;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    directError(
      res,
      400,
      `Invalid 'limit': expected an integer between 1 and ${max}, but got ${raw} instead.`,
      'invalid_request_error',
      'invalid_value',
      'limit',
    );
    return null;
  }
  return limit;
}
