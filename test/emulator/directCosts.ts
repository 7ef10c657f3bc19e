// GET /organization/costs (specs/openai-openapi.yaml, operationId usage-costs): the spend ledger of the
// organisation (DirectState.spend records every charge) in daily buckets of UsageResponse/CostsResult.
// - start_time (Unix seconds, required, inclusive), end_time (exclusive, default now), bucket_width (only "1d").
// - Buckets are UTC days: the first holds start_time, each is 86,400 s wide, and a day without spend has no results.
// - group_by: any of project_id, line_item, api_key_id (repeated or `group_by[]`); project_ids and api_key_ids filter.
// - limit: buckets per page, 1 to 180, default 7; `next_page` is an opaque cursor, null on the last page.
// - The spec's own fault for this path is 429 (components/responses/TooManyRequests): the `rate_limit` fault.
import type { ServerResponse } from 'node:http';
import { DAY_MS } from './clock.ts';
import { directError, readLimit } from './directAuth.ts';
import type { CostEntry, DirectOrg } from './directState.ts';
import { sendJson } from './http.ts';
import { money } from './money.ts';

const GROUPS = ['project_id', 'line_item', 'api_key_id'] as const;
type Group = (typeof GROUPS)[number];

/** A query array as either SDK sends it: `name=a&name=b` or `name[]=a&name[]=b`. */
function queryList(query: URLSearchParams, name: string): string[] {
  return [...query.getAll(name), ...query.getAll(`${name}[]`)].flatMap((value) => value.split(',')).filter(Boolean);
}

function bad(res: ServerResponse, param: string, message: string): void {
  directError(res, 400, message, 'invalid_request_error', 'invalid_value', param);
}

interface CostsQuery {
  start: number;
  end: number;
  groups: Group[];
  projects: string[];
  keys: string[];
  limit: number;
  /** The first bucket of this page. */
  from: number;
}

function seconds(res: ServerResponse, query: URLSearchParams, name: string): number | null | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) {
    bad(res, name, `Invalid '${name}': expected an integer (Unix seconds), but got '${raw}' instead.`);
    return null;
  }
  return Number(raw) * 1000;
}

/** The query read and checked, or null when the 400 is already sent. */
function readQuery(res: ServerResponse, query: URLSearchParams, now: number): CostsQuery | null {
  const start = seconds(res, query, 'start_time');
  if (start === null) return null;
  if (start === undefined) {
    directError(
      res,
      400,
      "Missing required parameter: 'start_time'.",
      'invalid_request_error',
      'missing_required_parameter',
      'start_time',
    );
    return null;
  }
  const end = seconds(res, query, 'end_time');
  if (end === null) return null;
  const width = query.get('bucket_width') ?? '1d';
  if (width !== '1d') {
    bad(res, 'bucket_width', `Invalid 'bucket_width': only '1d' is supported, but got '${width}' instead.`);
    return null;
  }
  const groups = queryList(query, 'group_by');
  const unknown = groups.find((g) => !(GROUPS as readonly string[]).includes(g));
  if (unknown !== undefined) {
    bad(res, 'group_by', `Invalid 'group_by': '${unknown}' is not one of ${GROUPS.join(', ')}.`);
    return null;
  }
  const limit = readLimit(res, query, 7, 180);
  if (limit === null) return null;
  const first = Math.floor(start / DAY_MS) * DAY_MS;
  const page = query.get('page');
  const from = page === null ? first : Number(Buffer.from(page, 'base64url').toString('utf8'));
  if (!Number.isInteger(from) || from < first || (from - first) % DAY_MS !== 0) {
    bad(res, 'page', "Invalid 'page': not a cursor this query returned.");
    return null;
  }
  return {
    start,
    end: end ?? now,
    groups: groups as Group[],
    projects: queryList(query, 'project_ids'),
    keys: queryList(query, 'api_key_ids'),
    limit,
    from,
  };
}

function groupKey(entry: CostEntry, groups: Group[]): string {
  return JSON.stringify(
    groups.map((g) => (g === 'project_id' ? entry.projectId : g === 'line_item' ? entry.lineItem : entry.keyId)),
  );
}

function results(entries: CostEntry[], groups: Group[]) {
  const sums = new Map<string, { sample: CostEntry; value: number }>();
  for (const entry of entries) {
    const key = groupKey(entry, groups);
    const sum = sums.get(key) ?? { sample: entry, value: 0 };
    sum.value = money(sum.value + entry.amount);
    sums.set(key, sum);
  }
  return [...sums.values()].map(({ sample, value }) => ({
    object: 'organization.costs.result',
    amount: { value, currency: 'usd' },
    line_item: groups.includes('line_item') ? sample.lineItem : null,
    project_id: groups.includes('project_id') ? sample.projectId : null,
    api_key_id: groups.includes('api_key_id') ? sample.keyId : null,
    quantity: null,
    quantity_unit: null,
  }));
}

export function handleCosts(
  ctx: { now: () => number },
  res: ServerResponse,
  org: DirectOrg,
  query: URLSearchParams,
): void {
  const q = readQuery(res, query, ctx.now());
  if (!q) return;
  const entries = org.costs.filter(
    (e) =>
      e.at >= q.start &&
      e.at < q.end &&
      (q.projects.length === 0 || q.projects.includes(e.projectId)) &&
      (q.keys.length === 0 || (e.keyId !== null && q.keys.includes(e.keyId))),
  );
  const data = [];
  let bucket = q.from;
  for (; bucket < q.end && data.length < q.limit; bucket += DAY_MS) {
    const inBucket = entries.filter((e) => e.at >= bucket && e.at < bucket + DAY_MS);
    data.push({
      object: 'bucket',
      start_time: bucket / 1000,
      end_time: (bucket + DAY_MS) / 1000,
      results: inBucket.length === 0 ? [] : results(inBucket, q.groups),
    });
  }
  const more = bucket < q.end;
  sendJson(res, 200, {
    object: 'page',
    data,
    has_more: more,
    next_page: more ? Buffer.from(String(bucket)).toString('base64url') : null,
  });
}
