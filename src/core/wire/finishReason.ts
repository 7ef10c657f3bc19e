// Why an answer ended, from each service's own words. The routing service
// normalises finish_reason already (and keeps the provider's in
// native_finish_reason); the direct service says it with status and
// incomplete_details.reason.
import type { FinishReason } from '../../shared/answerEnd.ts';
import { type Json, obj } from '../json.ts';

const CHAT_FINISH: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  tool_calls: 'tool_calls',
  error: 'error',
  // Older and provider-native spellings that reach clients un-normalised.
  function_call: 'tool_calls',
  max_tokens: 'length',
  end_turn: 'stop',
  stop_sequence: 'stop',
};

/** A chat-completions finish_reason in the shared words; null while the answer has not ended. */
export function chatFinishReason(raw: unknown): FinishReason | null {
  if (typeof raw !== 'string' || raw === '') return null;
  return CHAT_FINISH[raw] ?? 'other';
}

const INCOMPLETE_REASON: Record<string, FinishReason> = {
  max_output_tokens: 'length',
  // The spec's own event example says max_tokens.
  max_tokens: 'length',
  content_filter: 'content_filter',
};

/** A Responses object's end: the shared reason and the service's own word for it. */
export function responseFinish(response: Json): { finishReason: FinishReason | null; native: string | null } {
  const status = typeof response.status === 'string' ? response.status : null;
  const reason = obj(response.incomplete_details)?.reason;
  if (status === 'incomplete' || typeof reason === 'string') {
    const native = typeof reason === 'string' ? reason : 'incomplete';
    return { finishReason: INCOMPLETE_REASON[native] ?? 'other', native };
  }
  if (status === 'completed') return { finishReason: 'stop', native: status };
  if (status === 'failed') return { finishReason: 'error', native: status };
  return { finishReason: status === null ? null : 'other', native: status };
}
