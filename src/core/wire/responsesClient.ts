// The direct service client: responses (streamed or not, multi-turn) and the
// free model list. The answer text is assembled from output[] message items:
// `output_text` exists only in the SDKs, not on the wire.
import { classifyOpenAiError, classifyOpenAiResponse } from '../classify.ts';
import { ServiceError } from '../errors.ts';
import { responseFinish } from './finishReason.ts';
import { type Json, num, obj, parseObject } from '../json.ts';
import { type ToolCall, parseToolArguments } from '../lm/messages.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../retryPolicy.ts';
import { type SseEvent, sseEvents } from '../sse.ts';
import {
  type CompletionResult,
  type Piece,
  type ReportedUsage,
  type RetryNotice,
  TextStream,
  answerBody,
} from './textStream.ts';
import { type HttpResponse, Transport, type TransportOptions } from '../transport.ts';
import { parseGoDuration } from '../waitTimes.ts';
import type { ServiceEndpoints, WireProfile } from './wireProfile.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';

export interface InputMessage {
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string;
}

export interface ResponsesRequest {
  model: string;
  /** Text, plain turns, or input items already mapped (function calls and outputs, images: core/lm/messages.ts). */
  input: string | InputMessage[] | Json[];
  instructions?: string;
  previousResponseId?: string;
  maxOutputTokens?: number;
  temperature?: number;
  reasoningEffort?: string;
  /** Function tools in the wire form (`toResponsesTools`). */
  tools?: Json[];
  toolChoice?: 'auto' | 'required';
}

export interface DirectCallOptions {
  signal?: AbortSignal | undefined;
  stream?: boolean;
  onRetry?: (notice: RetryNotice) => void;
}

/** The x-ratelimit-* headers of the last response, as numbers and seconds. */
export interface RateLimits {
  limitRequests: number | null;
  remainingRequests: number | null;
  resetRequestsSeconds: number | null;
  limitTokens: number | null;
  remainingTokens: number | null;
  resetTokensSeconds: number | null;
  at: number;
}

export interface ResponsesClientOptions extends TransportOptions {
  baseUrl: string;
  key: string;
  /** The Responses service's profile: its module's descriptor (core/services/<id>.ts). */
  profile: WireProfile;
  retry?: RetryPolicy;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function messageParts(response: Json, type: string, field: string): string {
  const output = Array.isArray(response.output) ? response.output : [];
  let text = '';
  for (const item of output) {
    const message = obj(item);
    if (message?.type !== 'message' || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      const p = obj(part);
      if (p?.type === type && typeof p[field] === 'string') text += p[field];
    }
  }
  return text;
}

/** A `function_call` output item as a tool call, or undefined for any other item. */
function functionCall(item: unknown): ToolCall | undefined {
  const call = obj(item);
  if (call?.type !== 'function_call' || typeof call.name !== 'string') return undefined;
  const callId = typeof call.call_id === 'string' ? call.call_id : typeof call.id === 'string' ? call.id : '';
  return {
    callId,
    name: call.name,
    input: parseToolArguments(typeof call.arguments === 'string' ? call.arguments : ''),
  };
}

/** The function calls among a response's output items. */
export function outputToolCalls(response: Json): ToolCall[] {
  const output = Array.isArray(response.output) ? response.output : [];
  return output.map(functionCall).filter((c): c is ToolCall => c !== undefined);
}

/** Concatenates the output_text parts of every message item, as the SDKs' output_text does. */
export function outputText(response: Json): string {
  return messageParts(response, 'output_text', 'text');
}

/** The refusal parts (`{"type":"refusal","refusal":"..."}`) of every message item. */
export function outputRefusal(response: Json): string {
  return messageParts(response, 'refusal', 'refusal');
}

export class ResponsesClient {
  readonly service: ServiceId;
  /** The paths the service's row names; the client hard-codes none. */
  private readonly endpoints: ServiceEndpoints;
  private readonly transport: Transport;
  private readonly options: ResponsesClientOptions;
  private rateLimits: RateLimits | null = null;

  constructor(options: ResponsesClientOptions) {
    this.options = options;
    this.service = options.profile.id;
    this.endpoints = options.profile.endpoints;
    this.transport = new Transport(this.service, options.baseUrl, options);
  }

  /** The rate-limit headers last seen on any response of this client. */
  get lastRateLimits(): RateLimits | null {
    return this.rateLimits;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private observe(response: HttpResponse): void {
    const n = (name: string) => {
      const value = response.header(name);
      return value === undefined || value === '' || Number.isNaN(Number(value)) ? null : Number(value);
    };
    if (
      response.header('x-ratelimit-limit-requests') === undefined &&
      response.header('x-ratelimit-limit-tokens') === undefined
    )
      return;
    this.rateLimits = {
      limitRequests: n('x-ratelimit-limit-requests'),
      remainingRequests: n('x-ratelimit-remaining-requests'),
      resetRequestsSeconds: parseGoDuration(response.header('x-ratelimit-reset-requests')) ?? null,
      limitTokens: n('x-ratelimit-limit-tokens'),
      remainingTokens: n('x-ratelimit-remaining-tokens'),
      resetTokensSeconds: parseGoDuration(response.header('x-ratelimit-reset-tokens')) ?? null,
      at: this.now(),
    };
  }

  private fail(response: HttpResponse, text: string): ServiceError {
    return classifyOpenAiResponse(
      {
        status: response.status,
        text,
        header: response.header,
        now: this.now(),
        secrets: [this.options.key],
      },
      this.service,
    );
  }

  /** Model ids the key may use. Free: it spends no tokens. */
  async models(signal?: AbortSignal): Promise<string[]> {
    const response = await this.transport.send({
      method: 'GET',
      path: this.endpoints.models ?? '/models',
      key: this.options.key,
      signal,
    });
    this.observe(response);
    const text = await response.text();
    if (response.status >= 400) throw this.fail(response, text);
    const body = parseObject(text);
    if (!body || !Array.isArray(body.data))
      throw new ServiceError({
        kind: 'server',
        service: this.service,
        status: response.status,
        message: 'The direct service sent a model list that is not JSON.',
      });
    return body.data.map((m) => obj(m)?.id).filter((id): id is string => typeof id === 'string');
  }

  respond(request: ResponsesRequest, options: DirectCallOptions = {}): TextStream {
    const stream = options.stream !== false;
    const body: Json = { model: request.model, input: request.input, stream };
    if (request.instructions) body.instructions = request.instructions;
    if (request.previousResponseId) body.previous_response_id = request.previousResponseId;
    if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.reasoningEffort !== undefined) body.reasoning = { effort: request.reasoningEffort };
    if (request.tools && request.tools.length > 0) {
      body.tools = request.tools;
      if (request.toolChoice) body.tool_choice = request.toolChoice;
    }
    return new TextStream(this.service, () => this.respondAttempt(body, stream, options), {
      signal: options.signal,
      retry: this.options.retry ?? DEFAULT_RETRY_POLICY,
      onRetry: options.onRetry,
      sleep: this.options.sleep,
    });
  }

  private async *respondAttempt(
    body: Json,
    stream: boolean,
    options: DirectCallOptions,
  ): AsyncGenerator<Piece, CompletionResult> {
    const response = await this.transport.send({
      method: 'POST',
      path: this.endpoints.chat,
      key: this.options.key,
      body,
      signal: options.signal,
      accept: stream ? 'text/event-stream' : 'application/json',
    });
    this.observe(response);
    if (response.status >= 400) throw this.fail(response, await response.text());
    return stream ? yield* this.readStream(response, options.signal) : yield* this.readWhole(response);
  }

  private context(response: HttpResponse) {
    return { header: response.header, now: this.now(), secrets: [this.options.key] };
  }

  private async *readWhole(response: HttpResponse): AsyncGenerator<Piece, CompletionResult> {
    const body = parseObject(await response.text());
    if (!body)
      throw new ServiceError({
        kind: 'server',
        service: this.service,
        status: response.status,
        message: 'The direct service sent a response that is not JSON.',
      });
    const text = outputText(body);
    const refusal = outputRefusal(body);
    const reported = reportedUsage(obj(body.usage));
    if (reported) yield { reported };
    if (text) yield text;
    if (refusal) yield { refusal };
    for (const toolCall of outputToolCalls(body)) yield { toolCall };
    if (body.status === 'failed')
      throw classifyOpenAiError(obj(body.error) ?? {}, null, this.context(response), this.service);
    return this.result(body, text, refusal, 0);
  }

  private async *readStream(
    response: HttpResponse,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<Piece, CompletionResult> {
    let text = '';
    let refusal = '';
    /** response.refusal.done's text: the whole refusal, whatever deltas were missed. */
    let refusalDone: string | undefined;
    let skipped = 0;
    let calls = 0;
    for await (const events of sseEvents(answerBody(response.body, this.service, signal))) {
      let batch = '';
      for (const [index, event] of events.entries()) {
        if (event.data === '[DONE]') break;
        const data = parseObject(event.data);
        if (!data) {
          skipped += 1;
          continue;
        }
        const type = typeof data.type === 'string' ? data.type : event.event;
        if (type === 'response.output_text.delta' && typeof data.delta === 'string') {
          text += data.delta;
          batch += data.delta;
          continue;
        }
        if (batch) {
          yield batch;
          batch = '';
        }
        if (type === 'response.refusal.delta' && typeof data.delta === 'string') {
          refusal += data.delta;
          yield { refusal: data.delta };
          continue;
        }
        if (type === 'response.output_item.done') {
          const toolCall = functionCall(data.item);
          if (toolCall) {
            calls += 1;
            yield { toolCall };
          }
          continue;
        }
        if (type === 'response.refusal.done' && typeof data.refusal === 'string') {
          refusalDone = data.refusal;
          continue;
        }
        if (type === 'error' || type === 'response.failed' || (obj(data.error) && !obj(data.response)))
          return yield* this.streamFailure(type, data, events.slice(index + 1), response);
        if (type === 'response.completed' || type === 'response.incomplete')
          return yield* this.streamEnd(obj(data.response) ?? {}, { text, refusal, refusalDone, calls, skipped });
      }
      if (batch) yield batch;
    }
    throw new ServiceError({
      kind: 'network',
      service: this.service,
      message: 'The direct service closed the stream before the answer was complete.',
    });
  }

  /** An error event or response.failed: what the failed answer used, when it says, then its error. */
  private *streamFailure(
    type: string | undefined,
    data: Json,
    rest: SseEvent[],
    response: HttpResponse,
  ): Generator<Piece, never> {
    if (type === 'response.failed') {
      const failed = obj(data.response) ?? {};
      const reported = reportedUsage(obj(failed.usage));
      if (reported) yield { reported };
      throw classifyOpenAiError(obj(failed.error) ?? {}, null, this.context(response), this.service);
    }
    // Both shapes: nested under `error` (as recorded) or at the top (as specified).
    const error = classifyOpenAiError(obj(data.error) ?? data, null, this.context(response), this.service);
    // The response.failed that follows may say what the failed answer used; it comes in the
    // same network chunk or not at all, so nothing waits for it.
    const failed = rest.map((e) => parseObject(e.data)).find((d) => d?.type === 'response.failed');
    const reported = reportedUsage(obj(obj(failed?.response)?.usage));
    if (reported) yield { reported };
    throw error;
  }

  /** response.completed or .incomplete: the refusal's missed end, tool calls not announced one by one, the result. */
  private *streamEnd(final: Json, seen: StreamSeen): Generator<Piece, CompletionResult> {
    const whole = seen.refusalDone ?? (seen.refusal || outputRefusal(final));
    if (whole.length > seen.refusal.length && whole.startsWith(seen.refusal))
      yield { refusal: whole.slice(seen.refusal.length) };
    if (seen.calls === 0) for (const toolCall of outputToolCalls(final)) yield { toolCall };
    return this.result(final, seen.text || outputText(final), whole, seen.skipped);
  }

  private result(body: Json, text: string, refusal: string, skipped: number): CompletionResult {
    const reported = reportedUsage(obj(body.usage));
    const { finishReason, native } = responseFinish(body);
    return {
      service: this.service,
      text,
      model: typeof body.model === 'string' ? body.model : '',
      usage: reported?.usage ?? null,
      costUsd: null,
      id: typeof body.id === 'string' ? body.id : null,
      finishReason,
      nativeFinishReason: native,
      refusal: refusal || null,
      skippedEvents: skipped,
    };
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** What a stream said before its last event. */
interface StreamSeen {
  text: string;
  refusal: string;
  /** response.refusal.done's text: the whole refusal, whatever deltas were missed. */
  refusalDone: string | undefined;
  calls: number;
  skipped: number;
}

function reportedUsage(usage: Json | undefined): ReportedUsage | null {
  if (!usage) return null;
  const input = num(usage.input_tokens);
  const output = num(usage.output_tokens);
  if (input === null && output === null) return null;
  // The direct service reports tokens, not dollars.
  return {
    usage: {
      inputTokens: input ?? 0,
      outputTokens: output ?? 0,
      totalTokens: num(usage.total_tokens) ?? (input ?? 0) + (output ?? 0),
    },
    costUsd: null,
  };
}
