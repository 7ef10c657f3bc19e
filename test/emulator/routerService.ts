// The routing service over HTTP: chat completions (plain and SSE), the key
// check, credits and the model list, with the seed's 401/402/404/429 rules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { answerPlan, promptTokenCount } from './answers.ts';
import { utcWeekStart, utcMonth } from './clock.ts';
import type { FaultSpec } from './faults.ts';
import { BodyError, bearerToken, clientGone, readJsonObject, sendJson, sleep } from './http.ts';
import { money } from './money.ts';
import {
  type RouterModel,
  AUTO_ROUTER_ID,
  FREE_ROUTER_ID,
  ROUTER_MODELS,
  findRouterModel,
  freeModels,
  isFreeModel,
  modelListEntry,
} from './routerModels.ts';
import { FREE_PER_MINUTE, type RouterAccount, type RouterKey, type RouterState } from './routerState.ts';
import { SseWriter, strikeBeforeResponse } from './sse.ts';
import { routerKeyLabel } from './keyFactory.ts';
import { handleRouterKeys } from './routerKeysApi.ts';
import { exchangeAuthCode } from './routerAuth.ts';
import { type OfferedTool, argumentPieces, readSampling, readToolChoice, readTools, toolPlan } from './tools.ts';

/** The last message as the tool plan reads it: a user's text or a tool's result. */
function lastTurn(messages: Record<string, unknown>[]) {
  const last = messages.at(-1);
  if (last?.role === 'tool')
    return {
      kind: 'toolResult' as const,
      text: typeof last.content === 'string' ? last.content : JSON.stringify(last.content),
    };
  if (last?.role === 'user') return { kind: 'user' as const, text: lastUserText(messages) };
  return undefined;
}

export interface ServiceConfig {
  tokenDelayMs: number;
  answerTokens: number;
  inFlightRetryAfterSeconds: number;
  missingScopesStatus: 401 | 403;
}

export interface RouterContext {
  state: RouterState;
  config: ServiceConfig;
  now: () => number; /** Keeps the request's body with its record (server.ts). */
  record?: (body: Record<string, unknown>) => void;
}

const DEFAULT_MODEL = 'openai/gpt-4o-mini';
const CHAT_ROLES = new Set(['system', 'user', 'assistant', 'tool', 'developer']);

function routerError(
  res: ServerResponse,
  status: number,
  message: string,
  metadata?: Record<string, unknown>,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): void {
  const error: Record<string, unknown> = { code: status, message, ...extra };
  if (metadata) error.metadata = metadata;
  sendJson(res, status, { error }, headers);
}

// A disabled key, and a management key sent to a model, are answered as a deleted one: 401 "User not found." (a
// management key on /chat/completions, Davidvandijcke/coarse#173; the spec names no other answer for either).
function authError(res: ServerResponse, reason: 'missing' | 'unknown' | 'deleted' | 'expired' | 'disabled'): void {
  const message =
    reason === 'missing'
      ? 'Missing Authentication header'
      : reason === 'expired'
        ? 'API key has expired'
        : 'User not found.';
  routerError(res, 401, message);
}

/** Text of the last user turn: content is a string or a list of text parts. */
function lastUserText(messages: Record<string, unknown>[]): string {
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((part) =>
              part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
                ? (part as { text: string }).text
                : '',
            )
            .join('')
        : '';
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return text(messages[i]!.content);
  return text(messages[messages.length - 1]?.content);
}

/** A chat message carries an `image_url` part (ChatContentImage: `image_url.url`, a URL or a data: URL). */
function hasImagePart(messages: Record<string, unknown>[]): boolean {
  return messages.some(
    (m) =>
      Array.isArray(m.content) &&
      m.content.some((part) => part && typeof part === 'object' && (part as { type?: unknown }).type === 'image_url'),
  );
}

function allText(messages: Record<string, unknown>[]): string {
  return messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');
}

interface ChatRequest {
  model: string;
  messages: Record<string, unknown>[];
  stream: boolean;
  maxTokens: number | undefined;
  dataCollection: 'allow' | 'deny';
  tools: OfferedTool[];
  toolChoice: string | undefined;
}

function validateChat(body: Record<string, unknown>): ChatRequest | string {
  const { messages, model, stream } = body;
  if (!Array.isArray(messages) || messages.length === 0)
    return 'Input required: specify "messages" as a non-empty array';
  for (const [i, m] of messages.entries()) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return `messages[${i}] must be an object`;
    const role = (m as Record<string, unknown>).role;
    if (typeof role !== 'string' || !CHAT_ROLES.has(role))
      return `messages[${i}].role must be one of ${[...CHAT_ROLES].join(', ')}`;
    const content = (m as Record<string, unknown>).content;
    if (typeof content !== 'string' && !Array.isArray(content) && !(role === 'assistant' && content === null))
      return `messages[${i}].content must be a string or an array of content parts`;
    if (role === 'tool' && typeof (m as Record<string, unknown>).tool_call_id !== 'string')
      return `messages[${i}].tool_call_id is required for a tool message`;
  }
  const tools = readTools(body.tools, 'chat');
  if (typeof tools === 'string') return tools;
  const toolChoice = readToolChoice(body.tool_choice);
  if (toolChoice instanceof Error) return toolChoice.message;
  // The routing service passes sampling parameters on and ignores those a model does not take; a value out of
  // range it refuses.
  const sampling = readSampling(body, { temperature: true, reasoning: true }, false);
  if ('message' in sampling) return sampling.message;
  if (model !== undefined && typeof model !== 'string') return '"model" must be a string';
  if (stream !== undefined && typeof stream !== 'boolean') return '"stream" must be a boolean';
  const maxRaw = body.max_completion_tokens ?? body.max_tokens;
  if (maxRaw !== undefined && (typeof maxRaw !== 'number' || !Number.isInteger(maxRaw) || maxRaw < 1))
    return '"max_tokens" must be a positive integer';
  const provider = body.provider;
  let dataCollection: 'allow' | 'deny' = 'allow';
  if (provider !== undefined) {
    if (!provider || typeof provider !== 'object' || Array.isArray(provider)) return '"provider" must be an object';
    const dc = (provider as Record<string, unknown>).data_collection;
    if (dc !== undefined && dc !== 'allow' && dc !== 'deny')
      return '"provider.data_collection" must be "allow" or "deny"';
    if (dc === 'deny') dataCollection = 'deny';
  }
  return {
    model: model ?? DEFAULT_MODEL,
    messages: messages as Record<string, unknown>[],
    stream: stream === true,
    maxTokens: maxRaw as number | undefined,
    dataCollection,
    tools,
    toolChoice,
  };
}

function pick<T>(list: T[], seed: string): T {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) >>> 0;
  return list[hash % list.length]!;
}

function freeLimitHeaders(limit: number, reset: number): Record<string, string> {
  return { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) };
}

export async function handleRouter(
  ctx: RouterContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  fault: FaultSpec | undefined,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (path === '/auth/keys') return exchangeAuthCode(ctx, req, res);
  if (path === '/models' && method === 'GET') return listModels(ctx, res);
  if (path === '/keys' || path.startsWith('/keys/')) {
    const auth = ctx.state.authenticate(bearerToken(req));
    if ('error' in auth) return authError(res, auth.error);
    return handleRouterKeys(ctx.state, ctx.now(), req, res, path, auth.key);
  }
  const route =
    path === '/chat/completions'
      ? 'chat'
      : path === '/key' || path === '/auth/key'
        ? 'key'
        : path === '/credits'
          ? 'credits'
          : undefined;
  if (!route) return routerError(res, 404, 'Not Found');
  if ((route === 'chat') !== (method === 'POST') || (route !== 'chat' && method !== 'GET'))
    return routerError(res, 405, `Method ${method} not allowed`);

  const token = bearerToken(req);
  const auth = ctx.state.authenticate(token);
  if ('error' in auth) return authError(res, auth.error);
  const key = auth.key;
  const account = ctx.state.account(key.accountId);

  if (route === 'key') return keyCheck(ctx, res, key, account);
  if (route === 'chat' && key.management) return authError(res, 'unknown');
  if (route === 'credits') {
    if (!key.management) return routerError(res, 403, 'Only management keys can perform this operation');
    return sendJson(res, 200, { data: { total_credits: account.totalPurchased, total_usage: account.totalUsage } });
  }

  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(req);
    ctx.record?.(body);
  } catch (error) {
    if (error instanceof BodyError) return routerError(res, error.reason === 'too_large' ? 413 : 400, error.message);
    throw error;
  }
  const request = validateChat(body);
  if (typeof request === 'string') return routerError(res, 400, request, { error_type: 'invalid_request' });
  return chat(ctx, req, res, key, account, request, fault);
}

function listModels(ctx: RouterContext, res: ServerResponse): void {
  const created = Math.floor(ctx.now() / 1000) - 86_400;
  const data = ROUTER_MODELS.map((model) => modelListEntry(model, created));
  sendJson(res, 200, { data, links: { next: null }, total_count: data.length });
}

function keyCheck(ctx: RouterContext, res: ServerResponse, key: RouterKey, account: RouterAccount): void {
  const now = ctx.now();
  const day = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  const used = ctx.state.freeUsed(account);
  const limit = ctx.state.freeDailyLimit(account);
  sendJson(res, 200, {
    data: {
      label: routerKeyLabel(key.value),
      name: key.name,
      limit: key.limit,
      limit_remaining: ctx.state.keyLimitRemaining(key),
      limit_reset: key.limitReset,
      usage: ctx.state.keyUsage(key),
      usage_daily: ctx.state.keyUsage(key, day),
      usage_weekly: ctx.state.keyUsage(key, utcWeekStart(now)),
      usage_monthly: ctx.state.keyUsage(key, Date.parse(`${utcMonth(now)}-01T00:00:00Z`)),
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      include_byok_in_limit: false,
      is_free_tier: account.totalPurchased === 0,
      is_management_key: key.management,
      is_provisioning_key: key.management,
      creator_user_id: `user_${account.id}`,
      organization_id: null,
      workspace_id: null,
      allowed_data_regions: [],
      expires_at: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
      rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
      free_model_daily_requests: { used, limit, remaining: Math.max(0, limit - used) },
    },
  });
}

/**
 * The account's own privacy settings, not the request, ruled every endpoint out. Text as users
 * pasted it from live calls (dnakov/anon-kode#13, unoplat/unoplat-code-confluence#1080).
 */
function accountPrivacy404(res: ServerResponse, model: string): void {
  routerError(
    res,
    404,
    'No endpoints found matching your data policy (Free model publication). Configure: https://openrouter.ai/settings/privacy',
    { error_type: 'not_found' },
    {},
    { availability: { code: 'privacy_restricted', retryable: false, requested_models: [model] } },
  );
}

function insufficientCredits(res: ServerResponse, message: string, limitSource: string): void {
  routerError(res, 402, message, { limit_source: limitSource, error_type: 'payment_required' });
}

async function chat(
  ctx: RouterContext,
  req: IncomingMessage,
  res: ServerResponse,
  key: RouterKey,
  account: RouterAccount,
  request: ChatRequest,
  fault: FaultSpec | undefined,
): Promise<void> {
  const { state } = ctx;
  const requested = findRouterModel(request.model);
  if (!requested)
    return routerError(res, 400, `${request.model} is not a valid model ID`, { error_type: 'invalid_request' });
  // An image to a model whose input_modalities lack "image": no provider of it can take the request.
  if (!requested.images && hasImagePart(request.messages))
    return routerError(res, 404, 'No endpoints found that support image input', { error_type: 'not_found' });

  const balance = state.balance(account);
  if (balance < 0) {
    return insufficientCredits(
      res,
      'Your account has a negative credit balance. Add credits to continue: every request fails, free models included, until the balance is at or above zero. https://openrouter.ai/settings/credits',
      'openrouter_negative_balance',
    );
  }
  const prompt = lastUserText(request.messages);
  const promptTokens = promptTokenCount(allText(request.messages));
  const free = isFreeModel(requested);
  let model: RouterModel = requested;
  let estimate = 0;
  const requestId = `gen-${Math.floor(ctx.now() / 1000)}-${randomBytes(10).toString('hex')}`;

  if (free) {
    if (
      account.denyDataCollection &&
      request.dataCollection !== 'deny' &&
      (requested.id === FREE_ROUTER_ID ? freeModels().every((m) => m.collectsData) : requested.collectsData)
    ) {
      return accountPrivacy404(res, requested.id);
    }
    if (
      request.dataCollection === 'deny' &&
      (requested.id === FREE_ROUTER_ID ? freeModels().every((m) => m.collectsData) : requested.collectsData)
    ) {
      return routerError(
        res,
        404,
        'No endpoints available matching your data policy. Your data-policy preferences (ZDR, training opt-out, free-model publication) eliminated every endpoint.',
        { error_type: 'not_found' },
        {},
        { availability: { code: 'privacy_restricted', retryable: false, requested_models: [requested.id] } },
      );
    }
    const minute = state.freeMinuteWindow(account);
    if (minute.length >= FREE_PER_MINUTE) {
      const reset = minute[0]! + 60_000;
      const headers = freeLimitHeaders(FREE_PER_MINUTE, reset);
      return routerError(
        res,
        429,
        'Rate limit exceeded: free-models-per-min. ',
        {
          error_type: 'rate_limit_exceeded',
          limit_source: 'openrouter_free_tier_minute',
          headers,
          remedy_hint: 'Wait for the per-minute window to pass (see X-RateLimit-Reset).',
        },
        headers,
      );
    }
    const dailyLimit = state.freeDailyLimit(account);
    if (state.freeUsed(account) >= dailyLimit) {
      const headers = freeLimitHeaders(dailyLimit, state.nextFreeDayReset());
      const high = dailyLimit > 50;
      const message = high
        ? 'Rate limit exceeded: free-models-per-day-high-balance. '
        : 'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day';
      return routerError(
        res,
        429,
        message,
        {
          error_type: 'rate_limit_exceeded',
          limit_source: 'openrouter_free_tier_daily',
          headers,
          remedy_hint: high
            ? 'Wait for the daily reset (see X-RateLimit-Reset).'
            : 'Wait for the daily reset (see X-RateLimit-Reset), or purchase credits to raise your free-model daily limit.',
        },
        headers,
      );
    }
    state.recordFreeRequest(account);
    if (requested.id === FREE_ROUTER_ID) model = pick(freeModels(), prompt);
  } else {
    if (requested.id === AUTO_ROUTER_ID) model = findRouterModel(DEFAULT_MODEL)!;
    if (account.denyDataCollection && request.dataCollection !== 'deny' && model.collectsData)
      return accountPrivacy404(res, model.id);
    if (request.dataCollection === 'deny' && model.collectsData) {
      return routerError(
        res,
        404,
        'No endpoints available matching your data policy.',
        { error_type: 'not_found' },
        {},
        { availability: { code: 'privacy_restricted', retryable: false } },
      );
    }
    const maxTokens = request.maxTokens ?? model.maxOutput;
    estimate = money(promptTokens * Number(model.prompt) + maxTokens * Number(model.completion));
    const remaining = state.keyLimitRemaining(key);
    if (remaining !== null && (remaining <= 0 || estimate > remaining)) {
      const affordable = Math.max(
        0,
        Math.floor((remaining - promptTokens * Number(model.prompt)) / Number(model.completion)),
      );
      return insufficientCredits(
        res,
        remaining <= 0
          ? 'Key limit exceeded. This key has reached its credit limit. To increase, visit https://openrouter.ai/settings/keys and raise the limit of this key or create a key with a higher monthly limit'
          : `This request requires more credits, or fewer max_tokens. You requested up to ${maxTokens} tokens, but can only afford ${affordable}. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher monthly limit`,
        'openrouter_key_limit',
      );
    }
    if (balance <= 0)
      return insufficientCredits(
        res,
        'Insufficient credits. Add more using https://openrouter.ai/credits',
        'openrouter_credits',
      );
    const inFlight = state.inFlightTotal(account);
    if (estimate > balance - inFlight) {
      if (inFlight > 0 && estimate <= balance) {
        const retry = String(ctx.config.inFlightRetryAfterSeconds);
        return routerError(
          res,
          402,
          'This request would exceed your available credits given your current in-flight requests. Retry after in-flight requests settle, or add credits.',
          {
            reason: 'in_flight_budget_exhausted',
            limit_source: 'openrouter_in_flight_budget',
            remedy_hint: 'Retry after your in-flight requests settle (see the Retry-After header).',
          },
          { 'Retry-After': retry },
        );
      }
      const affordable = Math.max(
        0,
        Math.floor((balance - inFlight - promptTokens * Number(model.prompt)) / Number(model.completion)),
      );
      return insufficientCredits(
        res,
        `This request requires more credits, or fewer max_tokens. You requested up to ${maxTokens} tokens, but can only afford ${affordable}. To increase, visit https://openrouter.ai/settings/credits and add more credits`,
        'openrouter_credits',
      );
    }
    account.inFlight.set(requestId, estimate);
  }

  const tools = toolPlan(
    model.extraParameters?.length === 0 ? [] : request.tools,
    request.toolChoice,
    lastTurn(request.messages),
  );
  const call = tools && 'call' in tools ? { id: `call_${randomBytes(12).toString('hex')}`, ...tools.call } : undefined;
  const answered = answerPlan(prompt, { tokens: ctx.config.answerTokens });
  const plan = tools && 'answer' in tools ? { tokens: tools.answer, refusal: undefined, filtered: false } : answered;
  // max_tokens cuts the answer where a real model stops: finish_reason "length".
  const cut = !call && request.maxTokens !== undefined && plan.tokens.length > request.maxTokens;
  const tokens = call ? [] : cut ? plan.tokens.slice(0, request.maxTokens) : plan.tokens;
  const refusal = call ? undefined : plan.refusal;
  const finishReason = call ? 'tool_calls' : plan.filtered ? 'content_filter' : cut ? 'length' : 'stop';
  const settle = (completionTokens: number) => {
    account.inFlight.delete(requestId);
    const cost = free ? 0 : money(promptTokens * Number(model.prompt) + completionTokens * Number(model.completion));
    state.spend(account, key, cost);
    return cost;
  };
  const usage = (completionTokens: number, cost: number) => ({
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
    cost,
    is_byok: false,
    cost_details: {
      upstream_inference_cost: null,
      upstream_inference_prompt_cost: 0,
      upstream_inference_completions_cost: 0,
    },
  });
  const created = Math.floor(ctx.now() / 1000);
  const provider = model.id.split('/')[0] === 'openai' ? 'OpenAI' : 'Emulator';
  const signal = clientGone(req, res);
  const outputTokens = refusal ?? tokens;

  if (!request.stream) {
    if (await strikeBeforeResponse(fault, res, signal)) return void settle(0);
    await sleep(ctx.config.tokenDelayMs * outputTokens.length, signal);
    if (signal.aborted) return void settle(0);
    if (fault?.kind === 'error_in_200') {
      settle(0);
      return sendJson(res, 200, {
        error: { message: 'Internal Server Error', code: 500 },
        user_id: `user_${account.id}`,
      });
    }
    const cost = settle(call ? argumentPieces(call.arguments).length : outputTokens.length);
    return sendJson(
      res,
      200,
      {
        id: requestId,
        object: 'chat.completion',
        created,
        model: model.id,
        provider,
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            finish_reason: finishReason,
            native_finish_reason: finishReason,
            logprobs: null,
            message: {
              role: 'assistant',
              content: refusal || call ? null : tokens.join(''),
              refusal: refusal ? refusal.join('') : null,
              reasoning: null,
              ...(call
                ? {
                    tool_calls: [
                      { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
                    ],
                  }
                : {}),
            },
          },
        ],
        usage: usage(outputTokens.length, cost),
      },
      { 'X-Generation-Id': requestId },
    );
  }

  const chunk = (extra: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id: requestId, object: 'chat.completion.chunk', created, model: model.id, provider, ...extra })}\n\n`;
  const writer = new SseWriter(
    res,
    fault,
    {
      errorEvent: () =>
        chunk({
          error: {
            code: 502,
            message: 'Provider disconnected mid-stream',
            metadata: { error_type: 'provider_unavailable' },
          },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        }),
      deltaFrame: (text) => chunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
    },
    signal,
  );
  writer.open({ 'X-Generation-Id': requestId });
  writer.comment('OPENROUTER PROCESSING');
  let sent = 0;
  // A refusal streams in delta.refusal, its first chunk with content null and refusal "" (as recorded).
  if (refusal)
    await writer.frame(
      chunk({
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: null, refusal: '' },
            finish_reason: null,
            native_finish_reason: null,
          },
        ],
      }),
    );
  for (const [i, token] of outputTokens.entries()) {
    if (i > 0) await sleep(ctx.config.tokenDelayMs, signal);
    if (i > 0 && i % 50 === 0) writer.comment('OPENROUTER PROCESSING');
    const delta = refusal ? { refusal: token } : i === 0 ? { role: 'assistant', content: token } : { content: token };
    await writer.frame(chunk({ choices: [{ index: 0, delta, finish_reason: null, native_finish_reason: null }] }));
    if (!writer.live) break;
    sent += 1;
  }
  if (call) {
    // The first piece names the call; the rest carry its arguments (the SDK's ChoiceDeltaToolCall).
    for (const [i, piece] of argumentPieces(call.arguments).entries()) {
      const toolCall =
        i === 0
          ? { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: piece } }
          : { index: 0, function: { arguments: piece } };
      const delta = i === 0 ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { tool_calls: [toolCall] };
      await writer.frame(chunk({ choices: [{ index: 0, delta, finish_reason: null, native_finish_reason: null }] }));
      if (!writer.live) break;
      sent += 1;
    }
  }
  if (!writer.live) return void settle(sent);
  await writer.frame(
    chunk({
      choices: [
        {
          index: 0,
          delta: refusal ? {} : { content: '' },
          finish_reason: finishReason,
          native_finish_reason: finishReason,
        },
      ],
    }),
  );
  const cost = settle(sent);
  await writer.frame(chunk({ choices: [], usage: usage(sent, cost) }));
  if (writer.live) res.write('data: [DONE]\n\n');
  writer.end();
}
