// The language-model provider's managementCommand: VS Code's "Manage models" entry for Keyward opens its key setup,
// one entry per service, each the service's own set-key command.
import * as vscode from 'vscode';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { SERVICE_IDS } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import { serviceLabel } from '../serviceNames.ts';

export async function manageLanguageModelKeys(keys: KeyStore, configuration: Configuration): Promise<void> {
  const items = SERVICE_IDS.map((service) => ({
    label: serviceLabel(service, configuration.value),
    description: keys.metadata(service)
      ? vscode.l10n.t('key stored: its models are offered')
      : vscode.l10n.t('no key yet'),
    command: SERVICES[service].commands.setKey,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Keyward: Set Up Keys for Language Models'),
    placeHolder: vscode.l10n.t('The service whose key to set'),
  });
  if (picked) await vscode.commands.executeCommand(picked.command);
}
