// The chat-completions client: the routing service (with its key check,
// credits and free models) and any OpenAI-compatible endpoint share it, told
// apart by the service id and its row in core/services/descriptors.ts. No vscode import;
// tested over HTTP against the emulator.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { classifyError, classifyResponse } from '../classify.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import { chatFinishReason } from './finishReason.ts';
import { type Json, num, obj, parseObject } from '../json.ts';
import { parseToolArguments } from '../lm/messages.ts';
import type { FreeModelGuard, FreeDailyRequests } from './freeGuard.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../retryPolicy.ts';
import { sseEvents } from '../sse.ts';
import {
  type CompletionResult,
  type Piece,
  type ReportedUsage,
  type RetryNotice,
  TextStream,
  abortableSleep,
  answerBody,
} from './textStream.ts';
import { SERVICES } from '../services/descriptors.ts';
import { FREE_ROUTER_MODEL, isFreeModelId } from './freeModels.ts';
import { routerDescriptor } from '../services/routerDescriptor.ts';
import { STREAM_USAGE_SUPPORT, type StreamUsageSupport, refusesStreamOptions } from './streamUsageSupport.ts';
import { type HttpResponse, Transport, type TransportOptions } from '../transport.ts';

export { FREE_ROUTER_MODEL, isFreeModelId };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  model: string;
  /** Plain turns, or wire messages already mapped (tool calls and results, images: core/lm/messages.ts). */
  messages: readonly (ChatMessage | Json)[];
  maxTokens?: number;
  temperature?: number;
  /** Sent as `reasoning: {effort}`, the routing service's unified form (its API reference, "Reasoning tokens"). */
  reasoningEffort?: string;
  /** Function tools in the wire form (`toChatTools`). */
  tools?: Json[];
  toolChoice?: 'auto' | 'required';
  /** Send `provider: {data_collection: "deny"}`: only providers that do not train on prompts. */
  denyDataCollection?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  stream?: boolean;
  onRetry?: (notice: RetryNotice) => void;
  /** Called when the free-model guard holds a request back to fit the minute window. */
  onFreeWait?: (delayMs: number) => void;
}

export interface RouterKeyInfo {
  label: string;
  limit: number | null;
  limitRemaining: number | null;
  limitReset: string | null;
  usage: number;
  usageDaily: number;
  isFreeTier: boolean;
  isManagementKey: boolean;
  expiresAt: string | null;
  freeModelDailyRequests: FreeDailyRequests | null;
}

export interface RouterModelInfo {
  id: string;
  name: string;
  /** USD per token; null when the price varies (dynamic routers send "-1"). */
  promptPrice: number | null;
  completionPrice: number | null;
  free: boolean;
  contextLength: number | null;
  /** top_provider.max_completion_tokens. */
  maxOutputTokens: number | null;
  /** The request fields the model takes (`supported_parameters`); null when the list does not say. */
  supportedParameters: string[] | null;
  /** architecture.input_modalities. */
  inputModalities: string[];
}

export interface RouterCredits {
  totalCredits: number;
  totalUsage: number;
  balance: number;
}

export interface ChatCompletionsClientOptions extends TransportOptions {
  baseUrl: string;
  /** May be empty where the service's key is optional: then no Authorization header is sent. */
  key: string;
  /** A chat-completions service (core/services/descriptors.ts); the routing service when absent. */
  service?: ServiceId;
  retry?: RetryPolicy;
  freeGuard?: FreeModelGuard;
  /** Which servers refused `stream_options`; the process-wide memory when absent. */
  streamUsage?: StreamUsageSupport;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function strings(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

/** Free means a `:free` id or both prices "0"; "-1" is a variable price, not free. */
export function parseRouterModel(raw: Json): RouterModelInfo | undefined {
  if (typeof raw.id !== 'string') return undefined;
  const pricing = obj(raw.pricing) ?? {};
  const price = (value: unknown): number | null => {
    const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
    return Number.isFinite(n) && n >= 0 ? n : null;
  };
  const promptPrice = price(pricing.prompt);
  const completionPrice = price(pricing.completion);
  return {
    id: raw.id,
    name: typeof raw.name === 'string' ? raw.name : raw.id,
    promptPrice,
    completionPrice,
    free: raw.id.endsWith(':free') || (pricing.prompt === '0' && pricing.completion === '0'),
    contextLength: num(raw.context_length),
    maxOutputTokens: num(obj(raw.top_provider)?.max_completion_tokens),
    supportedParameters: strings(raw.supported_parameters),
    inputModalities: strings(obj(raw.architecture)?.input_modalities) ?? ['text'],
  };
}

export class ChatCompletionsClient {
  readonly service: ServiceId;
  private readonly transport: Transport;
  private readonly options: ChatCompletionsClientOptions;

  constructor(options: ChatCompletionsClientOptions) {
    this.options = options;
    this.service = options.service ?? routerDescriptor.id;
    if (SERVICES[this.service].wire !== 'chat-completions')
      throw new Error(`The ${SERVICE_NAMES[this.service]} does not speak chat completions.`);
    this.transport = new Transport(this.service, options.baseUrl, options);
  }

  /** The path the service's row names; the clients hard-code none. */
  private endpoint(name: 'keyCheck' | 'credits' | 'models'): string {
    const path = SERVICES[this.service].endpoints[name];
    if (path === null) throw new Error(`The ${SERVICE_NAMES[this.service]} has no ${name} endpoint.`);
    return path;
  }

  private secrets(): string[] {
    return this.options.key ? [this.options.key] : [];
  }

  private notJson(status: number): ServiceError {
    return new ServiceError({
      kind: 'server',
      service: this.service,
      status,
      message: `The ${SERVICE_NAMES[this.service]} sent a response that is not JSON.`,
    });
  }

  /** `request`: what a chat request sent, so an error whose cause depends on it (a 404 data policy) can say which applies. */
  private fail(response: HttpResponse, text: string, request?: { denyDataCollection: boolean }): ServiceError {
    return classifyResponse(this.service, {
      status: response.status,
      text,
      header: response.header,
      now: this.now(),
      secrets: this.secrets(),
      request,
    });
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private streamUsage(): StreamUsageSupport {
    return this.options.streamUsage ?? STREAM_USAGE_SUPPORT;
  }

  private async getJson(path: string, signal?: AbortSignal): Promise<Json> {
    const response = await this.transport.send({ method: 'GET', path, key: this.options.key, signal });
    const text = await response.text();
    if (response.status >= 400) throw this.fail(response, text);
    const body = parseObject(text);
    if (!body) throw this.notJson(response.status);
    return body;
  }

  async keyInfo(signal?: AbortSignal): Promise<RouterKeyInfo> {
    const data = obj((await this.getJson(this.endpoint('keyCheck'), signal)).data) ?? {};
    const free = obj(data.free_model_daily_requests);
    const info: RouterKeyInfo = {
      label: typeof data.label === 'string' ? data.label : '',
      limit: num(data.limit),
      limitRemaining: num(data.limit_remaining),
      limitReset: typeof data.limit_reset === 'string' ? data.limit_reset : null,
      usage: num(data.usage) ?? 0,
      usageDaily: num(data.usage_daily) ?? 0,
      isFreeTier: data.is_free_tier === true,
      isManagementKey: data.is_management_key === true || data.is_provisioning_key === true,
      expiresAt: typeof data.expires_at === 'string' ? data.expires_at : null,
      freeModelDailyRequests:
        free && num(free.limit) !== null
          ? { used: num(free.used) ?? 0, limit: num(free.limit)!, remaining: num(free.remaining) ?? 0 }
          : null,
    };
    this.options.freeGuard?.updateFromKeyCheck(info.freeModelDailyRequests);
    return info;
  }

  /** The account's credits, or null when the key may not read them (403: management keys only). */
  async credits(signal?: AbortSignal): Promise<RouterCredits | null> {
    try {
      const data = obj((await this.getJson(this.endpoint('credits'), signal)).data) ?? {};
      const totalCredits = num(data.total_credits) ?? 0;
      const totalUsage = num(data.total_usage) ?? 0;
      return { totalCredits, totalUsage, balance: Math.round((totalCredits - totalUsage) * 1e8) / 1e8 };
    } catch (error) {
      if (error instanceof ServiceError && (error.status === 403 || error.status === 401)) return null;
      throw error;
    }
  }

  async models(signal?: AbortSignal): Promise<RouterModelInfo[]> {
    const data = (await this.getJson(this.endpoint('models'), signal)).data;
    if (!Array.isArray(data)) return [];
    return data
      .map((m) => obj(m))
      .filter((m): m is Json => m !== undefined)
      .map(parseRouterModel)
      .filter((m): m is RouterModelInfo => m !== undefined);
  }

  /** A chat completion as a stream of text deltas (stream: false still yields the whole text once). */
  chat(request: ChatRequest, options: CallOptions = {}): TextStream {
    const stream = options.stream !== false;
    const body: Json = { model: request.model, messages: request.messages, stream };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.reasoningEffort !== undefined) body.reasoning = { effort: request.reasoningEffort };
    if (request.tools && request.tools.length > 0) {
      body.tools = request.tools;
      if (request.toolChoice) body.tool_choice = request.toolChoice;
    }
    if (request.denyDataCollection && SERVICES[this.service].capabilities.hasDataCollectionOptOut)
      body.provider = { data_collection: 'deny' };
    if (
      stream &&
      SERVICES[this.service].capabilities.streamUsageOnRequest &&
      this.streamUsage().asks(this.options.baseUrl)
    )
      body.stream_options = { include_usage: true };
    const sleep = this.options.sleep ?? abortableSleep;
    const free = SERVICES[this.service].capabilities.hasFreeModels && isFreeModelId(request.model);
    return new TextStream(this.service, () => this.chatAttempt(body, stream, free, options, sleep), {
      signal: options.signal,
      retry: this.options.retry ?? DEFAULT_RETRY_POLICY,
      onRetry: options.onRetry,
      sleep,
    });
  }

  private async *chatAttempt(
    body: Json,
    stream: boolean,
    free: boolean,
    options: CallOptions,
    sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ): AsyncGenerator<Piece, CompletionResult> {
    const guard = this.options.freeGuard;
    if (free && guard) {
      const wait = guard.delayBeforeFreeRequest();
      if (wait > 0) {
        options.onFreeWait?.(wait);
        await sleep(wait, options.signal);
      }
    }
    const send = () =>
      this.transport.send({
        method: 'POST',
        path: SERVICES[this.service].endpoints.chat,
        key: this.options.key,
        body,
        signal: options.signal,
        accept: stream ? 'text/event-stream' : 'application/json',
      });
    let response = await send();
    let errorText: string | undefined;
    if (response.status >= 400) {
      errorText = await response.text();
      // A server that does not know the field: once without it, and never again for this base URL.
      if (body.stream_options !== undefined && refusesStreamOptions(response.status, errorText)) {
        this.streamUsage().refuse(this.options.baseUrl);
        delete body.stream_options;
        response = await send();
        errorText = response.status >= 400 ? await response.text() : undefined;
      }
    }
    if (errorText !== undefined) {
      const error = this.fail(response, errorText, {
        denyDataCollection: obj(body.provider)?.data_collection === 'deny',
      });
      if (error.kind === 'free_limit_day') {
        const limit = Number(response.header('x-ratelimit-limit'));
        guard?.markDayExhausted(Number.isInteger(limit) && limit > 0 ? limit : undefined);
      }
      throw error;
    }
    if (free) guard?.recordFreeRequest();
    return stream ? yield* this.readStream(response, options.signal) : yield* this.readWhole(response);
  }

  private async *readWhole(response: HttpResponse): AsyncGenerator<Piece, CompletionResult> {
    const text = await response.text();
    const body = parseObject(text);
    if (!body) throw this.notJson(response.status);
    const error = obj(body.error);
    // HTTP 200 with an error object instead of choices happens.
    if (error)
      throw classifyError(
        this.service,
        error,
        typeof error.code === 'number' ? error.code : 500,
        this.context(response),
      );
    const choice = obj(Array.isArray(body.choices) ? body.choices[0] : undefined);
    const message = obj(choice?.message);
    const content = typeof message?.content === 'string' ? message.content : '';
    const refusal = typeof message?.refusal === 'string' && message.refusal.length > 0 ? message.refusal : '';
    const reported = reportedUsage(obj(body.usage));
    if (reported) yield { reported };
    const choiceError = obj(choice?.error);
    if (choiceError) {
      if (content) yield content;
      throw classifyError(
        this.service,
        choiceError,
        typeof choiceError.code === 'number' ? choiceError.code : 502,
        this.context(response),
      );
    }
    if (content) yield content;
    if (refusal) yield { refusal };
    for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
      const c = obj(call);
      const fn = obj(c?.function);
      if (typeof c?.id === 'string' && typeof fn?.name === 'string')
        yield {
          toolCall: {
            callId: c.id,
            name: fn.name,
            input: parseToolArguments(typeof fn.arguments === 'string' ? fn.arguments : ''),
          },
        };
    }
    const finish = chatFinishReason(choice?.finish_reason);
    if (finish === 'error') throw providerEnded(this.service, content);
    return this.result(body, content, refusal, choice, 0);
  }

  private async *readStream(
    response: HttpResponse,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<Piece, CompletionResult> {
    let text = '';
    let refusal = '';
    let last: Json = {};
    let finishChoice: Json | undefined;
    let usage: Json | undefined;
    let skipped = 0;
    let done = false;
    // A tool call streams in pieces keyed by index: the first names it, the rest add to its arguments.
    const calls = new Map<number, { id: string; name: string; args: string }>();
    for await (const events of sseEvents(answerBody(response.body, this.service, signal))) {
      let batch = '';
      let refusalBatch = '';
      for (const event of events) {
        if (event.data === '[DONE]') {
          done = true;
          break;
        }
        const chunk = parseObject(event.data);
        if (!chunk) {
          skipped += 1;
          continue;
        }
        const chunkUsage = obj(chunk.usage);
        if (chunkUsage) {
          usage = chunkUsage;
          const reported = reportedUsage(chunkUsage);
          if (reported) yield { reported };
        }
        const error = obj(chunk.error);
        if (error) {
          if (batch) yield batch;
          if (refusalBatch) yield { refusal: refusalBatch };
          const code = typeof error.code === 'number' ? error.code : 502;
          throw classifyError(this.service, error, code, this.context(response));
        }
        last = chunk;
        const choice = obj(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined);
        const delta = obj(choice?.delta);
        if (typeof delta?.content === 'string' && delta.content.length > 0) {
          text += delta.content;
          batch += delta.content;
        }
        // A refusal streams in its own field; its first chunk carries content null and refusal "".
        if (typeof delta?.refusal === 'string' && delta.refusal.length > 0) {
          refusal += delta.refusal;
          refusalBatch += delta.refusal;
        }
        for (const raw of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
          const piece = obj(raw);
          const index = num(piece?.index) ?? calls.size;
          const fn = obj(piece?.function);
          const call = calls.get(index) ?? { id: '', name: '', args: '' };
          if (typeof piece?.id === 'string' && piece.id) call.id = piece.id;
          if (typeof fn?.name === 'string' && fn.name) call.name = fn.name;
          if (typeof fn?.arguments === 'string') call.args += fn.arguments;
          calls.set(index, call);
        }
        if (choice && typeof choice.finish_reason === 'string') finishChoice = choice;
      }
      if (batch) yield batch;
      if (refusalBatch) yield { refusal: refusalBatch };
      if (done) break;
    }
    if (!done && finishChoice === undefined && usage === undefined) {
      throw new ServiceError({
        kind: 'network',
        service: this.service,
        message: `The ${SERVICE_NAMES[this.service]} closed the stream before the answer was complete.`,
      });
    }
    if (chatFinishReason(finishChoice?.finish_reason) === 'error') throw providerEnded(this.service, text);
    for (const [, call] of [...calls].sort(([a], [b]) => a - b))
      if (call.name) yield { toolCall: { callId: call.id, name: call.name, input: parseToolArguments(call.args) } };
    return this.result({ ...last, usage }, text, refusal, finishChoice, skipped);
  }

  private context(response: HttpResponse) {
    return { header: response.header, now: this.now(), secrets: this.secrets() };
  }

  private result(
    body: Json,
    text: string,
    refusal: string,
    choice: Json | undefined,
    skipped: number,
  ): CompletionResult {
    const reported = reportedUsage(obj(body.usage));
    return {
      service: this.service,
      text,
      model: typeof body.model === 'string' ? body.model : '',
      usage: reported?.usage ?? null,
      costUsd: reported?.costUsd ?? null,
      id: typeof body.id === 'string' ? body.id : null,
      finishReason: chatFinishReason(choice?.finish_reason),
      nativeFinishReason: typeof choice?.native_finish_reason === 'string' ? choice.native_finish_reason : null,
      refusal: refusal || null,
      skippedEvents: skipped,
    };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

function reportedUsage(usage: Json | undefined): ReportedUsage | null {
  if (!usage) return null;
  const input = num(usage.prompt_tokens);
  const output = num(usage.completion_tokens);
  const cost = num(usage.cost);
  if (input === null && output === null && cost === null) return null;
  return {
    usage:
      input === null && output === null
        ? null
        : {
            inputTokens: input ?? 0,
            outputTokens: output ?? 0,
            totalTokens: num(usage.total_tokens) ?? (input ?? 0) + (output ?? 0),
          },
    costUsd: cost,
  };
}

/** finish_reason "error" without an error object: the provider gave up, whatever arrived before. */
function providerEnded(service: ServiceId, text: string): ServiceError {
  return new ServiceError({
    kind: 'server',
    service,
    code: 'error',
    message: 'The provider ended the answer with an error (finish_reason "error") and gave no reason.',
    ...(text ? { partialText: text } : {}),
  });
}
