// One prompt to any service, the way the panel and the tests send it: the
// stored key, the configured base URL, the free-model guard, and the outcome
// reported to the account monitor so the status bar follows.
import type { ServiceId } from '../shared/errorKinds.ts';
import type { AccountMonitor } from './accountMonitor.ts';
import type { RateLimits } from './directClient.ts';
import { toServiceError } from './errors.ts';
import { SERVICES, capable } from './services.ts';
import type { RetryNotice, CompletionResult, ReportedUsage, TextStream } from './textStream.ts';

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export interface PromptRequest {
  service: ServiceId;
  model: string;
  /** The whole conversation, last turn the user's. */
  turns: Turn[];
  /** Direct service: continue from this stored response instead of resending the turns. */
  previousResponseId?: string;
  instructions?: string;
  denyDataCollection?: boolean;
}

export interface PromptCallbacks {
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
  onRetry?: (notice: RetryNotice) => void;
  onFreeWait?: (delayMs: number) => void;
  /** The service reported tokens (and cost) for an answer that then failed or was stopped: they were charged. */
  onReported?: (reported: ReportedUsage) => void;
}

export async function runPrompt(
  monitor: AccountMonitor,
  request: PromptRequest,
  callbacks: PromptCallbacks = {},
): Promise<CompletionResult> {
  const { service } = request;
  const stream = await openStream(monitor, request, callbacks);
  try {
    const result = await stream.collect(callbacks.onDelta);
    monitor.recordOutcome(service, null, await rateLimitsOf(monitor, service));
    // The credit left changed: the status bar checks the key again (the key check spends nothing).
    if (capable(service, 'hasCredits')) void monitor.verify(service).catch(() => undefined);
    return result;
  } catch (error) {
    const failure = toServiceError(error, service, { partialText: stream.text });
    if (stream.reported) callbacks.onReported?.(stream.reported);
    monitor.recordOutcome(service, failure, await rateLimitsOf(monitor, service));
    throw failure;
  }
}

/** The request in the service's wire format (core/services.ts). */
async function openStream(
  monitor: AccountMonitor,
  request: PromptRequest,
  callbacks: PromptCallbacks,
): Promise<TextStream> {
  const { service } = request;
  const wire = SERVICES[service].wire;
  switch (wire) {
    case 'chat-completions': {
      const client = await monitor.chatClient(service);
      if (!client) throw monitor.unavailable(service);
      return client.chat(
        {
          model: request.model,
          messages: request.instructions
            ? [{ role: 'system', content: request.instructions }, ...request.turns]
            : request.turns,
          denyDataCollection: request.denyDataCollection === true,
        },
        { signal: callbacks.signal, onRetry: callbacks.onRetry, onFreeWait: callbacks.onFreeWait },
      );
    }
    case 'responses': {
      const client = await monitor.directClient();
      if (!client) throw monitor.unavailable(service);
      const last = request.turns.at(-1);
      const input = request.previousResponseId && last ? last.content : request.turns;
      return client.respond(
        {
          model: request.model,
          input,
          ...(request.previousResponseId ? { previousResponseId: request.previousResponseId } : {}),
          ...(request.instructions ? { instructions: request.instructions } : {}),
        },
        { signal: callbacks.signal, onRetry: callbacks.onRetry },
      );
    }
  }
}

async function rateLimitsOf(monitor: AccountMonitor, service: ServiceId): Promise<RateLimits | null | undefined> {
  return capable(service, 'hasRateLimitHeaders') ? (await monitor.directClient())?.lastRateLimits : undefined;
}
