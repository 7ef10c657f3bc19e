// The quick pick behind each status-bar item.
import * as vscode from 'vscode';
import type { ServiceId } from '../shared/errorKinds.ts';
import { CommandId } from './commandIds.ts';
import type { Configuration } from './configuration.ts';

const t = vscode.l10n.t;

export async function showStatusActions(service: ServiceId, configuration: Configuration): Promise<void> {
  const config = configuration.value;
  const router = service === 'router';
  const items: (vscode.QuickPickItem & { run: () => Thenable<unknown> })[] = [
    { label: `$(refresh) ${t('Refresh')}`, run: () => vscode.commands.executeCommand(CommandId.refreshStatus) },
    { label: `$(comment-discussion) ${t('Open Prompt Panel')}`, run: () => vscode.commands.executeCommand(CommandId.openPanel) },
    { label: `$(key) ${t('Set Key')}`, run: () => vscode.commands.executeCommand(router ? CommandId.setRouterKey : CommandId.setDirectKey) },
    { label: `$(pass) ${t('Verify Key')}`, run: () => vscode.commands.executeCommand(router ? CommandId.verifyRouterKey : CommandId.verifyDirectKey) },
    { label: `$(sync) ${t('Rotate Key')}`, run: () => vscode.commands.executeCommand(router ? CommandId.rotateRouterKey : CommandId.rotateDirectKey) },
    { label: `$(calendar) ${t('Set Key Expiry Date')}`, run: () => vscode.commands.executeCommand(CommandId.setKeyExpiry, service) },
    { label: `$(link-external) ${router ? t('Open Credits Page') : t('Open Billing Page')}`, run: () => vscode.env.openExternal(vscode.Uri.parse(router ? config.router.creditsUrl : config.direct.billingUrl)) },
    { label: `$(link-external) ${t('Open Keys Page')}`, run: () => vscode.env.openExternal(vscode.Uri.parse(router ? config.router.keysUrl : config.direct.keysUrl)) },
  ];
  if (!router) items.push({ label: `$(list-ordered) ${t('Set Usage Tier')}`, run: () => vscode.commands.executeCommand(CommandId.setUsageTier) });
  const pick = await vscode.window.showQuickPick(items, { title: router ? t('Keyward: routing service') : t('Keyward: direct service') });
  await pick?.run();
}

export async function pickUsageTier(): Promise<void> {
  const tiers = [
    { label: 'Free', description: t('$100 a month; no purchase needed') },
    { label: 'Build', description: t('$500 a month; after $5 of purchases') },
    { label: 'Launch', description: t('$5,000 a month; after $100 of purchases') },
    { label: 'Grow', description: t('$200,000 a month; after $500 of purchases') },
  ];
  const pick = await vscode.window.showQuickPick(tiers, { title: t('The direct service usage tier of your organisation') });
  if (pick) await vscode.workspace.getConfiguration('keyward').update('direct.usageTier', pick.label, vscode.ConfigurationTarget.Global);
}
