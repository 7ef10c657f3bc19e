// One prompt to either service, the way the panel and the tests send it: the
// stored key, the configured base URL, the free-model guard, and the outcome
// reported to the account monitor so the status bar follows.
import type { ServiceId } from '../shared/errorKinds.ts';
import type { AccountMonitor } from './accountMonitor.ts';
import { ServiceError, toServiceError } from './errors.ts';
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
  let stream: TextStream;
  if (service === 'router') {
    const client = await monitor.routerClient();
    if (!client) throw new ServiceError({ kind: 'auth', service, message: 'No routing service key is stored.' });
    stream = client.chat(
      {
        model: request.model,
        messages: request.instructions
          ? [{ role: 'system', content: request.instructions }, ...request.turns]
          : request.turns,
        denyDataCollection: request.denyDataCollection === true,
      },
      { signal: callbacks.signal, onRetry: callbacks.onRetry, onFreeWait: callbacks.onFreeWait },
    );
  } else {
    const client = await monitor.directClient();
    if (!client) throw new ServiceError({ kind: 'auth', service, message: 'No direct service key is stored.' });
    const last = request.turns.at(-1);
    const input = request.previousResponseId && last ? last.content : request.turns;
    stream = client.respond(
      {
        model: request.model,
        input,
        ...(request.previousResponseId ? { previousResponseId: request.previousResponseId } : {}),
        ...(request.instructions ? { instructions: request.instructions } : {}),
      },
      { signal: callbacks.signal, onRetry: callbacks.onRetry },
    );
  }
  try {
    const result = await stream.collect(callbacks.onDelta);
    monitor.recordOutcome(
      service,
      null,
      service === 'direct' ? (await monitor.directClient())?.lastRateLimits : undefined,
    );
    // The credit left changed: the status bar checks the key again (the key check spends nothing).
    if (service === 'router') void monitor.verify('router').catch(() => undefined);
    return result;
  } catch (error) {
    const failure = toServiceError(error, service, { partialText: stream.text });
    if (stream.reported) callbacks.onReported?.(stream.reported);
    monitor.recordOutcome(
      service,
      failure,
      service === 'direct' ? (await monitor.directClient())?.lastRateLimits : undefined,
    );
    throw failure;
  }
}
