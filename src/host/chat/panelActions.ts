// The buttons on an error card: set or verify the key, open the service's
// credits or keys page; and the spend cap card's "Change cap", which opens the setting. Also the chat's links
// (https only) and Escape back to the editor.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { PanelAction } from '../../shared/protocol.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';
import { CommandId } from '../commandIds.ts';
import type { Configuration } from '../configuration.ts';
import { SPEND_CAP_SETTING } from './spendGuard.ts';
import type { LastEditor } from './lastEditor.ts';
import type { Log } from '../log.ts';

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
  else if (action === 'signIn') {
    // Only a service whose row names the command; the webview offers the button for those alone.
    if (commands.signIn) await vscode.commands.executeCommand(commands.signIn);
  } else if (action === 'changeSpendCap')
    await vscode.commands.executeCommand('workbench.action.openSettings', SPEND_CAP_SETTING);
  else {
    // A service without the page (a local server has no credits) offers no such button; nothing to open.
    const page = action === 'openCredits' ? pages.credits : pages.keys;
    if (page) await vscode.env.openExternal(vscode.Uri.parse(page));
  }
}

/** Only https links open; anything else (`command:`, `file:`, `vscode:`) is dropped and logged like any refused message. */
export async function openLink(url: string, log: Log): Promise<void> {
  if (/^https:\/\//i.test(url)) {
    await vscode.env.openExternal(vscode.Uri.parse(url));
    return;
  }
  // The scheme alone is logged, cut short: the rest of a link could carry anything.
  const scheme = /^([a-z][a-z0-9+.-]{0,19}):/i.exec(url)?.[1];
  log.warn(
    `Dropped a link/open message from the prompt panel: only https links open (this one ${scheme ? `was ${scheme}:` : 'had no scheme'}).`,
  );
}

/** Escape in the chat: back to the editor the person came from, or else to the editor area. */
export async function focusEditor(lastEditor: LastEditor): Promise<void> {
  const editor = lastEditor.current;
  if (editor && !editor.document.isClosed)
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  else await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
}
