// Keyward's models wherever VS Code asks for a model: a Language Model Chat Provider (vendor `keyward`, final API
// since VS Code 1.104) over the same service modules, account monitor and secret guard as the chat. Each service
// that has a key offers its model list; a request goes through runPrompt, so free counts, credit and the status bar
// follow as they do for the chat, and each answer's cost counts toward the daily spend cap. No one is asked anything
// here: another extension may be the one sending, so a key in the messages, or a paid model past the cap, stops the
// request and the error says why and what to do.
import * as vscode from 'vscode';
import type { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import { SERVICE_IDS, type ServiceId } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { serviceLabel } from '../serviceNames.ts';
import { Disposable } from '../../shared/dispose.ts';
import type { ChatProviderParts, KeywardModelInformation } from './providerTypes.ts';
import type { ListRetry } from './listRetry.ts';

export type { ChatProviderParts, KeywardModelInformation };

export const LM_VENDOR = 'keyward';

export class KeywardChatProvider
  extends Disposable
  implements vscode.LanguageModelChatProvider<KeywardModelInformation>
{
  // VS Code's emitter, not shared/event's: LanguageModelChatProvider.onDidChangeLanguageModelChatInformation must be a vscode.Event.
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** The last lists offered, for the settings a model takes. */
  private readonly offered = new Map<string, ModelOption>();
  /** Asks VS Code for the lists again after one failed on a passing fault (listRetry.ts, loaded on the first). */
  private retry: ListRetry | undefined;

  private readonly parts: ChatProviderParts;
  private readonly catalog: ModelCatalog;
  private readonly configuration: Configuration;
  private readonly log: Log;

  constructor(parts: ChatProviderParts) {
    super();
    this._register({ dispose: () => this.retry?.dispose() });
    this.parts = parts;
    this.catalog = parts.catalog;
    this.configuration = parts.configuration;
    this.log = parts.log;
  }

  /** A key was stored, replaced or deleted, or a base URL changed: VS Code asks for the lists again. */
  refresh(service?: ServiceId): void {
    for (const id of service ? [service] : SERVICE_IDS) this.catalog.forget(id);
    this.retry?.reset();
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    _token?: vscode.CancellationToken,
  ): Promise<KeywardModelInformation[]> {
    const lists = await Promise.all(SERVICE_IDS.map((service) => this.catalog.load(service)));
    const models: KeywardModelInformation[] = [];
    if (!this.isDisposed && (this.retry || lists.some((list) => list?.error))) {
      const { ListRetry } = await import('./lmRequests.ts');
      (this.retry ??= new ListRetry(() => this.changed.fire(), this.log)).after(lists);
    }
    for (const list of lists) {
      if (!list?.models) {
        if (list?.error) this.log.warn(`Language models: the ${list.service} model list failed: ${list.error.message}`);
        continue;
      }
      for (const m of list.models) this.offered.set(`${list.service}/${m.id}`, m);
      // What VS Code shows of each is built with the request handling (lmRequests.ts), loaded once a list has models.
      if (list.models.length === 0) continue;
      const { modelInformation } = await import('./lmRequests.ts');
      models.push(...modelInformation(list.service, list.models, serviceLabel(list.service, this.configuration.value)));
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
