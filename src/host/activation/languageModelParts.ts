// Keyward's models in VS Code's chat and for other extensions: the provider, who may use it, and its commands.
import * as vscode from 'vscode';
import { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import type { ModelSettingsStore } from '../chat/modelSettingsStore.ts';
import { CommandId } from '../commandIds.ts';
import type { Dialogs } from '../dialogs.ts';
import { KeywardChatProvider, LM_VENDOR } from '../lm/chatProvider.ts';
import type { LanguageModelAccess } from '../lm/lmAccess.ts';
import { command } from './command.ts';
import type { KeywardCore } from './keywardCore.ts';
import { onDemand } from './onDemand.ts';

const AI_OFF = 'chat.disableAIFeatures';

/** Registers the provider; returns who may use it, built on first use. */
export function buildLanguageModels(
  context: vscode.ExtensionContext,
  core: KeywardCore,
  modelSettings: ModelSettingsStore,
  dialogs: Dialogs,
): () => Promise<LanguageModelAccess> {
  const { keys, configuration, log, monitor } = core;
  // Other extensions use Keyward's models once the person allowed each (asked once, in a modal). Built with the
  // request handling (dist/lmRequests.js) on the first request or the first Manage Language Model Access.
  let lmAccessLoading: Promise<LanguageModelAccess> | undefined;
  const lmAccess = (): Promise<LanguageModelAccess> =>
    (lmAccessLoading ??= import('../lm/lmRequests.ts').then(
      ({ LanguageModelAccess }) =>
        new LanguageModelAccess(core.globalState, core.ledger, log, context.extension.id, dialogs),
    ));
  const lmProvider = new KeywardChatProvider({
    monitor,
    keys,
    catalog: new ModelCatalog(monitor),
    configuration,
    settings: modelSettings,
    spend: core.spend,
    access: lmAccess,
    log,
    manageCommand: CommandId.manageLanguageModels,
  });
  context.subscriptions.push(
    lmProvider,
    vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, lmProvider),
    command(CommandId.manageLanguageModels, async () =>
      (await onDemand()).manageLanguageModelKeys(keys, configuration),
    ),
    command(CommandId.manageLanguageModelAccess, async () => (await lmAccess()).manage()),
    keys.onDidChange((service) => lmProvider.refresh(service)),
    configuration.onDidChange(() => lmProvider.refresh()),
    // VS Code reads a provider's lists when something asks for models, or when the provider says they changed; not
    // when its AI features are turned back on (chat.disableAIFeatures). A real-host run turned them on and VS Code's
    // picker stayed empty for 180 s ("Sign in to use Copilot"), with no list asked of Keyward: say so then.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(AI_OFF) && !vscode.workspace.getConfiguration().get(AI_OFF)) lmProvider.refresh();
    }),
  );
  return lmAccess;
}
