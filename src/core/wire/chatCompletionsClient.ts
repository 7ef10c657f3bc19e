// The chat-completions client: the routing service (with its key check,
// credits and free models) and any OpenAI-compatible endpoint share it, told
// apart by the profile their service's module passes in (wireProfile.ts). No vscode import;
// tested over HTTP against the emulator.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { classifyResponse } from '../classify.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import { type AnswerReader, readStreamedAnswer, readWholeAnswer } from './chatCompletionsAnswer.ts';
import { type Json, num, obj, parseObject } from '../json.ts';
import type { FreeModelGuard, FreeDailyRequests } from './freeGuard.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../retryPolicy.ts';
import { type CompletionResult, type Piece, type RetryNotice, TextStream, abortableSleep } from './textStream.ts';
import { FREE_ROUTER_MODEL, isFreeModelId } from './freeModels.ts';
import type { WireProfile } from './wireProfile.ts';
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
  /** The chat-completions service's profile: its module's descriptor (core/services/<id>.ts). */
  profile: WireProfile;
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
    this.service = options.profile.id;
    if (options.profile.wire !== 'chat-completions')
      throw new Error(`The ${SERVICE_NAMES[this.service]} does not speak chat completions.`);
    this.transport = new Transport(this.service, options.baseUrl, options);
  }

  /** The path the service's row names; the clients hard-code none. */
  private endpoint(name: 'keyCheck' | 'credits' | 'models'): string {
    const path = this.options.profile.endpoints[name];
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
    if (request.denyDataCollection && this.options.profile.capabilities.hasDataCollectionOptOut)
      body.provider = { data_collection: 'deny' };
    if (
      stream &&
      this.options.profile.capabilities.streamUsageOnRequest &&
      this.streamUsage().asks(this.options.baseUrl)
    )
      body.stream_options = { include_usage: true };
    const sleep = this.options.sleep ?? abortableSleep;
    const free = this.options.profile.capabilities.hasFreeModels && isFreeModelId(request.model);
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
        path: this.options.profile.endpoints.chat,
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
    return stream
      ? yield* readStreamedAnswer(response, options.signal, this.reader())
      : yield* readWholeAnswer(response, this.reader());
  }

  /** What reading an answer needs of this client. */
  private reader(): AnswerReader {
    return {
      service: this.service,
      context: (response) => ({ header: response.header, now: this.now(), secrets: this.secrets() }),
      notJson: (status) => this.notJson(status),
    };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
