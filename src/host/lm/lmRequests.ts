// A language-model request as Keyward answers it: the messages mapped to the wire, the secret guard and the daily
// spend cap before anything leaves, then runPrompt with the answer's text and tool calls as progress, and Keyward's
// errors as the LanguageModelErrors VS Code knows. esbuild.js (ON_DEMAND) builds this file as dist/lmRequests.js,
// which the provider (chatProvider.ts) loads on the first request or token count: activation registers the provider
// without parsing it (bench/bundle.ts).
import * as vscode from 'vscode';
import { ServiceError } from '../../core/errors.ts';
import { guardKeys, runGuardedPrompt, unreadReason } from '../../core/chat/guardedPrompt.ts';
import { describeLocations, keysInRequest } from '../../core/guards/outgoingGuard.ts';
import { estimateMessageTokens, estimateTextTokens } from '../../core/lm/tokenEstimate.ts';
import { runPrompt } from '../../core/chat/promptRunner.ts';
import type { LmMessage, LmTool, ToolCall } from '../../core/lm/messages.ts';
import { estimateCostUsd } from '../../core/account/spendEstimate.ts';
import { type Reservation, reserveSpend } from '../../core/account/spendReservation.ts';
import { usd } from '../../core/account/spendLedger.ts';
import { isFreeModelId } from '../../core/wire/freeModels.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { UNNAMED_CALLER, callerLabel, requestInitiator } from './lmAccess.ts';

// The access answers are built with this file, on first use (extension.ts), and what VS Code shows of each model.
export { LanguageModelAccess } from './lmAccess.ts';
export { modelInformation } from './modelInformation.ts';
// The model lists' retry, loaded with the first failed list (chatProvider.ts).
export { ListRetry } from './listRetry.ts';
import type { CompletionResult } from '../../core/wire/textStream.ts';
import { errorKindStrings } from '../errorKindStrings.ts';
import { type ModelSettings, applicableSettings, cleanSettings } from '../../shared/modelSettings.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import { type ServiceId, isServiceId } from '../../shared/serviceIds.ts';
import { errorKindRule } from '../../shared/errorKindRules.ts';
import type { Log } from '../log.ts';
import type { ModelSettingsStore } from '../chat/modelSettingsStore.ts';
import type { ChatProviderParts, KeywardModelInformation } from './providerTypes.ts';
import { SPEND_CAP_SETTING, type SpendGuard } from '../chat/spendGuard.ts';
import { toLmMessages, toLmTools, toToolChoice } from './lmMessages.ts';

/** "router/openai/gpt-4o-mini": the service id has no slash, the model id may. */
function parseId(id: string): { service: ServiceId; model: string } | undefined {
  const slash = id.indexOf('/');
  const service = id.slice(0, slash);
  return slash > 0 && isServiceId(service) ? { service, model: id.slice(slash + 1) } : undefined;
}

/** The person's settings for the model, then what the caller asked for, each only where the model takes it. */
function settingsFor(
  settings: ModelSettingsStore,
  offered: ReadonlyMap<string, ModelOption>,
  service: ServiceId,
  model: string,
  asked: { readonly [name: string]: unknown } | undefined,
) {
  const fromCaller = cleanSettings({
    temperature: asked?.temperature,
    maxOutputTokens: asked?.maxOutputTokens ?? asked?.max_tokens,
    reasoningEffort: asked?.reasoningEffort,
  });
  const merged: ModelSettings = { ...settings.get(service, model), ...fromCaller };
  return applicableSettings(merged, offered.get(`${service}/${model}`)?.settings);
}

/** The messages in Keyward's words, or the error naming the first part no wire form carries. */
function mappedMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): LmMessage[] {
  const mapped = toLmMessages(messages);
  if ('unknownPart' in mapped)
    throw new Error(
      vscode.l10n.t(
        'Keyward cannot send message {0}, part {1}: it is of a kind neither wire format carries.',
        mapped.unknownPart.message + 1,
        mapped.unknownPart.part + 1,
      ),
    );
  return mapped.messages;
}

/** The secret guard, before anything leaves: stored keys by value, every other key by shape, in every byte sent. */
async function guard(parts: ChatProviderParts, service: ServiceId, messages: LmMessage[], tools: LmTool[]) {
  const keys = await guardKeys(parts.keys);
  const why = unreadReason(keys);
  if (why !== undefined) {
    parts.log.warn(`Language models: not sent, the stored keys could not be read (${why}).`);
    throw vscode.LanguageModelError.Blocked(
      vscode.l10n.t(
        'Keyward did not send the request: the stored keys could not be read to check the messages for them ({0}).',
        why,
      ),
    );
  }
  // The tools' definitions and the parts joined as the wire joins them are sent too: all are scanned.
  const found = keysInRequest(messages, tools, keys);
  if (found.length > 0) {
    const where = describeLocations(found);
    parts.log.warn(`Language models: not sent to the ${service} service, a key is in ${where}.`);
    throw vscode.LanguageModelError.Blocked(
      vscode.l10n.t(
        'Keyward did not send the request: a key is in {0}. Remove it from the conversation and send again.',
        where,
      ),
    );
  }
  return { messages, tools };
}

/** Another extension asks: the person's answer, asked once per extension (lmAccess.ts). */
async function admit(parts: ChatProviderParts, caller: string | undefined): Promise<void> {
  if (!parts.access || (await (await parts.access()).admit(caller))) return;
  const label = callerLabel(caller ?? UNNAMED_CALLER);
  parts.log.warn(
    `Language models: not sent, ${caller ?? 'an unnamed extension'} is not allowed to use Keyward's models.`,
  );
  throw vscode.LanguageModelError.NoPermissions(
    vscode.l10n.t(
      'Keyward did not send the request: {0} is not allowed to use Keyward’s language models. Allow it in "Keyward: Manage Language Model Access".',
      label,
    ),
  );
}

/** The reason a request past the cap is not sent, for callers that cannot ask: the cap, today's spend, the ways on. */
function capRefusal(spend: SpendGuard, service: ServiceId, model: string): string | undefined {
  const notice = spend.check(service, model);
  if (!notice) return undefined;
  const free = notice.free
    ? vscode.l10n.t(
        'choose a free model (such as {0}/{1}, which costs nothing)',
        notice.free.service,
        notice.free.model,
      )
    : vscode.l10n.t('choose a free model');
  // Requests under way hold their largest cost: the cap may be reached by them before it is by what was spent.
  const held = spend.ledger.committed() - spend.ledger.today().totalUsd;
  if (held > 0)
    return vscode.l10n.t(
      "Keyward did not send the request: today's spend in this workspace ({0}) and the most that the requests still under way may cost ({1}) reach the daily cap of {2} ({3}). To go on, wait for them to end, {4}, or raise the cap in Settings.",
      notice.spent,
      usd(held),
      notice.cap,
      SPEND_CAP_SETTING,
      free,
    );
  return vscode.l10n.t(
    "Keyward did not send the request: today's spend in this workspace ({0}) has reached the daily cap of {1} ({2}). To go on, {3}, raise the cap in Settings, or wait until the day ends (00:00 UTC).",
    notice.spent,
    notice.cap,
    SPEND_CAP_SETTING,
    free,
  );
}

/**
 * The daily cap: the request's estimate is held before it is sent (requests run side by side) and settled with
 * the reported cost after. Past the cap a paid model is refused (free ones cost nothing and go): the caller may be
 * another extension with no one to ask, so the error names the cap, today's spend and the ways on.
 */
function reserve(
  parts: ChatProviderParts,
  target: { service: ServiceId; model: string; option: ModelOption | undefined },
  sent: { messages: LmMessage[]; tools: LmTool[]; maxOutputTokens: number | undefined },
  caller: string | undefined,
): Reservation | undefined {
  const spend = parts.spend;
  if (!spend) return undefined;
  const { service, model } = target;
  // A free model, or one on a service whose costs are not counted (no prices in its list), holds nothing.
  const free = SERVICES[service].capabilities.hasFreeModels && isFreeModelId(model);
  const counted = SERVICES[service].capabilities.hasModelPrices && !free;
  const bytes = Buffer.byteLength(JSON.stringify(sent.messages)) + Buffer.byteLength(JSON.stringify(sent.tools));
  const estimate = counted ? estimateCostUsd(target.option, bytes, sent.maxOutputTokens) : 0;
  const cap = parts.configuration.value.spend.dailyCapUsd;
  const held = reserveSpend(spend.ledger, free ? null : cap, estimate, service, caller);
  if (held) return held;
  parts.log.warn(`Language models: not sent to ${service} ${model}, today's spend has reached the daily cap.`);
  throw vscode.LanguageModelError.Blocked(
    capRefusal(spend, service, model) ??
      vscode.l10n.t("Keyward did not send the request: today's spend has reached the daily cap."),
  );
}

/** One request: who asks, the secret guard and the spend cap first, then the prompt, its text and tool calls. */
export async function respond(
  parts: ChatProviderParts,
  offered: ReadonlyMap<string, ModelOption>,
  info: KeywardModelInformation,
  messages: readonly vscode.LanguageModelChatRequestMessage[],
  options: vscode.ProvideLanguageModelChatResponseOptions,
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  token: vscode.CancellationToken,
): Promise<void> {
  const target = parseId(info.id);
  if (!target) throw vscode.LanguageModelError.NotFound(vscode.l10n.t('Keyward has no model {0}.', info.id));
  const { service, model } = target;
  const caller = requestInitiator(options);
  await admit(parts, caller);
  const mapped = mappedMessages(messages);
  const settings = settingsFor(parts.settings, offered, service, model, options.modelOptions);
  const option = offered.get(`${service}/${model}`);
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  if (token.isCancellationRequested) controller.abort();
  let sending = false;
  try {
    // Each step refuses by throwing the LanguageModelError the caller sees, so the outcome is always sent.
    const outcome = await runGuardedPrompt({
      guard: () => guard(parts, service, mapped, toLmTools(options.tools)),
      reserve: (sent) =>
        reserve(parts, { service, model, option }, { ...sent, maxOutputTokens: settings.maxOutputTokens }, caller),
      prompt: ({ messages: sent, tools }, onReported) => {
        sending = true;
        return runPrompt(
          parts.monitor,
          {
            service,
            model,
            turns: [],
            messages: sent,
            ...(tools.length > 0 ? { tools, toolChoice: toToolChoice(options.toolMode) } : {}),
            settings,
            denyDataCollection: parts.configuration.value.router.denyDataCollection,
          },
          {
            signal: controller.signal,
            onDelta: (delta) => progress.report(new vscode.LanguageModelTextPart(delta)),
            onReported,
          },
        );
      },
    });
    if (outcome.sent) answered(parts, progress, { service, model, caller }, outcome.result);
  } catch (error) {
    // The guard's and the cap's refusals are already the errors the caller sees.
    if (!sending) throw error;
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    throw languageModelError(parts.log, error);
  } finally {
    cancel.dispose();
  }
}

/** The answer's tool calls as progress, and a line in the log naming who asked and what it cost. */
function answered(
  parts: ChatProviderParts,
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  asked: { service: ServiceId; model: string; caller: string | undefined },
  result: CompletionResult,
): void {
  reportToolCalls(progress, result.toolCalls);
  const usage = result.usage ? `${result.usage.inputTokens} in, ${result.usage.outputTokens} out` : 'no usage';
  const cost = result.costUsd === null ? '' : `, $${result.costUsd}`;
  parts.log.info(
    `Language models: ${asked.service} ${result.model || asked.model} answered ${asked.caller ?? 'an unnamed caller'} (${usage}${cost}).`,
  );
}

function reportToolCalls(
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  calls: readonly ToolCall[] | undefined,
) {
  for (const call of calls ?? [])
    progress.report(
      new vscode.LanguageModelToolCallPart(
        call.callId,
        call.name,
        call.input && typeof call.input === 'object' ? call.input : { value: call.input },
      ),
    );
}

/** Keyward's error kind, with its title and advice; the LanguageModelError VS Code knows where one fits. */
function languageModelError(log: Log, error: unknown): Error {
  if (!(error instanceof ServiceError)) return error instanceof Error ? error : new Error(String(error));
  // The kind's title as the chat shows it (localised from the error-kind table the bundle already reads).
  const text = `${errorKindStrings()[`kind.${error.kind}`]}: ${error.message} ${error.action}`.trim();
  log.warn(`Language models: ${error.service} ${error.kind}: ${error.message}`);
  const mapped = errorKindRule(error.kind).languageModelError;
  if (!mapped || (mapped.status !== undefined && mapped.status !== error.status)) return new Error(text);
  return vscode.LanguageModelError[mapped.as](text);
}

/** The model's tokens in a text or message: within 10 % of its tokenizer where one is known, else an estimate (core/lm/tokenEstimate.ts). */
export function countTokens(modelId: string, text: string | vscode.LanguageModelChatRequestMessage): number {
  if (typeof text === 'string') return estimateTextTokens(text, modelId);
  const mapped = toLmMessages([text]);
  return 'messages' in mapped ? estimateMessageTokens(mapped.messages[0]!, modelId) : 0;
}
