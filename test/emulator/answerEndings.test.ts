// The emulator ends answers the ways the real services do: a refusal in both
// services and both modes, a content filter, a token limit, and a failed
// stream that reports its usage. The wire shapes are checked raw and through
// the official SDK, which must read them as it reads the real services.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { sseData, userMessage } from './adminClient.ts';
import { REFUSAL_TOKENS, answerText } from './answers.ts';
import { sandboxBed } from './sandboxBed.ts';

const sandbox = sandboxBed();

const REFUSAL = REFUSAL_TOKENS.join('');
type Json = Record<string, any>;

describe('routing service', () => {
  const chat = (content: string, extra: Json = {}) =>
    sandbox.bed.router('/chat/completions', sandbox.keys.routerFunded, {
      body: { model: 'openai/gpt-4o-mini', messages: userMessage(content), ...extra },
    });

  it('a refusal: message.refusal with content null, charged like any output', async () => {
    const body = (await (await chat('[[refuse]] x')).json()) as Json;
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: null, refusal: REFUSAL },
    });
    expect(body.usage).toMatchObject({ completion_tokens: REFUSAL_TOKENS.length });
    expect(body.usage.cost).toBeGreaterThan(0);
  });

  it('a streamed refusal: delta.refusal, the first chunk with content null and refusal ""', async () => {
    const chunks = sseData(await (await chat('[[refuse]] x', { stream: true })).text()) as Json[];
    expect(chunks[0]!.choices[0].delta).toEqual({ role: 'assistant', content: null, refusal: '' });
    const refusal = chunks.map((c) => c.choices[0]?.delta?.refusal ?? '').join('');
    expect(refusal).toBe(REFUSAL);
    expect(
      chunks.some((c) => typeof c.choices[0]?.delta?.content === 'string' && c.choices[0].delta.content !== ''),
    ).toBe(false);
  });

  it('a content filter: finish_reason and native_finish_reason content_filter, after N tokens', async () => {
    const whole = (await (await chat('[[filter:2]] x')).json()) as Json;
    expect(whole.choices[0]).toMatchObject({ finish_reason: 'content_filter', native_finish_reason: 'content_filter' });
    expect(whole.choices[0].message.content.split(' ')).toHaveLength(2);
    const chunks = sseData(await (await chat('[[filter]] x', { stream: true })).text()) as Json[];
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('content_filter');
  });

  it('max_tokens cuts the answer with finish_reason length', async () => {
    const body = (await (await chat('cut', { max_tokens: 4 })).json()) as Json;
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { content: answerText('cut', { tokens: 12 }).split(' ').slice(0, 4).join(' ') },
    });
    expect(body.usage.completion_tokens).toBe(4);
  });

  it("the openai SDK's stream helper reads the refusal", async () => {
    const client = new OpenAI({
      apiKey: sandbox.keys.routerFunded,
      baseURL: sandbox.bed.emulator.routerBaseUrl,
      maxRetries: 0,
    });
    const stream = client.chat.completions.stream({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: '[[refuse]] sdk' }],
    });
    let done = '';
    stream.on('refusal.done', (event) => {
      done = event.refusal;
    });
    const final = await stream.finalChatCompletion();
    expect(done).toBe(REFUSAL);
    expect(final.choices[0]!.message).toMatchObject({ content: null, refusal: REFUSAL });
  });
});

describe('direct service', () => {
  const respond = (input: string, extra: Json = {}) =>
    sandbox.bed.direct('/responses', sandbox.keys.direct, { body: { model: 'gpt-4o-mini', input, ...extra } });

  it('a refusal: a refusal content part in the output message, status completed', async () => {
    const body = (await (await respond('[[refuse]] x')).json()) as Json;
    expect(body.status).toBe('completed');
    expect(body.output[0].content).toEqual([{ type: 'refusal', refusal: REFUSAL }]);
    expect(body.usage.output_tokens).toBe(REFUSAL_TOKENS.length);
  });

  it('a streamed refusal: response.refusal.delta events, then .done with the whole text', async () => {
    const events = sseData(await (await respond('[[refuse]] x', { stream: true })).text()) as Json[];
    expect(events.find((e) => e.type === 'response.content_part.added')!.part).toEqual({
      type: 'refusal',
      refusal: '',
    });
    expect(
      events
        .filter((e) => e.type === 'response.refusal.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe(REFUSAL);
    expect(events.find((e) => e.type === 'response.refusal.done')).toMatchObject({
      refusal: REFUSAL,
      item_id: expect.stringMatching(/^msg_/),
      output_index: 0,
      content_index: 0,
    });
    expect(events.some((e) => e.type === 'response.output_text.delta')).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { output: [{ content: [{ type: 'refusal', refusal: REFUSAL }] }] },
    });
  });

  it('a content filter: status incomplete, incomplete_details.reason content_filter, response.incomplete', async () => {
    const body = (await (await respond('[[filter:3]] x')).json()) as Json;
    expect(body).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
    const events = sseData(await (await respond('[[filter]] x', { stream: true })).text()) as Json[];
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'content_filter' } },
    });
  });

  it('a failed stream reports in response.failed the usage of what it sent', async () => {
    await sandbox.bed.admin('POST', '/faults', { kind: 'error_event', service: 'direct', afterChunks: 6 });
    const events = sseData(await (await respond('x', { stream: true })).text()) as Json[];
    expect(events.filter((e) => e.type === 'response.output_text.delta')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', usage: { output_tokens: 2 } },
    });
  });

  it('the openai SDK reads the refusal events and the incomplete reason', async () => {
    const client = new OpenAI({
      apiKey: sandbox.keys.direct,
      baseURL: sandbox.bed.emulator.directBaseUrl,
      maxRetries: 0,
    });
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: '[[refuse]] sdk' });
    let done = '';
    for await (const event of stream) if (event.type === 'response.refusal.done') done = event.refusal;
    const final = await stream.finalResponse();
    expect(done).toBe(REFUSAL);
    expect(final.output_text).toBe('');
    const filtered = await client.responses.create({ model: 'gpt-4o-mini', input: '[[filter]] sdk' });
    expect(filtered.incomplete_details?.reason).toBe('content_filter');
  });
});
