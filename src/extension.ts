// The composition root: builds core services, hands them to the host adapters, and owns every lifetime through
// context.subscriptions. Each part is built in src/host/activation/, named after what it holds.
import * as vscode from 'vscode';
import { SERVICE_IDS, baseUrlOf } from './core/services/descriptors.ts';
import type { PanelProbe } from './host/chat/panelProbe.ts';
import type { DialogProbe } from './host/dialogProbe.ts';
import { windowDialogs } from './host/dialogs.ts';
import { buildChat } from './host/activation/chatParts.ts';
import { keyCommandsOf } from './host/activation/keyCommandParts.ts';
import { buildCore, startLater } from './host/activation/keywardCore.ts';
import { inlineEditPartsOf } from './host/activation/inlineEditParts.ts';
import { buildLanguageModels } from './host/activation/languageModelParts.ts';
import { buildScan } from './host/activation/scanParts.ts';
import { signInPartsOf } from './host/activation/signInParts.ts';
import type { KeywardTestApi } from './host/activation/testApi.ts';

export type { KeywardTestApi } from './host/activation/testApi.ts';

export function activate(context: vscode.ExtensionContext): Promise<KeywardTestApi> | undefined {
  // Keyward's own tests answer its questions through probes, which load with the test API (dist/testMode.js); an
  // ordinary run asks through VS Code's window and never loads them.
  if (context.extensionMode === vscode.ExtensionMode.Test)
    return import('./host/activation/testMode.ts').then(async ({ PanelProbe, DialogProbe, testApi }) => {
      const probes = { panel: new PanelProbe(), dialogs: new DialogProbe() };
      const { core, chat, scan, languageModelAccess } = activateParts(context, probes);
      const conversationCommands = await chat.conversationCommands();
      return testApi(context, core, chat, scan, { ...probes, languageModelAccess, conversationCommands });
    });
  activateParts(context, undefined);
  return undefined;
}

function activateParts(
  context: vscode.ExtensionContext,
  probes: { panel: PanelProbe; dialogs: DialogProbe } | undefined,
) {
  const dialogs = probes?.dialogs ?? windowDialogs;
  const core = buildCore(context);
  const scan = buildScan(context, core, dialogs);
  const chat = buildChat(context, core, probes?.panel);
  const languageModelAccess = buildLanguageModels(context, core, chat.modelSettings, dialogs);
  context.subscriptions.push(...keyCommandsOf(core), ...signInPartsOf(context, core));
  context.subscriptions.push(...inlineEditPartsOf(core).disposables);
  core.log.info(
    `Keyward ${context.extension.packageJSON.version as string} active; ${SERVICE_IDS.map((id) => `${id} ${baseUrlOf(core.configuration.value, id) ?? '(not set)'}`).join(', ')}.`,
  );
  context.subscriptions.push(
    startLater(core, () => {
      for (const document of vscode.workspace.textDocuments) void scan.diagnostics.full(document);
    }),
  );
  return { core, chat, scan, languageModelAccess };
}

export function deactivate(): void {}
