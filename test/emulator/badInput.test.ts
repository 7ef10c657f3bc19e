// Bad input gets the error body the real service sends, never a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';

let bed: TestBed;
let routerKey: string;
let directKey: string;
beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
  ({ routerFunded: routerKey, direct: directKey } = bed.emulator.sandbox!.keys);
});
afterAll(() => bed.close());

async function routerError(body: string | object, headers: Record<string, string> = {}) {
  const response = await bed.router('/chat/completions', routerKey, { method: 'POST', body, headers });
  return { status: response.status, body: (await response.json()) as { error: { code: number; message: string } } };
}

async function directError(body: string | object, headers: Record<string, string> = {}) {
  const response = await bed.direct('/responses', directKey, { method: 'POST', body, headers });
  return {
    status: response.status,
    body: (await response.json()) as {
      error: { message: string; type: string; param: string | null; code: string | null };
    },
  };
}

describe('routing service', () => {
  it.each([
    ['malformed JSON', '{"model": ', /could not parse the JSON/],
    ['a JSON array', '[1,2]', /must be a JSON object/],
    ['no messages', { model: 'openai/gpt-4o-mini' }, /"messages"/],
    ['empty messages', { messages: [] }, /"messages"/],
    ['a message without role', { messages: [{ content: 'x' }] }, /role/],
    ['a message with a number as content', { messages: [{ role: 'user', content: 5 }] }, /content/],
    ['a non-string model', { model: 7, messages: [{ role: 'user', content: 'x' }] }, /"model"/],
    ['a bad max_tokens', { messages: [{ role: 'user', content: 'x' }], max_tokens: -1 }, /max_tokens/],
    [
      'a bad data_collection',
      { messages: [{ role: 'user', content: 'x' }], provider: { data_collection: 'maybe' } },
      /data_collection/,
    ],
  ])('answers 400 with {error:{code,message}} for %s', async (_name, body, message) => {
    const { status, body: json } = await routerError(body);
    expect(status).toBe(400);
    expect(json.error.code).toBe(400);
    expect(json.error.message).toMatch(message);
  });

  it('answers 400 for a wrong content type', async () => {
    const { status, body } = await routerError(JSON.stringify({ messages: [] }), { 'content-type': 'text/plain' });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/Unsupported content type/);
  });

  it('answers 413 for an oversized body', async () => {
    const { status, body } = await routerError({ messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] });
    expect(status).toBe(413);
    expect(body.error.code).toBe(413);
  });

  it('answers 404 and 405 in the same shape', async () => {
    const missing = await bed.router('/nothing', routerKey);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404 } });
    const wrong = await bed.router('/chat/completions', routerKey);
    expect(wrong.status).toBe(405);
  });
});

describe('direct service', () => {
  it.each([
    ['malformed JSON', '{"model": ', null, /could not parse the JSON/],
    ['no model', { input: 'x' }, 'model', /Missing required parameter: 'model'/],
    ['no input', { model: 'gpt-4o-mini' }, 'input', /Missing required parameter: 'input'/],
    ['a number as input', { model: 'gpt-4o-mini', input: 5 }, 'input', /Invalid type for 'input'/],
    ['a bad input item', { model: 'gpt-4o-mini', input: [{ role: 'robot', content: 'x' }] }, 'input[0]', /input\[0\]/],
    [
      'max_output_tokens under 16',
      { model: 'gpt-4o-mini', input: 'x', max_output_tokens: 3 },
      'max_output_tokens',
      /minimum value/,
    ],
    ['an unknown model', { model: 'gpt-0', input: 'x' }, 'model', /does not exist/],
  ])('answers 400 with {error:{message,type,param,code}} for %s', async (_name, body, param, message) => {
    const { status, body: json } = await directError(body);
    expect(status).toBe(400);
    expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.param).toBe(param);
    expect(json.error.message).toMatch(message);
  });

  it('answers 400 for a wrong content type and 413 for an oversized body', async () => {
    expect((await directError('x', { 'content-type': 'text/plain' })).status).toBe(400);
    expect((await directError({ model: 'gpt-4o-mini', input: 'x'.repeat(1_100_000) })).status).toBe(413);
  });

  it('answers 404 for an unknown path, with x-request-id', async () => {
    const response = await bed.direct('/nothing', directKey);
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});

describe('admin API', () => {
  it('answers 400 with a reason for bad admin input and 404 for unknown routes', async () => {
    await expect(bed.admin('POST', '/router/keys', { name: 'no account' })).rejects.toThrow(/accountId/);
    await expect(bed.admin('POST', '/router/accounts/nope/purchase', { amount: 5 })).rejects.toThrow(
      /no router account/,
    );
    await expect(
      bed.admin('POST', '/direct/keys', { orgId: bed.emulator.sandbox!.directOrgId, permissions: 'god' }),
    ).rejects.toThrow(/permissions/);
    await expect(bed.admin('GET', '/nothing')).rejects.toThrow(/404/);
    const response = await fetch(bed.emulator.adminUrl + '/config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(response.status).toBe(400);
  });

  it('keeps serving after all of the above', async () => {
    expect((await bed.direct('/models', directKey)).status).toBe(200);
  });
});
