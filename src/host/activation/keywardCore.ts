// What every part of Keyward stands on: the log, the settings, the key store, the accounts' monitor, the day's spend
// and the status bar. Built first by activate() (src/extension.ts), which owns their lifetimes.
import * as vscode from 'vscode';
import { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import { SpendLedger } from '../../core/account/spendLedger.ts';
import { KeyStore, scannerKeys } from '../../core/keys/keyStore.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { SPEND_STATE_KEY, SpendGuard } from '../chat/spendGuard.ts';
import { Configuration } from '../configuration.ts';
import type { KeyCommands } from '../keys/keyCommands.ts';
import { KeyReminders } from '../keys/keyReminders.ts';
import { secretPort, statePort } from '../keys/secretPorts.ts';
import { Log } from '../log.ts';
import { ScrubbedMemento } from '../scrubbedState.ts';
import { StatusBar } from '../status/statusBar.ts';
import { onDemand } from './onDemand.ts';

export interface KeywardCore {
  log: Log;
  configuration: Configuration;
  globalState: ScrubbedMemento;
  keys: KeyStore;
  monitor: AccountMonitor;
  /** The key commands, built on the first one run (dist/commands.js). */
  keyCommands: () => Promise<KeyCommands>;
  reminders: KeyReminders;
  ledger: SpendLedger;
  spend: SpendGuard;
  statusBar: StatusBar;
  /** Workspace state through the one filter for disk. */
  workspaceState: () => ScrubbedMemento;
}

export function buildCore(context: vscode.ExtensionContext): KeywardCore {
  const log = new Log();
  const configuration = new Configuration(log);
  // Global state passes the one filter for disk; `keys` is read only when something is written.
  const globalState = new ScrubbedMemento(context.globalState, () => scannerKeys(keys));
  const keys: KeyStore = new KeyStore(secretPort(context.secrets), statePort(globalState));
  const workspaceState = () => new ScrubbedMemento(context.workspaceState, () => scannerKeys(keys));
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  // The startup's offer and reminders need the key commands only when the person takes one up.
  let keyCommandsLoading: Promise<KeyCommands> | undefined;
  const keyCommands = (): Promise<KeyCommands> =>
    (keyCommandsLoading ??= onDemand().then(
      ({ KeyCommands }) => new KeyCommands(keys, monitor, configuration, log, globalState),
    ));
  const reminders = new KeyReminders(keys, globalState, keyCommands);
  // Today's spend, per workspace, for the daily cap and the status tooltip.
  const spendState = workspaceState();
  const ledger = new SpendLedger({
    get: () => spendState.get(SPEND_STATE_KEY),
    set: (day) => spendState.update(SPEND_STATE_KEY, day),
  });
  const spend = new SpendGuard(ledger, configuration, keys, log);
  const statusBar = new StatusBar(monitor, keys, configuration, ledger, () =>
    onDemand().then(({ SpendWatch }) => new SpendWatch({ keys, configuration, log, state: statePort(globalState) })),
  );
  context.subscriptions.push(
    log,
    configuration,
    statusBar,
    ledger,
    { dispose: () => monitor.dispose() },
    keys,
    followOtherWindows(context, keys, monitor),
  );
  return {
    log,
    configuration,
    globalState,
    keys,
    monitor,
    keyCommands,
    reminders,
    ledger,
    spend,
    statusBar,
    workspaceState,
  };
}

/** Other windows share SecretStorage: follow what they stored or deleted. */
function followOtherWindows(context: vscode.ExtensionContext, keys: KeyStore, monitor: AccountMonitor) {
  return context.secrets.onDidChange((event) => {
    void keys.secretChanged(event.key).then((service) => {
      if (service) {
        monitor.reset(service);
        if (keys.metadata(service) || SERVICES[service].capabilities.keyOptional) void monitor.verify(service);
      }
    });
  });
}

/** Startup work must not delay activation; nor run after a quick deactivation (it would start the status timers again). */
export function startLater(core: KeywardCore, scanOpenDocuments: () => void): vscode.Disposable {
  const startup = setTimeout(() => {
    scanOpenDocuments();
    void core.statusBar.refresh();
    void core.reminders.offerEnvironmentImport().then(() => core.reminders.remindExpiry());
  }, 0);
  const daily = setInterval(() => void core.reminders.remindExpiry(), 6 * 3_600_000);
  return { dispose: () => (clearTimeout(startup), clearInterval(daily)) };
}
