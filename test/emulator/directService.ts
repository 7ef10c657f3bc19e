// The direct model service over HTTP: responses (plain and SSE with named
// events) and the free model list, with the seed's permission, billing, tier
// and rate-limit rules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { answerPlan, promptTokenCount } from './answers.ts';
import { goDuration } from './clock.ts';
import type { FaultSpec } from './faults.ts';
import { BodyError, bearerToken, clientGone, readJsonObject, sendJson, sleep } from './http.ts';
import { money } from './money.ts';
import type { DirectKey, DirectOrg, DirectState } from './directState.ts';
import { type OfferedTool, argumentPieces, readSampling, readToolChoice, readTools, toolPlan } from './tools.ts';
import { SseWriter, strikeBeforeResponse } from './sse.ts';
import type { ServiceConfig } from './routerService.ts';
import { authFailure, directError, missingScopes } from './directAuth.ts';
import { handleOrganization } from './directAdminApi.ts';

export interface DirectModel {
  id: string;
  input: number;
  output: number;
  created: number;
}

export const DIRECT_MODELS: DirectModel[] = [
  { id: 'gpt-5.4', input: 0.00000125, output: 0.00001, created: 1767225600 },
  { id: 'gpt-5.4-mini', input: 0.00000025, output: 0.000002, created: 1767225600 },
  { id: 'gpt-4o-mini', input: 0.00000015, output: 0.0000006, created: 1721172741 },
  { id: 'o3', input: 0.000002, output: 0.000008, created: 1744848000 },
];

export interface DirectContext {
  state: DirectState;
  config: ServiceConfig;
  now: () => number; /** Keeps the request's body with its record (server.ts). */
  record?: (body: Record<string, unknown>) => void;
}

type InputItem = { role: string; content: string };

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let out = '';
  for (const part of content) {
    const p = part && typeof part === 'object' ? (part as Record<string, unknown>) : undefined;
    // An image part carries a URL (a data: URL from Keyward), no text, and a detail: the spec's InputImageContent
    // (and the SDK's ResponseInputImage) require `detail`, one of low, high, auto.
    if (p?.type === 'input_image')
      if (typeof p.image_url === 'string' && ['low', 'high', 'auto'].includes(p.detail as string)) continue;
      else return undefined;
    if (typeof p?.text !== 'string') return undefined;
    out += p.text;
  }
  return out;
}

interface ResponsesRequest {
  model: string;
  items: InputItem[];
  instructions: string | undefined;
  stream: boolean;
  previous: string | undefined;
  maxOutputTokens: number | undefined;
  store: boolean;
  tools: OfferedTool[];
  toolChoice: string | undefined;
  temperature: number | undefined;
  effort: string | undefined;
}

function validate(
  body: Record<string, unknown>,
): ResponsesRequest | { message: string; param: string; code: string | null } {
  if (body.model === undefined)
    return { message: "Missing required parameter: 'model'.", param: 'model', code: 'missing_required_parameter' };
  if (typeof body.model !== 'string')
    return { message: "Invalid type for 'model': expected a string.", param: 'model', code: 'invalid_type' };
  if (body.input === undefined)
    return { message: "Missing required parameter: 'input'.", param: 'input', code: 'missing_required_parameter' };
  let items: InputItem[];
  if (typeof body.input === 'string') items = [{ role: 'user', content: body.input }];
  else if (Array.isArray(body.input)) {
    items = [];
    for (const [i, item] of body.input.entries()) {
      const fields = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
      // Function calls and their outputs (ResponseFunctionToolCall, ResponseInputItem.FunctionCallOutput).
      if (fields.type === 'function_call') {
        if (
          typeof fields.call_id !== 'string' ||
          typeof fields.name !== 'string' ||
          typeof fields.arguments !== 'string'
        )
          return {
            message: `Invalid 'input[${i}]': a function_call needs call_id, name and arguments.`,
            param: `input[${i}]`,
            code: 'invalid_value',
          };
        items.push({ role: 'function_call', content: fields.arguments });
        continue;
      }
      if (fields.type === 'function_call_output') {
        if (typeof fields.call_id !== 'string' || typeof fields.output !== 'string')
          return {
            message: `Invalid 'input[${i}]': a function_call_output needs call_id and output.`,
            param: `input[${i}]`,
            code: 'invalid_value',
          };
        if (
          !body.input.some(
            (other) =>
              other &&
              typeof other === 'object' &&
              (other as Record<string, unknown>).type === 'function_call' &&
              (other as Record<string, unknown>).call_id === fields.call_id,
          ) &&
          body.previous_response_id === undefined
        )
          return {
            message: `No tool call found for function call output with call_id ${fields.call_id}.`,
            param: `input`,
            code: null,
          };
        items.push({ role: 'tool', content: fields.output });
        continue;
      }
      const role = item && typeof item === 'object' ? (item as Record<string, unknown>).role : undefined;
      const content = item && typeof item === 'object' ? textOf((item as Record<string, unknown>).content) : undefined;
      if (
        typeof role !== 'string' ||
        !['user', 'assistant', 'system', 'developer'].includes(role) ||
        content === undefined
      ) {
        return {
          message: `Invalid value for 'input[${i}]': expected a message with a role and text content.`,
          param: `input[${i}]`,
          code: 'invalid_value',
        };
      }
      items.push({ role, content });
    }
  } else
    return {
      message: "Invalid type for 'input': expected a string or an array of input items.",
      param: 'input',
      code: 'invalid_type',
    };
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== 'string')
    return {
      message: "Invalid type for 'instructions': expected a string.",
      param: 'instructions',
      code: 'invalid_type',
    };
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    return { message: "Invalid type for 'stream': expected a boolean.", param: 'stream', code: 'invalid_type' };
  const max = body.max_output_tokens;
  if (max !== undefined && max !== null && (typeof max !== 'number' || !Number.isInteger(max) || max < 16))
    return {
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16.",
      param: 'max_output_tokens',
      code: 'integer_below_min_value',
    };
  if (
    body.previous_response_id !== undefined &&
    body.previous_response_id !== null &&
    typeof body.previous_response_id !== 'string'
  )
    return {
      message: "Invalid type for 'previous_response_id': expected a string.",
      param: 'previous_response_id',
      code: 'invalid_type',
    };
  const tools = readTools(body.tools, 'responses');
  if (typeof tools === 'string') return { message: tools, param: 'tools', code: 'invalid_value' };
  const toolChoice = readToolChoice(body.tool_choice);
  if (toolChoice instanceof Error) return { message: toolChoice.message, param: 'tool_choice', code: 'invalid_value' };
  const reasoningModel = /^(o\d|gpt-5)/.test(body.model);
  const sampling = readSampling(body, { temperature: !reasoningModel, reasoning: reasoningModel }, true);
  if ('message' in sampling) return { ...sampling, code: null };
  return {
    model: body.model,
    items,
    tools,
    toolChoice,
    temperature: sampling.temperature,
    effort: sampling.effort,
    instructions: typeof body.instructions === 'string' ? body.instructions : undefined,
    stream: body.stream === true,
    previous: typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined,
    maxOutputTokens: typeof max === 'number' ? max : undefined,
    store: body.store !== false,
  };
}

export async function handleDirect(
  ctx: DirectContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  fault: FaultSpec | undefined,
): Promise<void> {
  const method = req.method ?? 'GET';
  const requestId = `req_${randomBytes(16).toString('hex')}`;
  res.setHeader('x-request-id', requestId);
  res.setHeader('openai-version', '2020-10-01');
  const route =
    path === '/responses'
      ? 'responses'
      : path === '/models'
        ? 'models'
        : path.startsWith('/organization/')
          ? 'organization'
          : undefined;
  if (!route) return directError(res, 404, `Invalid URL (${method} /v1${path})`, 'invalid_request_error', null);
  if ((route === 'responses' && method !== 'POST') || (route === 'models' && method !== 'GET')) {
    return directError(res, 405, `Invalid method for URL (${method} /v1${path})`, 'invalid_request_error', null);
  }
  const token = bearerToken(req);
  const auth = ctx.state.authenticate(token);
  if ('error' in auth) return authFailure(res, auth.error, token);
  const key = auth.key;
  const org = ctx.state.org(key.orgId);
  res.setHeader('openai-organization', org.id);
  if (route === 'organization') return handleOrganization(ctx, req, res, path, key);
  // An admin key manages the organisation and calls no model: the live answer is "Missing scopes" (README.md).
  const modelScope = route === 'models' ? 'api.model.read' : 'api.responses.write';
  if (key.kind === 'admin') return missingScopes(ctx, res, modelScope);

  if (route === 'models') {
    const missing = ctx.state.missingScope(key, 'api.model.read');
    if (missing) return missingScopes(ctx, res, missing);
    return sendJson(res, 200, {
      object: 'list',
      data: DIRECT_MODELS.map((m) => ({
        id: m.id,
        object: 'model',
        created: m.created,
        owned_by: 'openai',
        shutdown_date: null,
      })),
    });
  }

  const missing = ctx.state.missingScope(key, 'api.responses.write');
  if (missing) return missingScopes(ctx, res, missing);
  let body: Record<string, unknown>;
  try {
    body = await readJsonObject(req);
    ctx.record?.(body);
  } catch (error) {
    if (error instanceof BodyError)
      return directError(res, error.reason === 'too_large' ? 413 : 400, error.message, 'invalid_request_error', null);
    throw error;
  }
  const request = validate(body);
  if ('message' in request)
    return directError(res, 400, request.message, 'invalid_request_error', request.code, request.param);
  return respond(ctx, req, res, key, org, request, fault);
}

function quota(res: ServerResponse, code: string, message: string): void {
  directError(res, 429, message, 'insufficient_quota', code);
}

async function respond(
  ctx: DirectContext,
  req: IncomingMessage,
  res: ServerResponse,
  key: DirectKey,
  org: DirectOrg,
  request: ResponsesRequest,
  fault: FaultSpec | undefined,
): Promise<void> {
  const { state } = ctx;
  const model = DIRECT_MODELS.find((m) => m.id === request.model);
  if (!model)
    return directError(
      res,
      400,
      `The requested model '${request.model}' does not exist.`,
      'invalid_request_error',
      'model_not_found',
      'model',
    );
  let transcript: InputItem[] = [];
  if (request.previous) {
    const previous = state.responses.get(request.previous);
    if (!previous || previous.orgId !== org.id)
      return directError(
        res,
        400,
        `Previous response with id '${request.previous}' not found.`,
        'invalid_request_error',
        'previous_response_not_found',
        'previous_response_id',
      );
    transcript = [...previous.transcript];
  }
  transcript.push(...request.items);

  const project = state.project(org, key.projectId);
  if (state.balance(org) <= 0)
    return quota(
      res,
      'credit_balance_exhausted',
      'You have no credits remaining. Add credits to continue using the API at https://platform.openai.com/settings/organization/billing/.',
    );
  if (project.spendLimit !== null && state.projectMonthSpend(project) >= project.spendLimit)
    return quota(
      res,
      'project_spend_limit_exceeded',
      `Project ${project.name} has reached its monthly spend limit. Raise the limit in the project's limits settings.`,
    );
  if (org.spendLimit !== null && state.monthSpend(org) >= org.spendLimit)
    return quota(
      res,
      'organization_spend_limit_exceeded',
      'Your organization has reached its monthly spend limit. Raise the limit in the billing settings.',
    );
  const tier = state.tier(org);
  if (state.monthSpend(org) >= tier.monthlyLimit)
    return quota(
      res,
      'organization_usage_limit_exceeded',
      `Your organization has reached its monthly usage limit of $${tier.monthlyLimit} for the ${tier.tier} usage tier. Buy more credits to move to the next tier.`,
    );

  const promptTokens = promptTokenCount([request.instructions ?? '', ...transcript.map((t) => t.content)].join('\n'));
  const window = state.rateWindow(org, project.id);
  const tokensUsed = window.reduce((sum, entry) => sum + entry.tokens, 0);
  const now = ctx.now();
  const resetMs = window.length > 0 ? window[0]!.at + 60_000 - now : 0;
  const rateHeaders = (requestsLeft: number, tokensLeft: number) => ({
    'x-ratelimit-limit-requests': String(tier.rpm),
    'x-ratelimit-remaining-requests': String(Math.max(0, requestsLeft)),
    'x-ratelimit-reset-requests': goDuration(Math.max(resetMs, requestsLeft < tier.rpm ? 60_000 / tier.rpm : 0)),
    'x-ratelimit-limit-tokens': String(tier.tpm),
    'x-ratelimit-remaining-tokens': String(Math.max(0, tokensLeft)),
    'x-ratelimit-reset-tokens': goDuration(Math.max(resetMs, 0)),
  });
  if (promptTokens > tier.tpm) {
    // One request bigger than the whole minute's budget: no wait makes it fit (wire facts B5, response.failed fixture).
    return directError(
      res,
      429,
      `Request too large for ${model.id} in organization ${org.id} on tokens per min (TPM): Limit ${tier.tpm}, Requested ${promptTokens}. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.`,
      'tokens',
      'rate_limit_exceeded',
      null,
      rateHeaders(tier.rpm - window.length, tier.tpm - tokensUsed),
    );
  }
  if (window.length >= tier.rpm) {
    const wait = Math.ceil(resetMs / 1000);
    return directError(
      res,
      429,
      `Rate limit reached for ${model.id} in organization ${org.id} on requests per min (RPM): Limit ${tier.rpm}, Used ${window.length}, Requested 1. Please try again in ${wait}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
      'requests',
      'rate_limit_exceeded',
      null,
      { ...rateHeaders(0, tier.tpm - tokensUsed), 'retry-after': String(wait) },
    );
  }
  if (tokensUsed + promptTokens > tier.tpm) {
    const wait = Math.ceil(resetMs / 1000);
    return directError(
      res,
      429,
      `Rate limit reached for ${model.id} in organization ${org.id} on tokens per min (TPM): Limit ${tier.tpm}, Used ${tokensUsed}, Requested ${promptTokens}. Please try again in ${wait}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
      'tokens',
      'rate_limit_exceeded',
      null,
      { ...rateHeaders(tier.rpm - window.length, 0), 'retry-after': String(wait) },
    );
  }
  window.push({ at: now, tokens: promptTokens });
  for (const [name, value] of Object.entries(
    rateHeaders(tier.rpm - window.length, tier.tpm - tokensUsed - promptTokens),
  ))
    res.setHeader(name, value);

  const lastUser =
    [...transcript].reverse().find((t) => t.role === 'user')?.content ?? transcript.at(-1)?.content ?? '';
  const lastItem = transcript.at(-1);
  const tools = toolPlan(
    request.tools,
    request.toolChoice,
    lastItem?.role === 'tool'
      ? { kind: 'toolResult', text: lastItem.content }
      : lastItem?.role === 'user'
        ? { kind: 'user', text: lastItem.content }
        : undefined,
  );
  const call =
    tools && 'call' in tools
      ? {
          id: `fc_${randomBytes(24).toString('hex')}`,
          callId: `call_${randomBytes(12).toString('hex')}`,
          ...tools.call,
        }
      : undefined;
  const answered = answerPlan(lastUser, { tokens: ctx.config.answerTokens });
  const plan = call
    ? { tokens: [], refusal: null, filtered: false }
    : tools && 'answer' in tools
      ? { tokens: tools.answer, refusal: null, filtered: false }
      : answered;
  const refusal = plan.refusal;
  const cut = request.maxOutputTokens !== undefined && plan.tokens.length > request.maxOutputTokens;
  const tokens = cut ? plan.tokens.slice(0, request.maxOutputTokens) : plan.tokens;
  const callItem = (status: string) =>
    call && {
      id: call.id,
      type: 'function_call',
      status,
      call_id: call.callId,
      name: call.name,
      arguments: status === 'completed' ? call.arguments : '',
    };
  /** The output items: the message, or the function call when the model calls a tool. */
  const outputOf = (text: string, status: string) => (call ? [callItem('completed')] : [message(text, status)]);
  const incompleteReason = plan.filtered ? 'content_filter' : cut ? 'max_output_tokens' : null;
  const outputTokens = refusal ?? tokens;
  const responseId = `resp_${randomBytes(24).toString('hex')}`;
  const messageId = `msg_${randomBytes(24).toString('hex')}`;
  const createdAt = Math.floor(now / 1000);
  const signal = clientGone(req, res);

  const settle = (outputCount: number) => {
    const [input, output] = [money(promptTokens * model.input), money(outputCount * model.output)];
    state.spend(org, project, money(input + output), {
      keyId: key.id,
      lines: [
        { item: `${model.id}, input`, amount: input },
        { item: `${model.id}, output`, amount: output },
      ],
    });
  };
  const usage = (outputCount: number) => ({
    input_tokens: promptTokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: outputCount,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: promptTokens + outputCount,
  });
  // A refusal is its own content part: {"type":"refusal","refusal":"..."}.
  const part = (text: string) =>
    refusal ? { type: 'refusal', refusal: text } : { type: 'output_text', text, annotations: [], logprobs: [] };
  const message = (text: string, status: string) => ({
    id: messageId,
    type: 'message',
    status,
    role: 'assistant',
    content: [part(text)],
  });
  const responseObject = (status: string, output: unknown[], usageValue: unknown, error: unknown = null) => ({
    id: responseId,
    object: 'response',
    created_at: createdAt,
    status,
    completed_at: status === 'completed' ? Math.floor(ctx.now() / 1000) : null,
    error,
    incomplete_details: status === 'incomplete' ? { reason: incompleteReason } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.maxOutputTokens ?? null,
    model: model.id,
    output,
    parallel_tool_calls: true,
    previous_response_id: request.previous ?? null,
    reasoning: { effort: request.effort ?? null, summary: null },
    store: request.store,
    temperature: request.temperature ?? 1,
    text: { format: { type: 'text' } },
    tool_choice: request.toolChoice ?? 'auto',
    tools: request.tools.map((t) => ({ type: 'function', name: t.name, strict: false })),
    top_p: 1,
    truncation: 'disabled',
    usage: usageValue,
    user: null,
    metadata: {},
  });
  const finish = (text: string) => {
    if (request.store)
      state.responses.set(responseId, {
        id: responseId,
        orgId: org.id,
        transcript: [...transcript, { role: 'assistant', content: text }],
      });
  };
  const status = incompleteReason ? 'incomplete' : 'completed';

  if (!request.stream) {
    if (await strikeBeforeResponse(fault, res, signal)) return settle(0);
    await sleep(ctx.config.tokenDelayMs * outputTokens.length, signal);
    if (signal.aborted) return settle(0);
    settle(outputTokens.length);
    const text = outputTokens.join('');
    finish(text);
    return sendJson(res, 200, responseObject(status, outputOf(text, status), usage(outputTokens.length)));
  }

  let sequence = 0;
  let sent = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: sequence++ })}\n\n`;
  const writer = new SseWriter(
    res,
    fault,
    {
      errorEvent: () => {
        const fields = {
          code: 'server_error',
          message: 'The server had an error while processing your request. Sorry about that!',
          param: null,
        };
        const errorFrame =
          fault?.shape === 'top'
            ? event('error', fields)
            : event('error', { error: { type: 'server_error', ...fields } });
        // The failed response says what the broken answer used: those tokens are charged.
        return (
          errorFrame +
          event('response.failed', {
            response: responseObject('failed', [], usage(sent), { code: 'server_error', message: fields.message }),
          })
        );
      },
      deltaFrame: (text) =>
        event('response.output_text.delta', {
          item_id: messageId,
          output_index: 0,
          content_index: 0,
          delta: text,
          logprobs: [],
        }),
    },
    signal,
  );
  writer.open({});
  await writer.frame(event('response.created', { response: responseObject('in_progress', [], null) }));
  await writer.frame(event('response.in_progress', { response: responseObject('in_progress', [], null) }));
  if (call) {
    await writer.frame(event('response.output_item.added', { output_index: 0, item: callItem('in_progress') }));
    for (const piece of argumentPieces(call.arguments)) {
      await writer.frame(
        event('response.function_call_arguments.delta', { item_id: call.id, output_index: 0, delta: piece }),
      );
      if (!writer.live) return settle(sent);
      sent += 1;
    }
    await writer.frame(
      event('response.function_call_arguments.done', { item_id: call.id, output_index: 0, arguments: call.arguments }),
    );
    await writer.frame(event('response.output_item.done', { output_index: 0, item: callItem('completed') }));
    settle(sent);
    finish('');
    await writer.frame(
      event('response.completed', { response: responseObject('completed', outputOf('', 'completed'), usage(sent)) }),
    );
    return writer.end();
  }
  await writer.frame(
    event('response.output_item.added', {
      output_index: 0,
      item: { id: messageId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    }),
  );
  await writer.frame(
    event('response.content_part.added', { item_id: messageId, output_index: 0, content_index: 0, part: part('') }),
  );
  const deltaType = refusal ? 'response.refusal.delta' : 'response.output_text.delta';
  for (const [i, token] of outputTokens.entries()) {
    if (i > 0) await sleep(ctx.config.tokenDelayMs, signal);
    await writer.frame(
      event(deltaType, {
        item_id: messageId,
        output_index: 0,
        content_index: 0,
        delta: token,
        ...(refusal ? {} : { logprobs: [] }),
      }),
    );
    if (!writer.live) break;
    sent += 1;
  }
  settle(sent);
  if (!writer.live) return;
  const text = outputTokens.join('');
  await writer.frame(
    refusal
      ? event('response.refusal.done', { item_id: messageId, output_index: 0, content_index: 0, refusal: text })
      : event('response.output_text.done', {
          item_id: messageId,
          output_index: 0,
          content_index: 0,
          text,
          logprobs: [],
        }),
  );
  await writer.frame(
    event('response.content_part.done', { item_id: messageId, output_index: 0, content_index: 0, part: part(text) }),
  );
  await writer.frame(event('response.output_item.done', { output_index: 0, item: message(text, status) }));
  finish(text);
  await writer.frame(
    event(incompleteReason ? 'response.incomplete' : 'response.completed', {
      response: responseObject(status, [message(text, status)], usage(sent)),
    }),
  );
  writer.end();
}
