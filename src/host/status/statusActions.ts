// The quick pick behind each status-bar item.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';
import { CommandId } from '../commandIds.ts';
import type { Configuration } from '../configuration.ts';
import { serviceTitle } from '../serviceNames.ts';

const t = vscode.l10n.t;

type Action = vscode.QuickPickItem & { run: () => Thenable<unknown> };

/** What fixes the state the item shows, first (the service module says what): credits, the keys page. */
function remedy(service: ServiceId, monitor: AccountMonitor, configuration: Configuration): Action | undefined {
  const found = monitor.remedy(service, pagesOf(configuration.value, service));
  if (!found) return undefined;
  return {
    label: `$(${found.icon}) ${t(found.label, ...found.args)}`,
    description: t(found.description),
    run: () => vscode.env.openExternal(vscode.Uri.parse(found.url)),
  };
}

/** Sign in in the browser, where the service offers it: first while no key is stored, else after the key's actions. */
function signInAction(service: ServiceId): Action | undefined {
  const command = SERVICES[service].commands.signIn;
  if (!command) return undefined;
  return {
    label: `$(sign-in) ${t('Sign In to the Routing Service')}`,
    description: t('in the browser: no key to copy or paste'),
    run: () => vscode.commands.executeCommand(command),
  };
}

export async function showStatusActions(
  service: ServiceId,
  configuration: Configuration,
  monitor?: AccountMonitor,
  hasKey = true,
): Promise<void> {
  const config = configuration.value;
  const { commands, capabilities } = SERVICES[service];
  const pages = pagesOf(config, service);
  const first = monitor ? remedy(service, monitor, configuration) : undefined;
  const signIn = signInAction(service);
  const items: Action[] = [
    ...(signIn && !hasKey ? [signIn] : []),
    ...(first ? [first] : []),
    { label: `$(refresh) ${t('Refresh')}`, run: () => vscode.commands.executeCommand(CommandId.refreshStatus) },
    {
      label: `$(comment-discussion) ${t('Open Chat')}`,
      run: () => vscode.commands.executeCommand(CommandId.openChat),
    },
    {
      label: `$(key) ${t('Set Key')}`,
      run: () => vscode.commands.executeCommand(commands.setKey),
    },
    {
      label: `$(pass) ${t('Verify Key')}`,
      run: () => vscode.commands.executeCommand(commands.verifyKey),
    },
    {
      label: `$(sync) ${t('Rotate Key')}`,
      run: () => vscode.commands.executeCommand(commands.rotateKey),
    },
    {
      label: `$(calendar) ${t('Set Key Expiry Date')}`,
      run: () => vscode.commands.executeCommand(CommandId.setKeyExpiry, service),
    },
    ...(signIn && hasKey ? [signIn] : []),
  ];
  const { credits, keys } = pages;
  if (credits)
    items.push({
      label: `$(link-external) ${capabilities.hasCredits ? t('Open Credits Page') : t('Open Billing Page')}`,
      run: () => vscode.env.openExternal(vscode.Uri.parse(credits)),
    });
  if (keys)
    items.push({
      label: `$(link-external) ${t('Open Keys Page')}`,
      run: () => vscode.env.openExternal(vscode.Uri.parse(keys)),
    });
  if (capabilities.keyOptional)
    items.push({
      label: `$(trash) ${t('Delete Key')}`,
      run: () => vscode.commands.executeCommand(commands.deleteKey),
    });
  if (capabilities.hasUsageTier)
    items.push({
      label: `$(list-ordered) ${t('Set Usage Tier')}`,
      run: () => vscode.commands.executeCommand(CommandId.setUsageTier),
    });
  const pick = await vscode.window.showQuickPick(items, {
    title: `Keyward: ${serviceTitle(service, config)}`,
  });
  await pick?.run();
}

export async function pickUsageTier(): Promise<void> {
  // l10n-ignore: the labels are the service's own tier names and the setting's values.
  const tiers = [
    { label: 'Free', description: t('$100 a month; no purchase needed') },
    { label: 'Build', description: t('$500 a month; after $5 of purchases') },
    { label: 'Launch', description: t('$5,000 a month; after $100 of purchases') },
    { label: 'Grow', description: t('$200,000 a month; after $500 of purchases') },
  ];
  const pick = await vscode.window.showQuickPick(tiers, {
    title: t('The direct service usage tier of your organisation'),
  });
  if (pick)
    await vscode.workspace
      .getConfiguration('keyward')
      .update('direct.usageTier', pick.label, vscode.ConfigurationTarget.Global);
}
