// Shared setup for the client tests: an emulator, and clients whose retry waits
// move the emulator's clock instead of the wall clock where that is enough.
import { ResponsesClient, type ResponsesClientOptions } from '../../src/core/wire/responsesClient.ts';
import { ServiceError } from '../../src/core/errors.ts';
import { DEFAULT_RETRY_POLICY } from '../../src/core/retryPolicy.ts';
import { ChatCompletionsClient, type ChatCompletionsClientOptions } from '../../src/core/wire/chatCompletionsClient.ts';
import type { TextStream } from '../../src/core/wire/textStream.ts';
import type { TestBed } from '../emulator/adminClient.ts';
import { directDescriptor } from '../../src/core/services/directDescriptor.ts';
import { routerDescriptor } from '../../src/core/services/routerDescriptor.ts';

export const FAST = { connectTimeoutMs: 2_000, idleTimeoutMs: 5_000 };

export function recordingSleep(bed: TestBed) {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    bed.emulator.clock.advance(ms);
  };
  return { waits, sleep };
}

export function routerClient(
  bed: TestBed,
  key: string,
  extra: Partial<ChatCompletionsClientOptions> = {},
): ChatCompletionsClient {
  return new ChatCompletionsClient({
    baseUrl: bed.emulator.routerBaseUrl,
    profile: routerDescriptor,
    key,
    ...FAST,
    retry: { ...DEFAULT_RETRY_POLICY, random: () => 0 },
    now: () => bed.emulator.clock.now(),
    ...extra,
  });
}

export function directClient(bed: TestBed, key: string, extra: Partial<ResponsesClientOptions> = {}): ResponsesClient {
  return new ResponsesClient({
    baseUrl: bed.emulator.directBaseUrl,
    profile: directDescriptor,
    key,
    ...FAST,
    retry: { ...DEFAULT_RETRY_POLICY, random: () => 0 },
    now: () => bed.emulator.clock.now(),
    ...extra,
  });
}

/** Reads a stream to its end; returns the error (a ServiceError) or the result. */
export async function settle(
  stream: TextStream,
): Promise<{ text: string; error?: ServiceError; result?: Awaited<TextStream['result']> }> {
  let text = '';
  try {
    for await (const delta of stream) text += delta;
    return { text, result: await stream.result };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { text, error };
  }
}
