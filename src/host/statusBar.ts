// The two status-bar items: the router key's credit and today's free count, and
// the direct service's state. Driven by the account monitor's events; refreshed
// on activation, after requests, every N minutes while the window is focused,
// backing off on failure and showing a stale figure's age rather than a popup.
import * as vscode from 'vscode';
import type { ServiceId } from '../shared/errorKinds.ts';
import type { AccountMonitor } from '../core/accountMonitor.ts';
import { type StatusView, directStatusView, routerStatusView } from '../core/accountStatus.ts';
import type { KeyStore } from '../core/keyStore.ts';
import { CommandId } from './commandIds.ts';
import type { Configuration } from './configuration.ts';

const ITEM_IDS: Record<ServiceId, string> = { router: 'router', direct: 'direct' };
const MAX_BACKOFF_MS = 30 * 60_000;

/** The item names its service, so two figures side by side are not a guess. */
export function labelled(service: ServiceId, text: string): string {
  if (new RegExp(`\\b${service}\\b`).test(text)) return text;
  const icon = /^\$\([\w-]+\)\s*/.exec(text)?.[0] ?? '';
  return `${icon}${service} ${text.slice(icon.length)}`;
}

function quietEntry(service: ServiceId): { text: string; tooltip: string } {
  return service === 'router'
    ? {
        text: `$(key) ${vscode.l10n.t('router: set key')}`,
        tooltip: vscode.l10n.t('No key is stored for the routing service. Click to set one.'),
      }
    : {
        text: `$(key) ${vscode.l10n.t('direct: set key')}`,
        tooltip: vscode.l10n.t('No key is stored for the direct service. Click to set one.'),
      };
}

export class StatusBar implements vscode.Disposable {
  private readonly items: Record<ServiceId, vscode.StatusBarItem>;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly monitor: AccountMonitor;
  private readonly keys: KeyStore;
  private readonly configuration: Configuration;
  private timer: NodeJS.Timeout | undefined;
  private tick: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly views: Partial<Record<ServiceId, StatusView>> = {};

  constructor(monitor: AccountMonitor, keys: KeyStore, configuration: Configuration) {
    this.monitor = monitor;
    this.keys = keys;
    this.configuration = configuration;
    this.items = {
      router: this.createItem('router', vscode.l10n.t('Keyward: routing service'), CommandId.routerActions, 101),
      direct: this.createItem('direct', vscode.l10n.t('Keyward: direct service'), CommandId.directActions, 100),
    };
    const unsubscribe = monitor.onDidChange((service) => this.render(service));
    const unsubscribeKeys = keys.onDidChange((service) => this.render(service));
    this.disposables.push(
      new vscode.Disposable(unsubscribe),
      new vscode.Disposable(unsubscribeKeys),
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && this.isDue()) void this.refresh();
      }),
      configuration.onDidChange(() => {
        this.render('router');
        this.render('direct');
        this.schedule();
      }),
    );
    this.render('router');
    this.render('direct');
    // A live countdown for "rate limited (12s)".
    this.tick = setInterval(() => {
      if (this.monitor.directSnapshot().lastError?.kind === 'rate_limit') this.render('direct');
    }, 1000);
  }

  private readonly commands: Record<ServiceId, string> = {
    router: CommandId.routerActions,
    direct: CommandId.directActions,
  };

  private createItem(id: string, name: string, command: string, priority: number): vscode.StatusBarItem {
    const item = vscode.window.createStatusBarItem(
      ITEM_IDS[id as ServiceId],
      vscode.StatusBarAlignment.Right,
      priority,
    );
    item.name = name;
    item.command = command;
    this.disposables.push(item);
    return item;
  }

  /** The text shown now, for tests and the leak check. */
  view(service: ServiceId): StatusView | undefined {
    return this.views[service];
  }

  private render(service: ServiceId): void {
    const item = this.items[service];
    const meta = this.keys.metadata(service);
    if (!meta) {
      // A service without a key keeps a quiet way in instead of vanishing.
      delete this.views[service];
      const quiet = quietEntry(service);
      item.text = quiet.text;
      item.tooltip = quiet.tooltip;
      item.accessibilityInformation = { label: quiet.tooltip, role: 'button' };
      item.command = service === 'router' ? CommandId.setRouterKey : CommandId.setDirectKey;
      item.backgroundColor = undefined;
      item.show();
      return;
    }
    item.command = this.commands[service];
    const now = Date.now();
    const view =
      service === 'router'
        ? routerStatusView(this.monitor.routerSnapshot(), meta, now)
        : directStatusView(this.monitor.directSnapshot(), meta, now);
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

  private lastRefresh = 0;

  private isDue(): boolean {
    const minutes = this.configuration.value.status.refreshMinutes;
    return minutes > 0 && Date.now() - this.lastRefresh >= minutes * 60_000;
  }

  /** Checks both keys (without spending tokens); quietly, with backoff on failure. */
  async refresh(): Promise<void> {
    this.lastRefresh = Date.now();
    const results = await Promise.all(
      (['router', 'direct'] as const).map(async (service) => {
        if (!this.keys.metadata(service)) return true;
        const result = await this.monitor.verify(service);
        return result.ok || !['network', 'timeout', 'server', 'rate_limit'].includes(result.error.kind);
      }),
    );
    this.failures = results.every(Boolean) ? 0 : this.failures + 1;
    this.schedule();
  }

  /** Refreshes on the interval; after failures the wait doubles, up to 30 minutes. Never while unfocused. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const minutes = this.configuration.value.status.refreshMinutes;
    if (minutes <= 0 && this.failures === 0) return;
    const base = minutes > 0 ? minutes * 60_000 : 60_000;
    const delay = this.failures > 0 ? Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** (this.failures - 1)) : base;
    this.timer = setTimeout(() => {
      if (vscode.window.state.focused) void this.refresh();
      else this.schedule();
    }, delay);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.tick) clearInterval(this.tick);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
