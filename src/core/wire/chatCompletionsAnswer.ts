// Reading a chat-completions answer, whole or streamed: text, refusal, tool calls, usage and cost, and the errors a
// 200 answer can carry (an error object instead of choices, a choice's error, finish_reason "error").
import type { ServiceId } from '../../shared/serviceIds.ts';
import { type ResponseContext, classifyError } from '../classify.ts';
import { SERVICE_NAMES, ServiceError } from '../errors.ts';
import { type Json, num, obj, parseObject } from '../json.ts';
import { parseToolArguments } from '../lm/messages.ts';
import { sseEvents } from '../sse.ts';
import type { HttpResponse } from '../transport.ts';
import { chatFinishReason } from './finishReason.ts';
import { type CompletionResult, type Piece, type ReportedUsage, answerBody } from './textStream.ts';

/** What reading an answer needs of the client that sent the request. */
export interface AnswerReader {
  service: ServiceId;
  context(response: HttpResponse): Omit<ResponseContext, 'request'>;
  notJson(status: number): ServiceError;
}

/** A whole (stream: false) answer: its text, refusal, tool calls and usage, or the error a 200 body carried. */
export async function* readWholeAnswer(
  response: HttpResponse,
  reader: AnswerReader,
): AsyncGenerator<Piece, CompletionResult> {
  const text = await response.text();
  const body = parseObject(text);
  if (!body) throw reader.notJson(response.status);
  const error = obj(body.error);
  // HTTP 200 with an error object instead of choices happens.
  if (error)
    throw classifyError(
      reader.service,
      error,
      typeof error.code === 'number' ? error.code : 500,
      reader.context(response),
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
      reader.service,
      choiceError,
      typeof choiceError.code === 'number' ? choiceError.code : 502,
      reader.context(response),
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
  if (finish === 'error') throw providerEnded(reader.service, content);
  return result(reader.service, body, content, refusal, choice, 0);
}

/** A streamed answer, read as its events arrive; a stream that ends before the answer does is a network error. */
export async function* readStreamedAnswer(
  response: HttpResponse,
  signal: AbortSignal | undefined,
  reader: AnswerReader,
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
  for await (const events of sseEvents(answerBody(response.body, reader.service, signal))) {
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
        throw classifyError(reader.service, error, code, reader.context(response));
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
      service: reader.service,
      message: `The ${SERVICE_NAMES[reader.service]} closed the stream before the answer was complete.`,
    });
  }
  if (chatFinishReason(finishChoice?.finish_reason) === 'error') throw providerEnded(reader.service, text);
  for (const [, call] of [...calls].sort(([a], [b]) => a - b))
    if (call.name) yield { toolCall: { callId: call.id, name: call.name, input: parseToolArguments(call.args) } };
  return result(reader.service, { ...last, usage }, text, refusal, finishChoice, skipped);
}

function result(
  service: ServiceId,
  body: Json,
  text: string,
  refusal: string,
  choice: Json | undefined,
  skipped: number,
): CompletionResult {
  const reported = reportedUsage(obj(body.usage));
  return {
    service,
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
