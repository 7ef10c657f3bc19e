// The buttons on an error card: set or verify the key, open the service's
// credits or keys page; and the spend cap card's "Change cap", which opens the setting.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { PanelAction } from '../../shared/protocol.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';
import { CommandId } from '../commandIds.ts';
import type { Configuration } from '../configuration.ts';
import { SPEND_CAP_SETTING } from './spendGuard.ts';

export async function runPanelAction(
  action: PanelAction,
  service: ServiceId,
  configuration: Configuration,
): Promise<void> {
  const pages = pagesOf(configuration.value, service);
  const commands = SERVICES[service].commands;
  if (action === 'setKey') await vscode.commands.executeCommand(commands.setKey);
  else if (action === 'verifyKey') await vscode.commands.executeCommand(commands.verifyKey);
  else if (action === 'importKeys') await vscode.commands.executeCommand(CommandId.importKeys);
  else if (action === 'changeSpendCap')
    await vscode.commands.executeCommand('workbench.action.openSettings', SPEND_CAP_SETTING);
  else {
    // A service without the page (a local server has no credits) offers no such button; nothing to open.
    const page = action === 'openCredits' ? pages.credits : pages.keys;
    if (page) await vscode.env.openExternal(vscode.Uri.parse(page));
  }
}
