// The clients against streams that others recorded from the real services (or
// that the services' own specs give as examples), served word for word by a
// small local server, so the parsing is not checked only against our own
// emulator's idea of the wire. Each body names its source.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponsesClient } from '../../../src/core/wire/responsesClient.ts';
import { NO_RETRY } from '../../../src/core/retryPolicy.ts';
import { ChatCompletionsClient } from '../../../src/core/wire/chatCompletionsClient.ts';
import { settle } from '../clientSupport.ts';
import { routerDescriptor } from '../../../src/core/services/routerDescriptor.ts';
import { directDescriptor } from '../../../src/core/services/directDescriptor.ts';

let server: Server;
let base = '';
let reply: { contentType: string; body: string } = { contentType: 'text/event-stream', body: '' };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': reply.contentType });
    res.end(reply.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const options = { key: 'test-key-not-a-secret', connectTimeoutMs: 2000, idleTimeoutMs: 5000, retry: NO_RETRY };
const chat = (stream = true) =>
  new ChatCompletionsClient({ baseUrl: base, profile: routerDescriptor, ...options }).chat(
    { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'x' }] },
    { stream },
  );
const respond = (stream = true) =>
  new ResponsesClient({ baseUrl: base, profile: directDescriptor, ...options }).respond(
    { model: 'gpt-4o', input: 'x' },
    { stream },
  );

/** One JSON per line, as the vercel/ai fixtures store them, framed back as SSE with named events. */
function framed(lines: string[]): string {
  return lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join('');
}

describe('chat completions, recorded', () => {
  it('a refusal streamed in delta.refusal, from the live API', async () => {
    // openai/openai-python@b22d0a6fc18998a9dad455f923e754493cea1eca
    // .inline-snapshot/external/ca015b8b1ebaac98be76f2f855f8694b77f608de5e2a3799276be06ce3fbb15b.bin
    // (tests/lib/chat/test_completions_streaming.py test_parse_pydantic_model_refusal; "auto-generated from the live API").
    const head =
      '{"id":"chatcmpl-9tXmMGFPkLS0t0u0895fzYOblnfYa","object":"chat.completion.chunk","created":1723024914,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_845eaabc1f","choices":[{"index":0,"delta":';
    const chunk = (delta: string, finish = 'null') =>
      `data: ${head}${delta},"logprobs":null,"finish_reason":${finish}}]}\n\n`;
    reply = {
      contentType: 'text/event-stream',
      body:
        chunk('{"role":"assistant","content":null,"refusal":""}') +
        ["I'm", ' sorry', ',', ' but', ' I', " can't", ' assist', ' with', ' that', ' request', '.']
          .map((t) => chunk(JSON.stringify({ refusal: t })))
          .join('') +
        chunk('{}', '"stop"') +
        'data: {"id":"chatcmpl-9tXmMGFPkLS0t0u0895fzYOblnfYa","object":"chat.completion.chunk","created":1723024914,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_845eaabc1f","choices":[],"usage":{"prompt_tokens":17,"completion_tokens":12,"total_tokens":29}}\n\n' +
        'data: [DONE]\n\n',
    };
    const stream = chat();
    const { text, result } = await settle(stream);
    expect(text).toBe('');
    expect(result).toMatchObject({
      text: '',
      refusal: "I'm sorry, but I can't assist with that request.",
      finishReason: 'stop',
      model: 'gpt-4o-2024-08-06',
      usage: { inputTokens: 17, outputTokens: 12 },
    });
  });

  it('the same refusal in message.refusal without streaming, content null', async () => {
    // The non-streamed shape of that answer: ParsedChatCompletionMessage(content=None, refusal="I'm sorry, ...")
    // in the same test's snapshot; the routing service's spec types message.refusal as string | null.
    reply = {
      contentType: 'application/json',
      body: '{"id":"chatcmpl-9tXmMGFPkLS0t0u0895fzYOblnfYa","object":"chat.completion","created":1723024914,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I\'m sorry, but I can\'t assist with that request."},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":17,"completion_tokens":12,"total_tokens":29}}',
    };
    expect(await chat(false).collect()).toMatchObject({
      text: '',
      refusal: "I'm sorry, but I can't assist with that request.",
      finishReason: 'stop',
    });
  });

  it("the routing service's usage accounting stream: finish and native reasons, then usage with cost", async () => {
    // OpenRouterTeam/ai-sdk-provider@4247ab25 src/tests/stream-usage-accounting.test.ts with the doc's
    // keep-alive comment (api_reference/streaming.mdx), as wire-facts A2 assembles them.
    reply = {
      contentType: 'text/event-stream',
      body:
        ': OPENROUTER PROCESSING\n\n' +
        'data: {"id":"gen-123","object":"chat.completion.chunk","created":1677652288,"model":"openai/gpt-4o","provider":"OpenAI","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]}\n\n' +
        'data: {"id":"gen-123","object":"chat.completion.chunk","created":1677652288,"model":"openai/gpt-4o","provider":"OpenAI","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop","native_finish_reason":"stop"}]}\n\n' +
        'data: {"id":"gen-123","object":"chat.completion.chunk","created":1677652288,"model":"openai/gpt-4o","choices":[],"usage":{"prompt_tokens":10,"prompt_tokens_details":{"cached_tokens":5},"completion_tokens":20,"completion_tokens_details":{"reasoning_tokens":8},"total_tokens":30,"cost":0.0015,"cost_details":{"upstream_inference_cost":0.0019}}}\n\n' +
        'data: [DONE]\n\n',
    };
    expect(await chat().collect()).toMatchObject({
      text: 'Hello',
      refusal: null,
      finishReason: 'stop',
      nativeFinishReason: 'stop',
      costUsd: 0.0015,
      usage: { outputTokens: 20 },
    });
  });

  it('a mid-stream provider error (finish_reason "error") keeps the text and is not an answer', async () => {
    // OpenRouterTeam/docs@c26125a api_reference/errors-and-debugging.mdx, the mid-stream error example.
    reply = {
      contentType: 'text/event-stream',
      body:
        'data: {"id":"gen-abc123","object":"chat.completion.chunk","created":1234567890,"model":"openai/gpt-4o","provider":"OpenAI","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}\n\n' +
        'data: {"id":"gen-abc123","object":"chat.completion.chunk","created":1234567890,"model":"openai/gpt-4o","provider":"OpenAI","error":{"code":429,"message":"Rate limit exceeded","metadata":{"error_type":"rate_limit_exceeded"}},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n',
    };
    const { text, error } = await settle(chat());
    expect(text).toBe('Hello');
    expect(error).toMatchObject({ kind: 'stream_interrupted', partialText: 'Hello' });
  });
});

describe('responses, recorded and specified', () => {
  it('an in-stream quota error nested under `error`, then response.failed with usage null', async () => {
    // vercel/ai@a0d48878 packages/openai/src/responses/__fixtures__/openai-error.1.chunks.txt (response objects abridged).
    reply = {
      contentType: 'text/event-stream',
      body: framed([
        '{"type":"response.created","sequence_number":0,"response":{"id":"resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424","object":"response","created_at":1763474589,"status":"in_progress","error":null,"incomplete_details":null,"model":"gpt-5-nano-2025-08-07","output":[],"usage":null}}',
        '{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424","object":"response","created_at":1763474589,"status":"in_progress","error":null,"incomplete_details":null,"model":"gpt-5-nano-2025-08-07","output":[],"usage":null}}',
        '{"type":"error","sequence_number":2,"error":{"type":"insufficient_quota","code":"insufficient_quota","message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.","param":null}}',
        '{"type":"response.failed","sequence_number":3,"response":{"id":"resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424","object":"response","created_at":1763474589,"status":"failed","error":{"code":"insufficient_quota","message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."},"incomplete_details":null,"model":"gpt-5-nano-2025-08-07","output":[],"usage":null}}',
      ]),
    };
    const stream = respond();
    const { error } = await settle(stream);
    expect(error).toMatchObject({ kind: 'credit_exhausted', code: 'insufficient_quota' });
    expect(stream.reported).toBeNull();
  });

  it('a refusal: refusal content part, response.refusal.delta and .done, in the recorded event sequence', async () => {
    // The lifecycle of vercel/ai@cc062cfb packages/openai/src/responses/__fixtures__/issue-20047-openai-responses.chunks.txt,
    // with the refusal events and part of the spec (openai/openai-openapi@f85dbe2 openapi.yaml ResponseRefusalDeltaEvent,
    // ResponseRefusalDoneEvent, the refusal content part) in place of output_text, and the routing service spec's
    // example refusal text (OpenRouterTeam/typescript-sdk .speakeasy/in.openapi.yaml RefusalDoneEvent).
    const refusal = "I'm sorry, but I can't assist with that request.";
    const item = (status: string, text: string) =>
      `{"id":"msg_sanitized_streaming","type":"message","status":"${status}","content":[{"type":"refusal","refusal":${JSON.stringify(text)}}],"role":"assistant"}`;
    reply = {
      contentType: 'text/event-stream',
      body: framed([
        '{"type":"response.created","response":{"id":"resp_sanitized_streaming","object":"response","created_at":1788205738,"status":"in_progress","error":null,"model":"gpt-4o-mini-2024-07-18","output":[],"usage":null},"sequence_number":0}',
        '{"type":"response.in_progress","response":{"id":"resp_sanitized_streaming","object":"response","created_at":1788205738,"status":"in_progress","error":null,"model":"gpt-4o-mini-2024-07-18","output":[],"usage":null},"sequence_number":1}',
        '{"type":"response.output_item.added","item":{"id":"msg_sanitized_streaming","type":"message","status":"in_progress","content":[],"role":"assistant"},"output_index":0,"sequence_number":2}',
        '{"type":"response.content_part.added","content_index":0,"item_id":"msg_sanitized_streaming","output_index":0,"part":{"type":"refusal","refusal":""},"sequence_number":3}',
        '{"type":"response.refusal.delta","content_index":0,"delta":"I\'m sorry, but I can\'t","item_id":"msg_sanitized_streaming","output_index":0,"sequence_number":4}',
        '{"type":"response.refusal.delta","content_index":0,"delta":" assist with that request.","item_id":"msg_sanitized_streaming","output_index":0,"sequence_number":5}',
        `{"type":"response.refusal.done","content_index":0,"item_id":"msg_sanitized_streaming","output_index":0,"sequence_number":6,"refusal":${JSON.stringify(refusal)}}`,
        `{"type":"response.content_part.done","content_index":0,"item_id":"msg_sanitized_streaming","output_index":0,"part":{"type":"refusal","refusal":${JSON.stringify(refusal)}},"sequence_number":7}`,
        `{"type":"response.output_item.done","item":${item('completed', refusal)},"output_index":0,"sequence_number":8}`,
        `{"type":"response.completed","response":{"id":"resp_sanitized_streaming","object":"response","status":"completed","completed_at":1788205738,"model":"gpt-4o-mini-2024-07-18","output":[${item('completed', refusal)}],"usage":{"input_tokens":12,"input_tokens_details":{"cache_write_tokens":0,"cached_tokens":0},"output_tokens":11,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":23}},"sequence_number":9}`,
      ]),
    };
    const stream = respond();
    const { text, result } = await settle(stream);
    expect(text).toBe('');
    expect(stream.refusal).toBe(refusal);
    expect(result).toMatchObject({
      text: '',
      refusal,
      finishReason: 'stop',
      nativeFinishReason: 'completed',
      usage: { outputTokens: 11 },
    });
  });

  it('response.incomplete as the spec\'s example has it (reason "max_tokens")', async () => {
    // openai/openai-openapi@f85dbe2 openapi.yaml ResponseIncompleteEvent x-oaiMeta example, abridged; its reason is
    // "max_tokens" although the Response schema's enum says max_output_tokens: both mean the limit was hit.
    reply = {
      contentType: 'text/event-stream',
      body: framed([
        '{"type":"response.output_text.delta","item_id":"msg_123","output_index":0,"content_index":0,"delta":"Once upon a","sequence_number":1}',
        '{"type":"response.incomplete","response":{"id":"resp_123","object":"response","created_at":1740855869,"status":"incomplete","completed_at":null,"error":null,"incomplete_details":{"reason":"max_tokens"},"instructions":null,"max_output_tokens":null,"model":"gpt-4.1-2025-04-14","output":[],"usage":null},"sequence_number":2}',
      ]),
    };
    expect(await respond().collect()).toMatchObject({
      text: 'Once upon a',
      finishReason: 'length',
      nativeFinishReason: 'max_tokens',
    });
  });
});
