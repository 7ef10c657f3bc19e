// GET /organization/costs over HTTP (specs/openai-openapi.yaml, operationId usage-costs): daily buckets of
// CostsResult computed from what the organisation really spent, grouped, filtered and paged as the spec says.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.admin('POST', '/reset', {}));

const DAY = 86_400;
const NOV_1 = Date.parse('2026-11-01T00:00:00Z') / 1000;

interface Result {
  object: string;
  amount: { value: number; currency: string };
  line_item: string | null;
  project_id: string | null;
  api_key_id: string | null;
  quantity: number | null;
  quantity_unit: string | null;
}
interface Page {
  object: string;
  data: { object: string; start_time: number; end_time: number; results: Result[] }[];
  has_more: boolean;
  next_page: string | null;
}
type ErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

async function account() {
  await bed.emulator.clock.set(Date.parse('2026-11-01T09:00:00Z'));
  const org = await bed.admin<{ id: string; defaultProjectId: string }>('POST', '/direct/orgs', { name: 'org' });
  await bed.admin('POST', `/direct/orgs/${org.id}/purchase`, { amount: 100 });
  const other = await bed.admin<{ id: string }>('POST', `/direct/orgs/${org.id}/projects`, { name: 'Other' });
  const admin = await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: org.id, kind: 'admin' });
  return { ...org, other: other.id, admin: admin.key };
}

const costs = async (key: string, query: string) => {
  const response = await bed.direct(`/organization/costs?${query}`, key);
  return { status: response.status, body: (await response.json()) as Page & ErrorBody, response };
};

describe('/organization/costs', () => {
  it("sums the organisation's spend per UTC day, in the spec's shapes", async () => {
    const a = await account();
    await bed.admin('POST', `/direct/orgs/${a.id}/spend`, { amount: 1.25 });
    await bed.admin('POST', `/direct/orgs/${a.id}/spend`, { amount: 0.5, projectId: a.other });
    await bed.emulator.clock.set(Date.parse('2026-11-03T23:59:00Z'));
    await bed.admin('POST', `/direct/orgs/${a.id}/spend`, { amount: 2 });
    const { status, body } = await costs(a.admin, `start_time=${NOV_1}&end_time=${NOV_1 + 4 * DAY}`);
    expect(status).toBe(200);
    const bucket = (day: number, results: Result[]) => ({
      object: 'bucket',
      start_time: NOV_1 + day * DAY,
      end_time: NOV_1 + (day + 1) * DAY,
      results,
    });
    const total = (value: number): Result => ({
      object: 'organization.costs.result',
      amount: { value, currency: 'usd' },
      line_item: null,
      project_id: null,
      api_key_id: null,
      quantity: null,
      quantity_unit: null,
    });
    expect(body).toEqual({
      object: 'page',
      data: [bucket(0, [total(1.75)]), bucket(1, []), bucket(2, [total(2)]), bucket(3, [])],
      has_more: false,
      next_page: null,
    });
  });

  it('charges a real answer by model line items and key, and groups by project_id, line_item, api_key_id', async () => {
    const a = await account();
    const user = await bed.admin<{ id: string; key: string }>('POST', '/direct/keys', { orgId: a.id });
    const answer = await bed.direct('/responses', user.key, { body: { model: 'gpt-4o-mini', input: 'hello' } });
    expect(answer.status).toBe(200);
    await bed.admin('POST', `/direct/orgs/${a.id}/spend`, { amount: 3, projectId: a.other, lineItem: 'batch' });
    const { body } = await costs(
      a.admin,
      `start_time=${NOV_1}&end_time=${NOV_1 + DAY}&group_by=project_id&group_by=line_item&group_by=api_key_id`,
    );
    const results = body.data[0]!.results;
    expect(results.map((r) => [r.project_id, r.line_item, r.api_key_id])).toEqual([
      [a.defaultProjectId, 'gpt-4o-mini, input', user.id],
      [a.defaultProjectId, 'gpt-4o-mini, output', user.id],
      [a.other, 'batch', null],
    ]);
    const spent = bed.emulator.direct.monthSpend(bed.emulator.direct.org(a.id));
    const sum = results.reduce((s, r) => s + r.amount.value, 0);
    expect(sum).toBeCloseTo(spent, 10);
    const brackets = await costs(a.admin, `start_time=${NOV_1}&group_by[]=project_id&project_ids[]=${a.other}`);
    expect(brackets.body.data[0]!.results).toEqual([
      expect.objectContaining({ project_id: a.other, amount: { value: 3, currency: 'usd' } }),
    ]);
    const byKey = await costs(a.admin, `start_time=${NOV_1}&api_key_ids=${user.id}`);
    expect(byKey.body.data[0]!.results[0]!.amount.value).toBeCloseTo(spent - 3, 10);
  });

  it('pages by limit (default 7) with next_page until has_more is false', async () => {
    const a = await account();
    await bed.emulator.clock.set(Date.parse('2026-11-10T12:00:00Z'));
    await bed.admin('POST', `/direct/orgs/${a.id}/spend`, { amount: 4 });
    const first = await costs(a.admin, `start_time=${NOV_1}`);
    expect(first.body.data.map((b) => b.start_time)).toEqual([0, 1, 2, 3, 4, 5, 6].map((d) => NOV_1 + d * DAY));
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_page).toEqual(expect.any(String));
    const second = await costs(a.admin, `start_time=${NOV_1}&limit=2&page=${first.body.next_page}`);
    expect(second.body.data.map((b) => b.start_time)).toEqual([NOV_1 + 7 * DAY, NOV_1 + 8 * DAY]);
    const last = await costs(a.admin, `start_time=${NOV_1}&limit=2&page=${second.body.next_page}`);
    expect(last.body.data.map((b) => [b.start_time, b.results.length])).toEqual([[NOV_1 + 9 * DAY, 1]]);
    expect(last.body).toMatchObject({ has_more: false, next_page: null });
  });

  it('answers 400 to a missing start_time, another bucket_width, a limit past 180, an unknown group or cursor', async () => {
    const a = await account();
    const cases: [string, string][] = [
      ['', 'start_time'],
      [`start_time=${NOV_1}&bucket_width=1h`, 'bucket_width'],
      [`start_time=${NOV_1}&limit=181`, 'limit'],
      [`start_time=${NOV_1}&limit=0`, 'limit'],
      [`start_time=${NOV_1}&group_by=model`, 'group_by'],
      [`start_time=${NOV_1}&page=nonsense`, 'page'],
      ['start_time=yesterday', 'start_time'],
    ];
    for (const [query, param] of cases) {
      const { status, body } = await costs(a.admin, query);
      expect([query, status, body.error.param, body.error.type]).toEqual([query, 400, param, 'invalid_request_error']);
    }
  });

  it("answers the spec's 429 (TooManyRequests) with Retry-After, through the rate_limit fault", async () => {
    const a = await account();
    await bed.admin('POST', '/faults', {
      kind: 'rate_limit',
      service: 'direct',
      path: '/organization/costs',
      retryAfter: 3,
    });
    const limited = await costs(a.admin, `start_time=${NOV_1}`);
    expect(limited.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toBe('3');
    expect(limited.body.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect((await costs(a.admin, `start_time=${NOV_1}`)).status).toBe(200);
    const bare = await bed.direct(`/organization/costs?start_time=${NOV_1}`, a.admin, {
      headers: { 'x-emulator-fault': 'rate_limit;retryAfter=0' },
    });
    expect(bare.status).toBe(429);
    expect(bare.headers.get('retry-after')).toBeNull();
  });
});
