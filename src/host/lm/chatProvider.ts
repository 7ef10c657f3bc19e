// Keyward's models wherever VS Code asks for a model: a Language Model Chat Provider (vendor `keyward`, final API
// since VS Code 1.104) over the same service modules, account monitor and secret guard as the chat. Each service
// that has a key offers its model list; a request goes through runPrompt, so free counts, credit and the status bar
// follow as they do for the chat, and each answer's cost counts toward the daily spend cap. No one is asked anything
// here: another extension may be the one sending, so a key in the messages, or a paid model past the cap, stops the
// request and the error says why and what to do.
import * as vscode from 'vscode';
import type { AccountMonitor } from '../../core/account/accountMonitor.ts';
import { ServiceError } from '../../core/errors.ts';
import { type KeyStore, scannerKeys } from '../../core/keys/keyStore.ts';
import { describeLocations, keysInMessages } from '../../core/lm/outgoingGuard.ts';
import { estimateMessageTokens, estimateTextTokens } from '../../core/lm/tokenEstimate.ts';
import type { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import { runPrompt } from '../../core/chat/promptRunner.ts';
import type { ReportedUsage } from '../../core/chat/textStream.ts';
import { errorKindStrings } from '../errorKindStrings.ts';
import { type ModelSettings, applicableSettings, cleanSettings } from '../../shared/modelSettings.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import { SERVICE_IDS, type ServiceId, isServiceId } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import type { ModelSettingsStore } from '../chat/modelSettingsStore.ts';
import type { SpendGuard } from '../chat/spendGuard.ts';
import { serviceLabel } from '../serviceNames.ts';
import { toLmMessages, toLmTools, toToolChoice } from './lmMessages.ts';
import { Disposable } from '../../shared/dispose.ts';

export const LM_VENDOR = 'keyward';

/** What a list does not say: a window most current models exceed, so VS Code never sends more than fits. */
const UNKNOWN_CONTEXT = 32_768;
const UNKNOWN_OUTPUT = 4_096;

export interface KeywardModelInformation extends vscode.LanguageModelChatInformation {
  readonly service: ServiceId;
  readonly model: string;
}

/** "router/openai/gpt-4o-mini": the service id has no slash, the model id may. */
function parseId(id: string): { service: ServiceId; model: string } | undefined {
  const slash = id.indexOf('/');
  const service = id.slice(0, slash);
  return slash > 0 && isServiceId(service) ? { service, model: id.slice(slash + 1) } : undefined;
}

export class KeywardChatProvider
  extends Disposable
  implements vscode.LanguageModelChatProvider<KeywardModelInformation>
{
  // VS Code's emitter, not shared/event's: LanguageModelChatProvider.onDidChangeLanguageModelChatInformation must be a vscode.Event.
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** The last lists offered, for the settings a model takes. */
  private readonly offered = new Map<string, ModelOption>();

  private readonly monitor: AccountMonitor;
  private readonly keys: KeyStore;
  private readonly catalog: ModelCatalog;
  private readonly configuration: Configuration;
  private readonly settings: ModelSettingsStore;
  /** The daily spend cap: a paid model past it is refused, and each answer's cost is added. */
  private readonly spend: SpendGuard | undefined;
  private readonly log: Log;
  /** The manifest's managementCommand: Keyward's key setup. */
  private readonly manageCommand: string;

  constructor(parts: {
    monitor: AccountMonitor;
    keys: KeyStore;
    catalog: ModelCatalog;
    configuration: Configuration;
    settings: ModelSettingsStore;
    spend?: SpendGuard;
    log: Log;
    manageCommand: string;
  }) {
    super();
    this.monitor = parts.monitor;
    this.keys = parts.keys;
    this.catalog = parts.catalog;
    this.configuration = parts.configuration;
    this.settings = parts.settings;
    this.spend = parts.spend;
    this.log = parts.log;
    this.manageCommand = parts.manageCommand;
  }

  /** A key was stored, replaced or deleted, or a base URL changed: VS Code asks for the lists again. */
  refresh(service?: ServiceId): void {
    for (const id of service ? [service] : SERVICE_IDS) this.catalog.forget(id);
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    _token?: vscode.CancellationToken,
  ): Promise<KeywardModelInformation[]> {
    const lists = await Promise.all(SERVICE_IDS.map((service) => this.catalog.load(service)));
    const models: KeywardModelInformation[] = [];
    for (const list of lists) {
      if (!list?.models) {
        if (list?.error) this.log.warn(`Language models: the ${list.service} model list failed: ${list.error.message}`);
        continue;
      }
      const detail = serviceLabel(list.service, this.configuration.value);
      for (const m of list.models) {
        const id = `${list.service}/${m.id}`;
        this.offered.set(id, m);
        models.push({
          id,
          service: list.service,
          model: m.id,
          name: m.name,
          family: list.service,
          version: m.id,
          detail,
          tooltip: vscode.l10n.t('{0} on {1}, through Keyward', m.id, detail),
          maxInputTokens: m.contextLength ?? UNKNOWN_CONTEXT,
          maxOutputTokens: m.maxOutputTokens ?? UNKNOWN_OUTPUT,
          capabilities: { toolCalling: m.toolCalling === true, imageInput: m.imageInput === true },
        });
      }
    }
    // Asked aloud (the person opened the picker's "manage" entry), with no service to offer: say how to add one.
    if (!options.silent && models.length === 0 && lists.every((l) => l === undefined)) {
      const setUp = vscode.l10n.t('Set Up Keys');
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Keyward offers models once a service has a key.'), setUp)
        .then((picked) => (picked === setUp ? vscode.commands.executeCommand(this.manageCommand) : undefined));
    }
    return models;
  }

  /** The person's settings for the model, then what the caller asked for, each only where the model takes it. */
  private settingsFor(service: ServiceId, model: string, asked: { readonly [name: string]: unknown } | undefined) {
    const fromCaller = cleanSettings({
      temperature: asked?.temperature,
      maxOutputTokens: asked?.maxOutputTokens ?? asked?.max_tokens,
      reasoningEffort: asked?.reasoningEffort,
    });
    const merged: ModelSettings = { ...this.settings.get(service, model), ...fromCaller };
    return applicableSettings(merged, this.offered.get(`${service}/${model}`)?.settings);
  }

  async provideLanguageModelChatResponse(
    info: KeywardModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const target = parseId(info.id);
    if (!target) throw vscode.LanguageModelError.NotFound(vscode.l10n.t('Keyward has no model {0}.', info.id));
    const { service, model } = target;
    const mapped = toLmMessages(messages);
    if ('unknownPart' in mapped)
      throw new Error(
        vscode.l10n.t(
          'Keyward cannot send message {0}, part {1}: it is of a kind neither wire format carries.',
          mapped.unknownPart.message + 1,
          mapped.unknownPart.part + 1,
        ),
      );
    // The secret guard, before anything leaves: stored keys by value, every other key by shape.
    const keys = await scannerKeys(this.keys).catch((error: unknown) => ({
      known: [],
      retired: [],
      unread: [{ service: undefined, reason: (error as Error)?.message ?? String(error) }],
    }));
    if (keys.unread.length > 0) {
      const why = [...new Set(keys.unread.map((u) => u.reason))].join('; ');
      this.log.warn(`Language models: not sent, the stored keys could not be read (${why}).`);
      throw vscode.LanguageModelError.Blocked(
        vscode.l10n.t(
          'Keyward did not send the request: the stored keys could not be read to check the messages for them ({0}).',
          why,
        ),
      );
    }
    const found = keysInMessages(mapped.messages, keys);
    if (found.length > 0) {
      const where = describeLocations(found);
      this.log.warn(`Language models: not sent to the ${service} service, a key is in ${where}.`);
      throw vscode.LanguageModelError.Blocked(
        vscode.l10n.t(
          'Keyward did not send the request: a key is in {0}. Remove it from the conversation and send again.',
          where,
        ),
      );
    }
    // Past the daily cap a paid model is refused (free ones cost nothing and go): the caller may be another
    // extension with no one to ask, so the error names the cap, today's spend and the ways on.
    const refusal = this.spend?.refusal(service, model);
    if (refusal !== undefined) {
      this.log.warn(`Language models: not sent to ${service} ${model}, today's spend has reached the daily cap.`);
      throw vscode.LanguageModelError.Blocked(refusal);
    }
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    let reported: ReportedUsage | undefined;
    try {
      const tools = toLmTools(options.tools);
      const settings = this.settingsFor(service, model, options.modelOptions);
      const result = await runPrompt(
        this.monitor,
        {
          service,
          model,
          turns: [],
          messages: mapped.messages,
          ...(tools.length > 0 ? { tools, toolChoice: toToolChoice(options.toolMode) } : {}),
          settings,
          denyDataCollection: this.configuration.value.router.denyDataCollection,
        },
        {
          signal: controller.signal,
          onDelta: (delta) => progress.report(new vscode.LanguageModelTextPart(delta)),
          // What a stopped or broken answer was charged still counts toward the cap.
          onReported: (usage) => {
            reported = usage;
          },
        },
      );
      reported = undefined;
      void this.spend?.record(service, result.costUsd);
      for (const call of result.toolCalls ?? [])
        progress.report(
          new vscode.LanguageModelToolCallPart(
            call.callId,
            call.name,
            call.input && typeof call.input === 'object' ? call.input : { value: call.input },
          ),
        );
      const usage = result.usage ? `${result.usage.inputTokens} in, ${result.usage.outputTokens} out` : 'no usage';
      const cost = result.costUsd === null ? '' : `, $${result.costUsd}`;
      this.log.info(`Language models: ${service} ${result.model || model} answered (${usage}${cost}).`);
    } catch (error) {
      if (reported) void this.spend?.record(service, reported.costUsd);
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      throw this.languageModelError(error);
    } finally {
      cancel.dispose();
    }
  }

  /** Keyward's error kind, with its title and advice; the LanguageModelError VS Code knows where one fits. */
  private languageModelError(error: unknown): Error {
    if (!(error instanceof ServiceError)) return error instanceof Error ? error : new Error(String(error));
    // The kind's title as the chat shows it (localised from the error-kind table the bundle already reads).
    const text = `${errorKindStrings()[`kind.${error.kind}`]}: ${error.message} ${error.action}`.trim();
    this.log.warn(`Language models: ${error.service} ${error.kind}: ${error.message}`);
    if (error.kind === 'auth' || error.kind === 'permission') return vscode.LanguageModelError.NoPermissions(text);
    if (error.kind === 'moderation' || error.kind === 'region') return vscode.LanguageModelError.Blocked(text);
    if (error.kind === 'bad_request' && error.status === 404) return vscode.LanguageModelError.NotFound(text);
    return new Error(text);
  }

  provideTokenCount(
    _model: KeywardModelInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
    _token?: vscode.CancellationToken,
  ): Promise<number> {
    if (typeof text === 'string') return Promise.resolve(estimateTextTokens(text));
    const mapped = toLmMessages([text]);
    return Promise.resolve('messages' in mapped ? estimateMessageTokens(mapped.messages[0]!) : 0);
  }
}
