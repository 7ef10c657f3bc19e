// The OpenAI-compatible service over HTTP against the emulator's local-server
// routes: the chat-completions client shared with the router, told apart by
// the service id. Streams, stops, error kinds, and no Authorization header at
// all when no key is set.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatCompletionsClient } from '../../../src/core/wire/chatCompletionsClient.ts';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/retryPolicy.ts';
import { StreamUsageSupport } from '../../../src/core/wire/streamUsageSupport.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { answerText } from '../../emulator/answers.ts';
import type { CompatibleMode } from '../../emulator/compatibleService.ts';
import { FAST, settle } from '../clientSupport.ts';
import { compatibleDescriptor } from '../../../src/core/services/compatibleDescriptor.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(() => {
  bed.emulator.compatible.seen.length = 0;
  bed.emulator.compatible.streamOptions.length = 0;
  bed.emulator.config.tokenDelayMs = 0;
});

function client(
  mode: CompatibleMode,
  key = '',
  baseUrl = bed.emulator.compatibleBaseUrls[mode],
  streamUsage = new StreamUsageSupport(),
): ChatCompletionsClient {
  return new ChatCompletionsClient({
    profile: compatibleDescriptor,
    baseUrl,
    key,
    streamUsage,
    ...FAST,
    retry: { ...DEFAULT_RETRY_POLICY, random: () => 0 },
    sleep: async () => undefined,
  });
}
const ask = (prompt: string, model = 'llama3.2:3b') => ({
  model,
  messages: [{ role: 'user' as const, content: prompt }],
});

describe('compatible service: answers', () => {
  it('streams an answer from a server that needs no key, and sends no Authorization header', async () => {
    const stream = client('open').chat(ask('hello local'));
    const deltas: string[] = [];
    for await (const delta of stream) deltas.push(delta);
    expect(deltas.join('')).toBe(answerText('hello local', { tokens: 12 }));
    expect(await stream.result).toMatchObject({
      service: 'compatible',
      text: answerText('hello local', { tokens: 12 }),
      model: 'llama3.2:3b',
      finishReason: 'stop',
      costUsd: null,
    });
    expect(bed.emulator.compatible.seen).toEqual([{ path: '/compatible/v1/chat/completions', authorization: null }]);
  });

  it('answers without streaming, with the key as a Bearer token when one is set', async () => {
    const key = bed.emulator.compatible.key;
    const result = await client('keyed', key).chat(ask('whole'), { stream: false }).collect();
    expect(result.text).toBe(answerText('whole', { tokens: 12 }));
    expect(result.usage).toMatchObject({ outputTokens: 12 });
    expect(bed.emulator.compatible.seen[0]!.authorization).toBe(`Bearer ${key}`);
  });

  it('lists the models the server offers', async () => {
    const models = await client('open').models();
    expect(models.map((m) => m.id)).toEqual(['llama3.2:3b', 'qwen2.5-coder:7b']);
    expect(models.every((m) => m.promptPrice === null && !m.free)).toBe(true);
  });

  it('stops a stream when asked: cancelled, with the text that arrived kept', async () => {
    bed.emulator.config.tokenDelayMs = 40;
    const controller = new AbortController();
    const stream = client('open').chat(ask('a long one'), { signal: controller.signal });
    let text = '';
    let error: unknown;
    try {
      for await (const delta of stream) {
        text += delta;
        if (text.length > 0) controller.abort();
      }
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ kind: 'cancelled', service: 'compatible' });
    expect(text.length).toBeGreaterThan(0);
  });
});

// OpenAI's spec (shared/specs/openai-openapi.yaml, CreateChatCompletionStreamResponse): `usage` is "only present when
// you set stream_options: {"include_usage": true}", on a last chunk whose `choices` is empty. Ollama and vLLM do the same.
describe('compatible service: usage in streams', () => {
  it('asks for usage in a stream and reads it from the last chunk, whose choices are empty', async () => {
    const stream = client('open').chat(ask('count me'));
    for await (const _ of stream);
    const result = await stream.result;
    expect(bed.emulator.compatible.streamOptions).toEqual([{ include_usage: true }]);
    expect(result.usage).toMatchObject({ outputTokens: 12 });
    expect(result.usage!.inputTokens).toBeGreaterThan(0);
    expect(result.finishReason).toBe('stop');
  });

  it('does not send stream_options without a stream (the server would refuse it)', async () => {
    await client('open').chat(ask('whole'), { stream: false }).collect();
    expect(bed.emulator.compatible.streamOptions).toEqual([undefined]);
  });

  it('a server that refuses the field: retried once without it, and never asked again for that base URL', async () => {
    const memory = new StreamUsageSupport();
    const first = await client('strict', '', undefined, memory).chat(ask('strict one')).collect();
    expect(first.text).toBe(answerText('strict one', { tokens: 12 }));
    expect(first.usage).toBeNull();
    expect(bed.emulator.compatible.streamOptions).toEqual([{ include_usage: true }, undefined]);
    // A new client (keys and settings make new ones) shares the memory.
    await client('strict', '', undefined, memory).chat(ask('strict two')).collect();
    expect(bed.emulator.compatible.streamOptions).toEqual([{ include_usage: true }, undefined, undefined]);
    // Other servers are still asked.
    await client('open', '', undefined, memory).chat(ask('open one')).collect();
    expect(bed.emulator.compatible.streamOptions.at(-1)).toEqual({ include_usage: true });
  });

  it('another 400 is not retried and keeps its own message', async () => {
    const { error } = await settle(client('open').chat({ ...ask('hi'), messages: [] }));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(bed.emulator.compatible.streamOptions).toHaveLength(1);
  });
});

describe('compatible service: error kinds', () => {
  it('a server that wants a key and got none: auth, in the compatible service words', async () => {
    const { error } = await settle(client('keyed').chat(ask('hi')));
    expect(error).toMatchObject({ kind: 'auth', service: 'compatible', status: 401, code: 'invalid_api_key' });
    expect(error!.action).toContain('Keyward: Set Compatible Key');
  });

  it('a wrong key is auth too, and the key never shows in the message', async () => {
    const wrong = `local-${'9'.repeat(24)}`;
    const { error } = await settle(client('keyed', wrong).chat(ask('hi')));
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(JSON.stringify(error!.toData())).not.toContain(wrong);
  });

  it('a model the server does not have: bad_request with its own message', async () => {
    const { error } = await settle(client('open').chat(ask('hi', 'no-such-model')));
    expect(error).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(error!.message).toContain('no-such-model');
  });

  it('a server without GET /models says 404: bad_request, so the id is typed instead', async () => {
    await expect(client('bare').models()).rejects.toMatchObject({ kind: 'bad_request', status: 404 });
    const result = await client('bare').chat(ask('typed id', 'whatever-is-loaded')).collect();
    expect(result.text).toBe(answerText('typed id', { tokens: 12 }));
  });

  it('nothing listening: network, naming the compatible service', async () => {
    const { error } = await settle(client('open', '', 'http://127.0.0.1:9/v1').chat(ask('hi')));
    expect(error).toMatchObject({ kind: 'network', service: 'compatible' });
  });

  it('plain http to another machine is refused before anything is sent', async () => {
    const { error } = await settle(client('open', 'a-key-of-any-shape', 'http://example.com/v1').chat(ask('hi')));
    expect(error).toMatchObject({ kind: 'insecure_url', service: 'compatible' });
  });
});
