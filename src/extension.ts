// The composition root: builds core services, hands them to the host adapters,
// and owns every lifetime through context.subscriptions.
import * as vscode from 'vscode';
import { CommandId } from './host/commandIds.ts';
import { Configuration } from './host/configuration.ts';
import { Log } from './host/log.ts';

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  const configuration = new Configuration(log);
  context.subscriptions.push(
    log,
    configuration,
    vscode.commands.registerCommand(CommandId.showLog, () => log.show()),
  );
  log.info(`Keyward ${context.extension.packageJSON.version as string} active; router ${configuration.value.router.baseUrl}, direct ${configuration.value.direct.baseUrl}.`);
}

export function deactivate(): void {}
