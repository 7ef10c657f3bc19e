// At startup and daily: offer once per service to import a key the environment holds, and remind before a stored key
// expires. The key commands these lead to (keyCommands.ts) load only when the person takes one up.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { type KeyStore, daysUntil } from '../../core/keys/keyStore.ts';
import { SERVICES, SERVICE_IDS } from '../../core/services/descriptors.ts';
import type { KeyCommands } from './keyCommands.ts';
import { serviceTitle } from '../serviceNames.ts';

const t = vscode.l10n.t;
const title = (service: ServiceId) => serviceTitle(service);

export class KeyReminders {
  private readonly keys: KeyStore;
  private readonly state: vscode.Memento;
  private readonly commands: () => Promise<KeyCommands>;

  constructor(keys: KeyStore, state: vscode.Memento, commands: () => Promise<KeyCommands>) {
    this.keys = keys;
    this.state = state;
    this.commands = commands;
  }

  /** Offers once per service to import a key found in the environment. */
  async offerEnvironmentImport(env: NodeJS.ProcessEnv = process.env): Promise<void> {
    for (const service of SERVICE_IDS) {
      const variable = SERVICES[service].env.key;
      const value = env[variable];
      const asked = `keyward.envImportOffered.${service}`;
      if (!value || this.state.get<boolean>(asked)) continue;
      let stored: string | undefined;
      try {
        stored = await this.keys.getKey(service);
      } catch {
        continue;
      }
      if (stored) continue;
      await this.state.update(asked, true);
      const importKey = t('Import');
      const answer = await vscode.window.showInformationMessage(
        t("{0} is set in the environment. Import it into VS Code's secret storage for Keyward?", variable),
        importKey,
        t('Not Now'),
      );
      if (answer === importKey)
        await (await this.commands()).setKey(service, { key: value, label: t('{0} (imported)', variable) });
    }
  }

  /** Warns once a day when a key expires within a week. */
  async remindExpiry(now = new Date()): Promise<void> {
    for (const service of SERVICE_IDS) {
      const meta = this.keys.metadata(service);
      const days = daysUntil(meta?.expiresAt ?? null, now);
      if (!meta || days === null || days > 7) continue;
      const stamp = `keyward.expiryReminded.${service}`;
      const today = now.toISOString().slice(0, 10);
      if (this.state.get<string>(stamp) === today) continue;
      await this.state.update(stamp, today);
      const rotate = t('Rotate Key');
      const text =
        days < 0
          ? t('The {0} key {1} has expired.', title(service), meta.masked)
          : t('The {0} key {1} expires in {2} days.', title(service), meta.masked, String(days));
      void vscode.window
        .showWarningMessage(text, rotate)
        .then((answer) =>
          answer === rotate ? this.commands().then((commands) => commands.rotate(service)) : undefined,
        );
    }
  }
}
