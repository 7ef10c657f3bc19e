// An OpenAI-compatible server as local ones are (Ollama, LM Studio, vLLM,
// llama.cpp's server): chat completions plain and streamed, GET /models, and
// OpenAI-shaped errors. Three base paths give the three kinds a user meets:
//   /compatible/v1        no key needed (any Authorization is ignored)
//   /compatible-keyed/v1  the key `state.key` is required, as `vllm --api-key` does
//   /compatible-bare/v1   no key, and no GET /models: the model id is typed
//   /compatible-strict/v1 no key, and a 400 for request fields it does not know
//                         (`stream_options`), as older Azure OpenAI api-versions
//                         and strict proxies answer
// It remembers the Authorization header of every request, so a test can prove
// none was sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { answerPlan, promptTokenCount } from './answers.ts';
import { BodyError, bearerToken, clientGone, readJsonObject, sendJson, sleep } from './http.ts';
import type { ServiceConfig } from './routerService.ts';

export const COMPATIBLE_PREFIXES = {
  open: '/compatible/v1',
  keyed: '/compatible-keyed/v1',
  bare: '/compatible-bare/v1',
  strict: '/compatible-strict/v1',
} as const;
export type CompatibleMode = keyof typeof COMPATIBLE_PREFIXES;

export const COMPATIBLE_MODELS = ['llama3.2:3b', 'qwen2.5-coder:7b'];

export class CompatibleState {
  /** Not key-shaped on purpose: a local server's key can be any string. */
  readonly key = `local-${randomBytes(12).toString('hex')}`;
  readonly seen: { path: string; authorization: string | null }[] = [];
  /** The `stream_options` of every chat request (undefined when absent), in order. */
  readonly streamOptions: unknown[] = [];
  /** Every chat request's messages, as the server received them (tests check no key arrived). */
  readonly bodies: string[] = [];
}

/** The fields the strict server knows; OpenAI's CreateChatCompletionRequest has more, none of which Keyward sends. */
const STRICT_FIELDS = new Set(['model', 'messages', 'stream', 'max_tokens', 'temperature', 'top_p', 'stop', 'n']);

function openAiError(res: ServerResponse, status: number, message: string, type: string, code: string | null): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}

export async function handleCompatible(
  ctx: { state: CompatibleState; config: ServiceConfig; now: () => number },
  mode: CompatibleMode,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : null;
  ctx.state.seen.push({ path: COMPATIBLE_PREFIXES[mode] + path, authorization });
  if (mode === 'keyed' && bearerToken(req) !== ctx.state.key)
    return openAiError(
      res,
      401,
      authorization ? 'Invalid API key.' : 'Missing API key.',
      'invalid_request_error',
      'invalid_api_key',
    );
  if (path === '/models' && method === 'GET' && mode !== 'bare') {
    const created = Math.floor(ctx.now() / 1000);
    return sendJson(res, 200, {
      object: 'list',
      data: COMPATIBLE_MODELS.map((id) => ({ id, object: 'model', created, owned_by: 'library' })),
    });
  }
  if (path !== '/chat/completions' || method !== 'POST')
    return openAiError(res, 404, `404 page not found: ${method} ${path}`, 'invalid_request_error', null);

  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(req);
  } catch (error) {
    if (error instanceof BodyError) return openAiError(res, 400, error.message, 'invalid_request_error', null);
    throw error;
  }
  ctx.state.streamOptions.push(body.stream_options);
  ctx.state.bodies.push(JSON.stringify(body.messages));
  const unknown = mode === 'strict' ? Object.keys(body).find((field) => !STRICT_FIELDS.has(field)) : undefined;
  // Azure OpenAI's wording for a field its api-version lacks.
  if (unknown !== undefined)
    return openAiError(res, 400, `Unrecognized request argument supplied: ${unknown}`, 'invalid_request_error', null);
  const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
  const model = typeof body.model === 'string' ? body.model : '';
  if (messages.length === 0) return openAiError(res, 400, 'messages is required', 'invalid_request_error', null);
  // The bare server serves whatever it has loaded, under any name; the others know their list.
  if (mode !== 'bare' && !COMPATIBLE_MODELS.includes(model))
    return openAiError(res, 404, `model "${model}" not found, try pulling it first`, 'not_found_error', null);
  const last = messages.at(-1);
  const prompt = typeof last?.content === 'string' ? last.content : '';
  const plan = answerPlan(prompt, { tokens: ctx.config.answerTokens });
  const tokens = plan.tokens;
  const finish = plan.filtered ? 'content_filter' : 'stop';
  const promptTokens = promptTokenCount(messages.map((m) => String(m.content ?? '')).join('\n'));
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: tokens.length,
    total_tokens: promptTokens + tokens.length,
  };
  const id = `chatcmpl-${randomBytes(6).toString('hex')}`;
  const created = Math.floor(ctx.now() / 1000);
  const signal = clientGone(req, res);

  if (body.stream !== true) {
    await sleep(ctx.config.tokenDelayMs * tokens.length, signal);
    if (signal.aborted) return;
    return sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      system_fingerprint: 'fp_local',
      choices: [{ index: 0, message: { role: 'assistant', content: tokens.join('') }, finish_reason: finish }],
      usage,
    });
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_local', choices, ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  for (const [i, token] of tokens.entries()) {
    if (i > 0) await sleep(ctx.config.tokenDelayMs, signal);
    if (signal.aborted || res.destroyed) return;
    const delta = i === 0 ? { role: 'assistant', content: token } : { content: token };
    res.write(chunk([{ index: 0, delta, finish_reason: null }]));
  }
  // Ollama and vLLM send usage only when asked (stream_options.include_usage); the finish chunk always.
  res.write(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  if (options?.include_usage === true) res.write(chunk([], { usage }));
  res.end('data: [DONE]\n\n');
}
