// One status-bar item per service (core/services/descriptors.ts), showing what its module's
// status view says (core/services/<id>.ts): the router key's credit and today's
// free count, the direct service's state, whether the OpenAI-compatible endpoint
// answers (only once it is configured). Driven by the account monitor's events; refreshed
// on activation, after requests, every N minutes while the window is focused,
// backing off on failure and showing a stale figure's age rather than a popup.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { errorKindRule } from '../../shared/errorKindRules.ts';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import type { StatusView } from '../../core/account/accountStatus.ts';
import { ACCOUNT_KEY_SERVICES, type KeyStore } from '../../core/keys/keyStore.ts';
import { SERVICES, SERVICE_IDS, isConfigured, serviceName } from '../../core/services/descriptors.ts';
import type { Configuration } from '../configuration.ts';
import { type SpendLedger, usd } from '../../core/account/spendLedger.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { serviceTitle } from '../serviceNames.ts';

const MAX_BACKOFF_MS = 30 * 60_000;

/** The account's keys as a stored management or admin key sees them (status/spendWatch.ts, loaded on demand). */
export interface KeyWatch {
  refresh(service: ServiceId): Promise<void>;
  tooltip(service: ServiceId): string;
}

/** The item names its service, so two figures side by side are not a guess. */
export function labelled(service: ServiceId, text: string): string {
  if (new RegExp(`\\b${service}\\b`).test(text)) return text;
  const icon = /^\$\([\w-]+\)\s*/.exec(text)?.[0] ?? '';
  return `${icon}${service} ${text.slice(icon.length)}`;
}

function quietEntry(service: ServiceId): { text: string; tooltip: string; command: string } {
  const { commands } = SERVICES[service];
  return {
    text: `$(key) ${vscode.l10n.t('{0}: set key', service)}`,
    // A service that signs in in the browser offers that first, in its actions, beside Set Key.
    ...(commands.signIn
      ? {
          tooltip: vscode.l10n.t(
            'No key is stored for the {0}. Click to sign in in the browser or to set a key.',
            serviceTitle(service),
          ),
          command: commands.actions,
        }
      : {
          tooltip: vscode.l10n.t('No key is stored for the {0}. Click to set one.', serviceTitle(service)),
          command: commands.setKey,
        }),
  };
}

export class StatusBar extends Disposable {
  private readonly items: Record<ServiceId, vscode.StatusBarItem>;
  private readonly monitor: AccountMonitor;
  private readonly keys: KeyStore;
  private readonly configuration: Configuration;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly views: Partial<Record<ServiceId, StatusView>> = {};
  private readonly spend: SpendLedger | undefined;
  private readonly loadWatch: (() => Promise<KeyWatch>) | undefined;
  private watch: Promise<KeyWatch> | undefined;

  constructor(
    monitor: AccountMonitor,
    keys: KeyStore,
    configuration: Configuration,
    spend?: SpendLedger,
    loadWatch?: () => Promise<KeyWatch>,
  ) {
    super();
    this.monitor = monitor;
    this.keys = keys;
    this.configuration = configuration;
    this.spend = spend;
    this.loadWatch = loadWatch;
    if (spend) this._register(spend.onDidChange(() => SERVICE_IDS.forEach((service) => this.render(service))));
    this.items = Object.fromEntries(SERVICE_IDS.map((service) => [service, this.createItem(service)])) as Record<
      ServiceId,
      vscode.StatusBarItem
    >;
    this._register(monitor.onDidChange((service) => this.render(service)));
    this._register(
      keys.onDidChange((service) => {
        this.render(service);
        // A management or admin key just stored (or the key Keyward uses changed): what it sees, now.
        if (keys.accountMetadata(service)) void this.refreshWatch(service);
      }),
    );
    this._register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && this.isDue()) void this.refresh();
      }),
    );
    this._register(
      configuration.onDidChange(() => {
        for (const service of SERVICE_IDS) this.render(service);
        this.schedule();
      }),
    );
    for (const service of SERVICE_IDS) this.render(service);
    // A live countdown for "rate limited (12s)".
    const tick = setInterval(() => {
      for (const service of SERVICE_IDS) if (this.monitor.counting(service)) this.render(service);
    }, 1000);
    this._register(toDisposable(() => clearInterval(tick)));
    this._register(toDisposable(() => clearTimeout(this.timer)));
  }

  private createItem(service: ServiceId): vscode.StatusBarItem {
    const { id, priority } = SERVICES[service].statusBar;
    const item = vscode.window.createStatusBarItem(id, vscode.StatusBarAlignment.Right, priority);
    // The item's name in the status bar's context menu: English in the service's row, localised here.
    item.name = vscode.l10n.t(SERVICES[service].statusBar.name);
    item.command = SERVICES[service].commands.actions;
    return this._register(item);
  }

  /** Today's spend in this workspace on the services that report costs, and the cap when one is set. */
  private spendLine(): string {
    if (!this.spend) return '';
    const spent = usd(this.spend.today().totalUsd);
    const cap = this.configuration.value.spend.dailyCapUsd;
    const line =
      cap === null
        ? vscode.l10n.t('Spent today in this workspace: {0} (routing service only, UTC day)', spent)
        : vscode.l10n.t(
            'Spent today in this workspace: {0} of the {1} daily cap (routing service only, UTC day)',
            spent,
            usd(cap),
          );
    return `\n\n---\n\n${line}`;
  }

  /** The text shown now, for tests and the leak check. */
  view(service: ServiceId): StatusView | undefined {
    return this.views[service];
  }

  private render(service: ServiceId): void {
    const item = this.items[service];
    const meta = this.keys.metadata(service);
    const config = this.configuration.value;
    if (SERVICES[service].statusBar.shown !== 'always' && !isConfigured(config, service)) {
      // A service the user has not set up (the compatible endpoint without a base URL) has nothing to show.
      item.hide();
      delete this.views[service];
      return;
    }
    if (!meta && !SERVICES[service].capabilities.keyOptional) {
      // A service without a key keeps a quiet way in instead of vanishing.
      delete this.views[service];
      const quiet = quietEntry(service);
      item.text = quiet.text;
      item.tooltip = quiet.tooltip;
      item.accessibilityInformation = { label: quiet.tooltip, role: 'button' };
      item.command = quiet.command;
      item.backgroundColor = undefined;
      item.show();
      return;
    }
    item.command = SERVICES[service].commands.actions;
    const now = Date.now();
    const view = { ...this.viewOf(service, meta, now) };
    view.tooltip += this.spendLine() + this.watchLines(service);
    this.views[service] = view;
    item.text = labelled(service, view.text);
    const tooltip = new vscode.MarkdownString(view.tooltip, true);
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: view.accessibility, role: 'button' };
    item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    item.show();
  }

  private watched: KeyWatch | undefined;

  private watchLines(service: ServiceId): string {
    return this.keys.accountMetadata(service) ? (this.watched?.tooltip(service) ?? '') : '';
  }

  /** What the stored management or admin key sees; the watch's code loads on the first such refresh. */
  private async refreshWatch(service: ServiceId): Promise<void> {
    if (!this.loadWatch || this.isDisposed) return;
    this.watched = await (this.watch ??= this.loadWatch());
    await this.watched.refresh(service);
    if (!this.isDisposed) this.render(service);
  }

  private viewOf(service: ServiceId, meta: ReturnType<KeyStore['metadata']>, now: number): StatusView {
    return this.monitor.view(service, meta, serviceName(this.configuration.value, service), now);
  }

  private lastRefresh = 0;

  private isDue(): boolean {
    const minutes = this.configuration.value.status.refreshMinutes;
    return minutes > 0 && Date.now() - this.lastRefresh >= minutes * 60_000;
  }

  /** Checks both keys (without spending tokens); quietly, with backoff on failure. */
  async refresh(): Promise<void> {
    this.lastRefresh = Date.now();
    const results = await Promise.all(
      SERVICE_IDS.map(async (service) => {
        const checkable = SERVICES[service].capabilities.keyOptional
          ? isConfigured(this.configuration.value, service)
          : this.keys.metadata(service) !== undefined;
        if (!checkable) return true;
        const result = await this.monitor.verify(service);
        return result.ok || !errorKindRule(result.error.kind).transient;
      }),
    );
    this.failures = results.every(Boolean) ? 0 : this.failures + 1;
    await Promise.all(
      ACCOUNT_KEY_SERVICES.filter((service) => this.keys.accountMetadata(service)).map((service) =>
        this.refreshWatch(service),
      ),
    );
    this.schedule();
  }

  /** Refreshes on the interval; after failures the wait doubles, up to 30 minutes. Never while unfocused. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    // A refresh that ends after dispose() must not arm a timer nobody will clear.
    if (this.isDisposed) return;
    const minutes = this.configuration.value.status.refreshMinutes;
    if (minutes <= 0 && this.failures === 0) return;
    const base = minutes > 0 ? minutes * 60_000 : 60_000;
    const delay = this.failures > 0 ? Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** (this.failures - 1)) : base;
    this.timer = setTimeout(() => {
      if (vscode.window.state.focused) void this.refresh();
      else this.schedule();
    }, delay);
  }
}
