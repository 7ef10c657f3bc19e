// Keyward's models wherever VS Code asks for a model: a Language Model Chat Provider (vendor `keyward`, final API
// since VS Code 1.104) over the same service modules, account monitor and secret guard as the chat. Each service
// that has a key offers its model list; a request goes through runPrompt, so free counts, credit and the status bar
// follow as they do for the chat, and each answer's cost counts toward the daily spend cap. No one is asked anything
// here: another extension may be the one sending, so a key in the messages, or a paid model past the cap, stops the
// request and the error says why and what to do.
import * as vscode from 'vscode';
import type { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import { modelFamily } from '../../core/lm/modelFamily.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import { tokenCounting } from '../../shared/tokenCount.ts';
import { SERVICE_IDS, type ServiceId } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { serviceLabel } from '../serviceNames.ts';
import { Disposable } from '../../shared/dispose.ts';
import type { ChatProviderParts, KeywardModelInformation } from './providerTypes.ts';

export type { ChatProviderParts, KeywardModelInformation };

export const LM_VENDOR = 'keyward';

/**
 * What a list does not say (the direct service's gives ids only): a window every current model of the services
 * exceeds, said in the model's tooltip. An older model with a smaller one (gpt-4's 8,192) fails loud with the
 * service's context-length error rather than being trimmed in silence.
 */
const UNKNOWN_CONTEXT = 32_768;
const UNKNOWN_OUTPUT = 4_096;

/**
 * The model's limits from its list, and the tooltip, which says when the list gave no context window and when its
 * token counts are an estimate (no tokenizer Keyward has measured within 10 % for its family: shared/tokenCount.ts).
 */
function limitsOf(m: ModelOption, service: string) {
  const maxInputTokens = m.contextLength ?? UNKNOWN_CONTEXT;
  const maxOutputTokens = m.maxOutputTokens ?? UNKNOWN_OUTPUT;
  const notes: string[] = [];
  if (!m.contextLength)
    notes.push(
      vscode.l10n.t(
        'The model list gives no context window: Keyward assumes {0} tokens in, {1} out.',
        maxInputTokens,
        maxOutputTokens,
      ),
    );
  if (!tokenCounting(m.id).measured)
    notes.push(vscode.l10n.t("Token counts are an estimate: Keyward knows no tokenizer for this model's family."));
  const about = vscode.l10n.t('{0} on {1}, through Keyward', m.id, service);
  const tooltip = notes.length === 0 ? about : `${about}. ${notes.join(' ')}`;
  return { maxInputTokens, maxOutputTokens, tooltip };
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

  private readonly parts: ChatProviderParts;
  private readonly catalog: ModelCatalog;
  private readonly configuration: Configuration;
  private readonly log: Log;

  constructor(parts: ChatProviderParts) {
    super();
    this.parts = parts;
    this.catalog = parts.catalog;
    this.configuration = parts.configuration;
    this.log = parts.log;
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
          // The model's own family (gpt-4o-mini), as VS Code and extensions select by it; the service is in the id.
          family: modelFamily(m.id),
          version: m.id,
          detail,
          ...limitsOf(m, detail),
          capabilities: { toolCalling: m.toolCalling === true, imageInput: m.imageInput === true },
        });
      }
    }
    // Asked aloud (the person opened the picker's "manage" entry), with no service to offer: say how to add one.
    if (!options.silent && models.length === 0 && lists.every((l) => l === undefined)) {
      const setUp = vscode.l10n.t('Set Up Keys');
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Keyward offers models once a service has a key.'), setUp)
        .then((picked) => (picked === setUp ? vscode.commands.executeCommand(this.parts.manageCommand) : undefined));
    }
    return models;
  }

  /** Answers a request: the request handling loads on the first (lmRequests.ts, dist/lmRequests.js). */
  async provideLanguageModelChatResponse(
    info: KeywardModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { respond } = await import('./lmRequests.ts');
    return respond(this.parts, this.offered, info, messages, options, progress, token);
  }

  /**
   * The model's tokens in a text, for VS Code's context meter: within 10 % of the family's tokenizer where Keyward
   * has measured it (o200k_base: GPT-4o and later, the o-series), an estimate elsewhere, which the tooltip says.
   */
  async provideTokenCount(
    model: KeywardModelInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
    _token?: vscode.CancellationToken,
  ): Promise<number> {
    const { countTokens } = await import('./lmRequests.ts');
    return countTokens(model.model, text);
  }
}
