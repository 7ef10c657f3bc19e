// What the stored management or admin key sees of the account, refreshed with the status: every key's usage (and,
// where the service reports it, what the account spent this month), and the spend alerts it calls for
// (spendAlerts.ts). Kept apart from the account monitor: that one asks with the key that calls models, this one with
// the key that manages them, and only when the person stored one.
import type { KeywardConfig } from '../config.ts';
import { ServiceError } from '../errors.ts';
import type { AccountKeysApi, ListedKey } from '../keys/accountKeys.ts';
import type { KeyStore, StatePort } from '../keys/keyStore.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { type SpendAlert, type UsageSample, alertMark, spendAlerts, utcDay } from './spendAlerts.ts';

export interface WatchedAccount {
  refreshedAtMs: number;
  keys: ListedKey[];
  monthSpend: { total: number; currency: string } | null;
  /** The last refresh failed: why, in the service's words (redacted); what is shown is the refresh before. */
  error: string | null;
}

export interface AccountWatchOptions {
  keys: KeyStore;
  config: () => KeywardConfig;
  /** Where the marks of alerts given and keys ignored today are kept, so a reload does not repeat them. */
  state: StatePort;
  open: (service: ServiceId, accountKey: string, config: KeywardConfig) => AccountKeysApi | undefined;
  now?: () => number;
}

const MARKS = 'keyward.spendAlerts.given';
/** How many times its month's hourly average a key may spend before it is called a jump. */
export const JUMP_FACTOR = 5;

export class AccountWatch {
  private readonly options: AccountWatchOptions;
  private readonly accounts = new Map<ServiceId, WatchedAccount>();
  private readonly samples = new Map<ServiceId, Map<string, UsageSample>>();

  constructor(options: AccountWatchOptions) {
    this.options = options;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  current(service: ServiceId): WatchedAccount | undefined {
    return this.accounts.get(service);
  }

  /** Lists the account's keys; the alerts this refresh calls for (each given once per key, reason and UTC day). */
  async refresh(service: ServiceId, signal?: AbortSignal): Promise<SpendAlert[]> {
    const accountKey = await this.options.keys.getAccountKey(service);
    const config = this.options.config();
    const api = accountKey ? this.options.open(service, accountKey, config) : undefined;
    if (!api) {
      this.accounts.delete(service);
      return [];
    }
    const now = this.now();
    try {
      const inUse = await this.options.keys.getKey(service).catch(() => undefined);
      const keys = await api.list(inUse, signal);
      const monthSpend = api.monthSpend ? await api.monthSpend(signal) : null;
      this.accounts.set(service, { refreshedAtMs: now, keys, monthSpend, error: null });
      const before = this.samples.get(service) ?? new Map<string, UsageSample>();
      const alerts = spendAlerts(keys, before, now, {
        thresholdUsd: config.router.spendAlertUsd,
        jumpFactor: JUMP_FACTOR,
        given: this.marks(now),
      });
      this.samples.set(service, new Map(keys.map((key) => [key.id, { atMs: now, todayUsd: key.usageTodayUsd ?? 0 }])));
      await this.mark(alerts.map((alert) => alertMark(alert.keyId, alert.reason, now)));
      return alerts;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const previous = this.accounts.get(service);
      this.accounts.set(service, {
        refreshedAtMs: previous?.refreshedAtMs ?? now,
        keys: previous?.keys ?? [],
        monthSpend: previous?.monthSpend ?? null,
        error: error.message,
      });
      return [];
    } finally {
      await api.close();
    }
  }

  /** No more spend alerts about this key until tomorrow (UTC). */
  ignoreToday(keyId: string): Promise<void> {
    return this.mark([alertMark(keyId, '', this.now())]);
  }

  /** Today's marks only: older ones are dropped as new ones are written. */
  private marks(now: number): Set<string> {
    const today = utcDay(now);
    return new Set((this.options.state.get<string[]>(MARKS) ?? []).filter((mark) => mark.endsWith(today)));
  }

  private async mark(added: string[]): Promise<void> {
    if (added.length === 0) return;
    await this.options.state.update(MARKS, [...this.marks(this.now()), ...added]);
  }
}
