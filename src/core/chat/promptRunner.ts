// One prompt to any service, the way the panel and the tests send it: the
// stored key, the configured base URL, the free-model guard, and the outcome
// reported to the account monitor so the status bar follows.
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { AccountMonitor } from '../monitor/accountMonitor.ts';
import type { RateLimits } from '../wire/responsesClient.ts';
import { toServiceError } from '../errors.ts';
import { capable } from '../services/descriptors.ts';
import { serviceModule } from '../services/registry.ts';
import type { PromptInput, Turn } from '../services/module.ts';
import type { RetryNotice, CompletionResult, ReportedUsage, TextStream } from '../wire/textStream.ts';

export type { Turn };

/** What a service module takes (services/module.ts), and which service. */
export interface PromptRequest extends PromptInput {
  service: ServiceId;
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

/** The request in the service's wire format (its module, core/services/<id>.ts). */
async function openStream(
  monitor: AccountMonitor,
  request: PromptRequest,
  callbacks: PromptCallbacks,
): Promise<TextStream> {
  const { service } = request;
  const client = await monitor.client(service);
  if (!client) throw monitor.unavailable(service);
  return serviceModule(service).prompt(
    client,
    {
      model: request.model,
      turns: request.turns,
      ...(request.previousResponseId ? { previousResponseId: request.previousResponseId } : {}),
      ...(request.instructions ? { instructions: request.instructions } : {}),
      denyDataCollection: request.denyDataCollection === true,
      ...(request.messages ? { messages: request.messages } : {}),
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.toolChoice ? { toolChoice: request.toolChoice } : {}),
      ...(request.settings ? { settings: request.settings } : {}),
    },
    { signal: callbacks.signal, onRetry: callbacks.onRetry, onFreeWait: callbacks.onFreeWait },
  );
}

async function rateLimitsOf(monitor: AccountMonitor, service: ServiceId): Promise<RateLimits | null | undefined> {
  const client = await monitor.client(service);
  return client ? serviceModule(service).rateLimits(client) : undefined;
}
