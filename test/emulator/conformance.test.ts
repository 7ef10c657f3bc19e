// The official SDKs, pointed at the emulator, must parse every response and
// stream as they would from the real services.
import { OpenRouter } from '@openrouter/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from './adminClient.ts';
import { answerText } from './answers.ts';

let bed: TestBed;
let keys: { routerFunded: string; routerFree: string; direct: string };
let managementKey: string;
beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
  keys = bed.emulator.sandbox!.keys;
  managementKey = (
    await bed.admin<{ key: string }>('POST', '/router/keys', {
      accountId: bed.emulator.sandbox!.routerFundedAccountId,
      name: 'mgmt',
      management: true,
    })
  ).key;
});
afterAll(() => bed.close());

const expected = (prompt: string) => answerText(prompt, { tokens: 12 });

describe('openai SDK against the routing service (chat completions)', () => {
  const client = () => new OpenAI({ apiKey: keys.routerFunded, baseURL: bed.emulator.routerBaseUrl, maxRetries: 0 });

  it('parses a chat completion', async () => {
    const completion = await client().chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'sdk plain' }],
      max_tokens: 64,
    });
    expect(completion.choices[0]!.message.content).toBe(expected('sdk plain'));
    expect(completion.usage?.total_tokens).toBeGreaterThan(12);
  });

  it('parses a chat completion stream, comments and [DONE] included', async () => {
    const stream = await client().chat.completions.create({
      model: 'openrouter/free',
      messages: [{ role: 'user', content: 'sdk stream' }],
      stream: true,
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(expected('sdk stream'));
    expect(usage).toMatchObject({ completion_tokens: 12, cost: 0 });
  });

  it('surfaces a 402 as an APIError with the status and message', async () => {
    const { accountId } = {
      accountId: (await bed.admin<{ id: string }>('POST', '/router/accounts', { name: 'broke' })).id,
    };
    const { key } = await bed.admin<{ key: string }>('POST', '/router/keys', { accountId, name: 'broke' });
    const broke = new OpenAI({ apiKey: key, baseURL: bed.emulator.routerBaseUrl, maxRetries: 0 });
    const error = await broke.chat.completions
      .create({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
  });
});

describe('openai SDK against the direct service (responses, models)', () => {
  const client = () => new OpenAI({ apiKey: keys.direct, baseURL: bed.emulator.directBaseUrl, maxRetries: 0 });

  it('parses a response and computes output_text from output[]', async () => {
    const response = await client().responses.create({
      model: 'gpt-5.4-mini',
      input: 'sdk response',
      instructions: 'Answer.',
    });
    expect(response.output_text).toBe(expected('sdk response'));
    expect(response.usage?.output_tokens).toBe(12);
    expect(response._request_id).toMatch(/^req_/);
  });

  it('parses a response stream with every event type', async () => {
    const stream = await client().responses.create({
      model: 'gpt-5.4-mini',
      input: 'sdk response stream',
      stream: true,
    });
    let text = '';
    const types = new Set<string>();
    for await (const event of stream) {
      types.add(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe(expected('sdk response stream'));
    expect(types.has('response.completed')).toBe(true);
  });

  it('uses the stream helper and reads the final response', async () => {
    const runner = client().responses.stream({ model: 'gpt-4o-mini', input: 'helper' });
    const final = await runner.finalResponse();
    expect(final.output_text).toBe(expected('helper'));
  });

  it('continues with previous_response_id', async () => {
    const first = await client().responses.create({ model: 'gpt-4o-mini', input: 'turn one' });
    const second = await client().responses.create({
      model: 'gpt-4o-mini',
      input: 'turn two',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe(expected('turn two'));
  });

  it('lists models', async () => {
    const ids: string[] = [];
    for await (const model of client().models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-5.4');
  });

  it('surfaces a 429 credit_balance_exhausted with its code, and a 401 for a revoked key', async () => {
    const { id } = await bed.admin<{ id: string }>('POST', '/direct/orgs', { name: 'empty' });
    const { key } = await bed.admin<{ key: string }>('POST', '/direct/keys', { orgId: id });
    const empty = new OpenAI({ apiKey: key, baseURL: bed.emulator.directBaseUrl, maxRetries: 0 });
    const error = (await empty.responses
      .create({ model: 'gpt-4o-mini', input: 'x' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.code).toBe('credit_balance_exhausted');
    expect(error.type).toBe('insufficient_quota');
    expect(error.requestID).toMatch(/^req_/);
  });
});

describe('@openrouter/sdk against the routing service', () => {
  const sdk = (apiKey: string) => new OpenRouter({ apiKey, serverURL: bed.emulator.routerBaseUrl });

  it('reads the key check', async () => {
    const result = await sdk(keys.routerFunded).apiKeys.getCurrentKeyMetadata();
    expect(result.data.limit).toBe(10);
    expect(result.data.isFreeTier).toBe(false);
  });

  it('reads credits with a management key', async () => {
    const result = await sdk(managementKey).credits.getCredits();
    expect(result.data.totalCredits).toBe(20);
  });

  it('lists models', async () => {
    const pages = await sdk(keys.routerFree).models.list();
    const ids = pages.result.data.map((model) => model.id);
    expect(ids).toContain('openrouter/free');
  });

  it('sends a chat completion', async () => {
    const result = await sdk(keys.routerFree).chat.send({
      chatRequest: { model: 'openrouter/free', messages: [{ role: 'user', content: 'or sdk' }] },
    });
    expect((result as { choices: { message: { content: unknown } }[] }).choices[0]!.message.content).toBe(
      expected('or sdk'),
    );
  });

  it('streams a chat completion', async () => {
    const stream = await sdk(keys.routerFree).chat.send({
      chatRequest: {
        model: 'google/gemma-3-27b-it:free',
        messages: [{ role: 'user', content: 'or sdk stream' }],
        stream: true,
      },
    });
    let text = '';
    for await (const chunk of stream as AsyncIterable<{ choices: { delta: { content?: string | null } }[] }>)
      text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(expected('or sdk stream'));
  });
});
