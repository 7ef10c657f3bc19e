// The daily spend cap: once today's answers have cost keyward.spend.dailyCapUsd, a prompt to a model that costs
// money is not sent until the person says so. In the chat that is a card above the prompt box (Send anyway, Use a
// free model, Change cap): no modal, so the person can read the conversation, edit the prompt or just switch models,
// and nothing waits on a dialog. Requests from VS Code's chat or another extension (the language-model provider)
// cannot ask: they fail with an error that names the cap, today's spend and what to do. Free models cost nothing
// and are never stopped. The cost of each answer is added to the workspace's ledger after it ends, stopped and
// failed answers included when the service reported what it charged. The language-model provider's requests may
// run side by side, so each reserves an estimate before it is sent and settles it after (lmRequests.ts). Only services
// whose model list carries prices are counted (the routing service): the direct service's list has ids only and its
// answers report no cost, so they are not counted and the cap does not limit what they spend.
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { isFreeModelId } from '../../core/wire/freeModels.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { type SpendLedger, usd } from '../../core/account/spendLedger.ts';
import { SERVICE_IDS, type ServiceId, defaultModel } from '../../shared/serviceIds.ts';
import type { SpendCapNotice } from '../../shared/protocol.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';

/** The workspace-state key of today's spend. */
export const SPEND_STATE_KEY = 'keyward.spend.today';

/** The setting the cap's "Change cap" opens. */
export const SPEND_CAP_SETTING = 'keyward.spend.dailyCapUsd';

export class SpendGuard {
  /** Also read by the language-model provider's reservations (lmRequests.ts). */
  readonly ledger: SpendLedger;
  private readonly configuration: Configuration;
  private readonly keys: KeyStore;
  private readonly log: Log;

  constructor(ledger: SpendLedger, configuration: Configuration, keys: KeyStore, log: Log) {
    this.ledger = ledger;
    this.configuration = configuration;
    this.keys = keys;
    this.log = log;
  }

  /**
   * Undefined when the prompt may go: no cap, not reached, or a free model. Otherwise what the chat's card says:
   * today's spend, the cap, and a free model to offer (on the service asked, else another with a key).
   */
  check(service: ServiceId, model: string): SpendCapNotice | undefined {
    const cap = this.configuration.value.spend.dailyCapUsd;
    if (cap === null || !this.ledger.reached(cap)) return undefined;
    if (SERVICES[service].capabilities.hasFreeModels && isFreeModelId(model)) return undefined;
    const free = this.freeChoice(service);
    this.log.info(`Spend cap: a prompt to ${service} ${model} waits; today's spend has reached the daily cap.`);
    return { spent: usd(this.ledger.today().totalUsd), cap: usd(cap), ...(free ? { free } : {}) };
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
  private freeChoice(service: ServiceId): { service: ServiceId; model: string } | undefined {
    const candidates = [service, ...SERVICE_IDS.filter((id) => id !== service)];
    const id = candidates.find(
      (candidate) => SERVICES[candidate].capabilities.hasFreeModels && this.keys.metadata(candidate) !== undefined,
    );
    return id === undefined ? undefined : { service: id, model: defaultModel(id) };
  }
}
