// The daily spend cap in the chat: once today's answers have cost keyward.spend.dailyCapUsd, a prompt to a model
// that costs money waits for the person's word (send anyway, switch to a free model, or cancel). The cost of each
// answer is added to the workspace's ledger after it ends, stopped and failed answers included when the service
// reported what it charged.
import * as vscode from 'vscode';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { isFreeModelId } from '../../core/chat/chatCompletionsClient.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { type SpendLedger, usd } from '../../core/account/spendLedger.ts';
import { SERVICE_IDS, type ServiceId, defaultModel } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';

/** The workspace-state key of today's spend. */
export const SPEND_STATE_KEY = 'keyward.spend.today';

export type SpendAnswer = 'send' | 'free' | 'cancel';

/** The question once the cap is reached; a modal unless a test replaces it. */
export type SpendQuestion = (spent: string, cap: string, freeOffered: boolean) => Promise<SpendAnswer>;

export interface SpendChoice {
  service: ServiceId;
  model: string;
}

export const askSpendModal: SpendQuestion = async (spent, cap, freeOffered) => {
  const send = vscode.l10n.t('Send anyway');
  const free = vscode.l10n.t('Use a free model');
  const picked = await vscode.window.showWarningMessage(
    vscode.l10n.t("Today's answers have cost {0}, the daily cap of {1} for this workspace.", spent, cap),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Summed from the cost each answer reported today (UTC), across services. The cap is keyward.spend.dailyCapUsd.',
      ),
    },
    ...(freeOffered ? [send, free] : [send]),
  );
  return picked === send ? 'send' : picked === free ? 'free' : 'cancel';
};

export class SpendGuard {
  private readonly ledger: SpendLedger;
  private readonly configuration: Configuration;
  private readonly keys: KeyStore;
  private readonly log: Log;
  private readonly ask: SpendQuestion;

  constructor(
    ledger: SpendLedger,
    configuration: Configuration,
    keys: KeyStore,
    log: Log,
    ask: SpendQuestion = askSpendModal,
  ) {
    this.ledger = ledger;
    this.configuration = configuration;
    this.keys = keys;
    this.log = log;
    this.ask = ask;
  }

  /** Where the prompt goes: as asked, to a free model instead, or nowhere (undefined) when the person cancels. */
  async beforeSend(service: ServiceId, model: string): Promise<SpendChoice | undefined> {
    const cap = this.configuration.value.spend.dailyCapUsd;
    if (!this.ledger.reached(cap) || cap === null) return { service, model };
    if (SERVICES[service].capabilities.hasFreeModels && isFreeModelId(model)) return { service, model };
    const free = this.freeChoice(service);
    const answer = await this.ask(usd(this.ledger.today().totalUsd), usd(cap), free !== undefined);
    if (answer === 'send') return { service, model };
    if (answer === 'free' && free) return free;
    return undefined;
  }

  /** Adds what an answer cost; a spend that could not be stored is said in the log, not lost in silence. */
  async record(service: ServiceId, costUsd: number | null | undefined): Promise<void> {
    try {
      await this.ledger.record(service, costUsd);
    } catch (error) {
      this.log.warn(`Spend cap: today's spend could not be stored (${(error as Error)?.message ?? String(error)}).`);
    }
  }

  /** A free model on the service asked, else on another service with free models and a key. */
  private freeChoice(service: ServiceId): SpendChoice | undefined {
    const candidates = [service, ...SERVICE_IDS.filter((id) => id !== service)];
    const id = candidates.find(
      (candidate) => SERVICES[candidate].capabilities.hasFreeModels && this.keys.metadata(candidate) !== undefined,
    );
    return id === undefined ? undefined : { service: id, model: defaultModel(id) };
  }
}
