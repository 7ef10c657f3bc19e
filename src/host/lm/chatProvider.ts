// Keyward's models wherever VS Code asks for a model: a Language Model Chat Provider (vendor `keyward`, final API
// since VS Code 1.104) over the same service modules, account monitor and secret guard as the chat. Each service
// that has a key offers its model list; a request goes through runPrompt, so free counts, credit and the status bar
// follow as they do for the chat, and each answer's cost counts toward the daily spend cap. No one is asked anything
// here: another extension may be the one sending, so a key in the messages, or a paid model past the cap, stops the
// request and the error says why and what to do.
import * as vscode from 'vscode';
import type { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import type { ErrorKind } from '../../shared/errorKinds.ts';
import type { ModelOption } from '../../shared/protocol.ts';
import { SERVICE_IDS, type ServiceId } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { serviceLabel } from '../serviceNames.ts';
import { Disposable } from '../../shared/dispose.ts';
import type { ChatProviderParts, KeywardModelInformation } from './providerTypes.ts';

export type { ChatProviderParts, KeywardModelInformation };

export const LM_VENDOR = 'keyward';

/** Failures that pass by themselves: a list that failed so is asked for again, later each time. */
const PASSING: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'network',
  'timeout',
  'server',
  'rate_limit',
  'stream_interrupted',
]);
/** The waits before asking VS Code to read the lists again after such a failure; the last repeats. */
export const LIST_RETRY_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000];

export class KeywardChatProvider
  extends Disposable
  implements vscode.LanguageModelChatProvider<KeywardModelInformation>
{
  // VS Code's emitter, not shared/event's: LanguageModelChatProvider.onDidChangeLanguageModelChatInformation must be a vscode.Event.
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** The last lists offered, for the settings a model takes. */
  private readonly offered = new Map<string, ModelOption>();
  /**
   * VS Code asks for the lists when told they changed, and keeps what it got until then: a list that failed on a
   * passing fault (the network, the service's 5xx) would keep Keyward's models out of every picker until the key or
   * a setting changed. So such a failure schedules the question again, with a longer wait each time.
   */
  private retry: { timer: ReturnType<typeof setTimeout> | undefined; failures: number } = {
    timer: undefined,
    failures: 0,
  };

  private readonly parts: ChatProviderParts;
  private readonly catalog: ModelCatalog;
  private readonly configuration: Configuration;
  private readonly log: Log;

  constructor(parts: ChatProviderParts) {
    super();
    this._register({ dispose: () => clearTimeout(this.retry.timer) });
    this.parts = parts;
    this.catalog = parts.catalog;
    this.configuration = parts.configuration;
    this.log = parts.log;
  }

  /** A key was stored, replaced or deleted, or a base URL changed: VS Code asks for the lists again. */
  refresh(service?: ServiceId): void {
    for (const id of service ? [service] : SERVICE_IDS) this.catalog.forget(id);
    clearTimeout(this.retry.timer);
    this.retry = { timer: undefined, failures: 0 };
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    _token?: vscode.CancellationToken,
  ): Promise<KeywardModelInformation[]> {
    const lists = await Promise.all(SERVICE_IDS.map((service) => this.catalog.load(service)));
    const models: KeywardModelInformation[] = [];
    this.askAgainAfter(lists.some((l) => l?.error !== undefined && PASSING.has(l.error.kind)));
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

  /** After a passing failure, tells VS Code to ask again (once at a time); a round without one starts the waits over. */
  private askAgainAfter(failed: boolean): void {
    if (!failed) {
      this.retry.failures = 0;
      return;
    }
    if (this.retry.timer !== undefined) return;
    const wait = LIST_RETRY_MS[Math.min(this.retry.failures, LIST_RETRY_MS.length - 1)]!;
    this.retry.failures++;
    this.log.info(`Language models: asking for the model lists again in ${wait / 1000} s.`);
    this.retry.timer = setTimeout(() => {
      this.retry.timer = undefined;
      this.changed.fire();
    }, wait);
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
