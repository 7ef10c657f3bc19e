// The buttons on an error card: set or verify the key, open the service's
// credits or keys page.
import * as vscode from 'vscode';
import type { ServiceId } from '../shared/errorKinds.ts';
import type { PanelAction } from '../shared/protocol.ts';
import { CommandId } from './commandIds.ts';
import type { Configuration } from './configuration.ts';

export async function runPanelAction(
  action: PanelAction,
  service: ServiceId,
  configuration: Configuration,
): Promise<void> {
  const config = configuration.value;
  if (action === 'setKey')
    await vscode.commands.executeCommand(service === 'router' ? CommandId.setRouterKey : CommandId.setDirectKey);
  else if (action === 'verifyKey')
    await vscode.commands.executeCommand(service === 'router' ? CommandId.verifyRouterKey : CommandId.verifyDirectKey);
  else if (action === 'openCredits')
    await vscode.env.openExternal(
      vscode.Uri.parse(service === 'router' ? config.router.creditsUrl : config.direct.billingUrl),
    );
  else
    await vscode.env.openExternal(
      vscode.Uri.parse(service === 'router' ? config.router.keysUrl : config.direct.keysUrl),
    );
}
