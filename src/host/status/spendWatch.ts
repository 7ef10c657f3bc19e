// The account's keys as the stored management or admin key sees them, refreshed with the status bar: a spend alert
// (Disable this key, Raise the limit, Ignore today) when a key passes keyward.router.spendAlertUsd today or spends far
// faster than usual, and the tooltip's lines (spend today and this month per key; the direct service's costs this
// month beside its tier's monthly limit). Loaded with the other on-demand commands, and only once such a key is stored.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { openAccountKeys } from '../../core/keys/accountKeyApis.ts';
import type { KeyAction, ListedKey } from '../../core/keys/accountKeys.ts';
import type { KeyStore, StatePort } from '../../core/keys/keyStore.ts';
import { AccountWatch } from '../../core/monitor/accountWatch.ts';
import type { SpendAlert } from '../../core/monitor/spendAlerts.ts';
import { tierInfo } from '../../core/fees.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { serviceLabel } from '../serviceNames.ts';
import { keyAction } from '../keys/keyList.ts';

const t = vscode.l10n.t;
const usd = (amount: number) => `$${amount.toFixed(2)}`;
/** The tooltip lists this many keys, the biggest spenders today first. */
const SHOWN_KEYS = 5;

export interface SpendWatchParts {
  keys: KeyStore;
  configuration: Configuration;
  log: Log;
  state: StatePort;
}

export class SpendWatch {
  private readonly parts: SpendWatchParts;
  private readonly watch: AccountWatch;

  constructor(parts: SpendWatchParts) {
    this.parts = parts;
    this.watch = new AccountWatch({
      keys: parts.keys,
      config: () => parts.configuration.value,
      state: parts.state,
      open: openAccountKeys,
    });
  }

  /** Refreshes what the key sees; shows each alert it calls for (not awaited: a refresh never waits on a person). */
  async refresh(service: ServiceId): Promise<void> {
    const alerts = await this.watch.refresh(service);
    const error = this.watch.current(service)?.error;
    if (error) this.parts.log.warn(`Listing the ${SERVICE_NAMES[service]} keys for the spend watch: ${error}`);
    for (const alert of alerts) void this.alert(service, alert);
  }

  /** The tooltip's Markdown for the service ('' when no management or admin key is stored). */
  tooltip(service: ServiceId): string {
    const account = this.watch.current(service);
    if (!account) return '';
    const lines: string[] = [];
    if (account.monthSpend) {
      const tier = this.parts.configuration.value.direct.usageTier;
      const spent = `${usd(account.monthSpend.total)}${account.monthSpend.currency === 'usd' ? '' : ` ${account.monthSpend.currency.toUpperCase()}`}`;
      lines.push(
        tier && SERVICES[service].capabilities.hasUsageTier
          ? t(
              'Organization costs this month: {0} of the {1} tier’s {2} monthly limit',
              spent,
              tier,
              usd(tierInfo(tier).monthlyLimit),
            )
          : t('Organization costs this month: {0}', spent),
      );
    }
    const spenders = account.keys
      .filter((key) => key.usageTodayUsd !== null || key.usageMonthUsd !== null)
      .sort((a, b) => (b.usageTodayUsd ?? 0) - (a.usageTodayUsd ?? 0))
      .slice(0, SHOWN_KEYS);
    for (const key of spenders)
      lines.push(
        t(
          '{0}: {1} today, {2} this month{3}',
          key.name || key.shown,
          usd(key.usageTodayUsd ?? 0),
          usd(key.usageMonthUsd ?? 0),
          key.disabled ? ` (${t('disabled')})` : '',
        ),
      );
    if (account.error) lines.push(t('The last refresh of the keys failed: {0}', account.error));
    return lines.length > 0 ? `\n\n---\n\n${lines.map((line) => `- ${escape(line)}`).join('\n')}` : '';
  }

  private async alert(service: ServiceId, alert: SpendAlert): Promise<void> {
    const key = this.watch.current(service)?.keys.find((k) => k.id === alert.keyId);
    if (!key) return;
    const named = `${key.name || t('(no name)')} (${key.shown})`;
    const message =
      alert.reason === 'threshold'
        ? t(
            '{0} key {1} has spent {2} today, past your alert at {3}. If that is not you, disable it now.',
            serviceLabel(service, this.parts.configuration.value),
            named,
            usd(alert.todayUsd),
            usd(alert.thresholdUsd),
          )
        : t(
            '{0} key {1} is spending {2} an hour, far above its usual {3} ({4} today). If that is not you, disable it now.',
            serviceLabel(service, this.parts.configuration.value),
            named,
            usd(alert.rateUsdPerHour ?? 0),
            usd(alert.usualUsdPerHour ?? 0),
            usd(alert.todayUsd),
          );
    const choices: [string, KeyAction | 'ignore'][] = [
      [t('Disable This Key'), 'disable'],
      [t('Raise the Limit…'), 'set-limit'],
      [t('Ignore Today'), 'ignore'],
    ];
    const offered = choices.filter(([, action]) => action === 'ignore' || key.actions.includes(action));
    const answer = await vscode.window.showWarningMessage(message, ...offered.map(([label]) => label));
    const action = offered.find(([label]) => label === answer)?.[1];
    if (action === 'ignore') await this.watch.ignoreToday(key.id);
    else if (action) await this.act(service, key, action);
  }

  private async act(service: ServiceId, key: ListedKey, action: KeyAction): Promise<void> {
    const accountKey = await this.parts.keys.getAccountKey(service);
    const api = accountKey ? openAccountKeys(service, accountKey, this.parts.configuration.value) : undefined;
    if (!api) return;
    try {
      // The key list's own action: the same confirmation, wording and report.
      await keyAction(service, api, key, action);
      await this.refresh(service);
    } finally {
      await api.close();
    }
  }
}

/** A line of the tooltip, whose names come from the service: no Markdown in them acts. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, (c) => `\\${c}`);
}
