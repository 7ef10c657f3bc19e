// The composition root: builds core services, hands them to the host adapters,
// and owns every lifetime through context.subscriptions.
import { LastAnswerView } from './host/chat/lastAnswerView.ts';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ServiceId } from './shared/serviceIds.ts';
import { AccountMonitor } from './core/monitor/accountMonitor.ts';
import type { KeywardConfig } from './core/config.ts';
import { KeyStore, scannerKeys } from './core/keys/keyStore.ts';
import { type PromptRequest, runPrompt } from './core/chat/promptRunner.ts';
import { SERVICES, SERVICE_IDS, baseUrlOf } from './core/services/descriptors.ts';
import { CommandId } from './host/commandIds.ts';
import { Configuration } from './host/configuration.ts';
import type { KeyCommands, SetKeyArgs } from './host/keys/keyCommands.ts';
import { serviceToSet } from './host/keys/servicePick.ts';
import { KeyReminders } from './host/keys/keyReminders.ts';
import { KeyDiagnostics } from './host/scan/keyDiagnostics.ts';
import { ScanThread } from './core/scan/scanThread.ts';
import { KeyFixes } from './host/scan/keyFixes.ts';
import { KeyHover } from './host/scan/keyHover.ts';
import { KeyLiveness } from './host/scan/keyLiveness.ts';
import type { GitHistoryView, HistoryNode } from './host/scan/gitHistoryView.ts';
import { Log } from './host/log.ts';
import { PanelProbe } from './host/chat/panelProbe.ts';
import { PreCommitHookCommand } from './host/scan/preCommitHookCommand.ts';
import { ChatEditorTab } from './host/chat/chatEditorTab.ts';
import { ChatConversations } from './host/chat/chatConversations.ts';
import { ChatView } from './host/chat/chatView.ts';
import { ChatSessionOnDemand } from './host/chat/chatSessionOnDemand.ts';
import { LastEditor } from './host/chat/lastEditor.ts';
import { ConversationStore } from './host/chat/conversationStore.ts';
import { ConversationCommands } from './host/chat/conversationCommands.ts';
import { ScrubbedMemento } from './host/scrubbedState.ts';
import { secretPort, statePort } from './host/keys/secretPorts.ts';
import { StatusBar } from './host/status/statusBar.ts';
import { KeywardChatProvider, LM_VENDOR } from './host/lm/chatProvider.ts';
import type { LanguageModelAccess } from './host/lm/lmAccess.ts';
import { ModelSettingsStore } from './host/chat/modelSettingsStore.ts';
import { ModelCatalog } from './core/chat/modelCatalog.ts';
import { SPEND_STATE_KEY, SpendGuard } from './host/chat/spendGuard.ts';
import { SpendLedger } from './core/account/spendLedger.ts';

/** Returned from activate() only when VS Code runs Keyward's own tests. */
export interface KeywardTestApi {
  /** Per-model settings, as the chat's settings button stores them. */
  modelSettings: ModelSettingsStore;
  statusView(
    service: ServiceId,
  ): { text: string; tooltip: string; severity: string; accessibility: string } | undefined;
  refresh(): Promise<void>;
  keyMetadata(service: ServiceId): unknown;
  logLines(): readonly string[];
  /** What the Keys in Git History view shows. */
  historyView(): ReturnType<GitHistoryView['snapshot']>;
  /** The key findings of an open document, as the diagnostics provider holds them. */
  findings(uri: vscode.Uri): { ruleId: string; masked: string; git: string; line: number }[];
  globalState(): Record<string, unknown>;
  /** The prompt panel, for driving the send path the webview uses. */
  panel: ChatEditorTab;
  /** The conversations of this workspace (the list the chat view and the panel share). */
  conversations: ChatConversations;
  /** The conversation list's commands, whose shown list the tests read. */
  conversationCommands: ConversationCommands;
  /** What the chat view's header and the editor tab say: the active conversation's title. */
  chatTitles(): { view: string | undefined; panel: string | undefined };
  /** Answers the panel's secret guard and keeps what the panel posted. */
  panelProbe: PanelProbe;
  /** The quick fixes, whose questions the tests answer. */
  fixes: KeyFixes;
  /** Install Pre-commit Hook, whose questions the tests answer. */
  preCommitHook: PreCommitHookCommand;
  /** The settings as Keyward obeys them. */
  config(): KeywardConfig;
  ask(
    request: PromptRequest,
  ): Promise<{ ok: true; text: string; model: string } | { ok: false; kind: string; partialText?: string }>;
  /** Which extensions may use Keyward's models; the in-host suite scripts its question (the host refuses modals). */
  languageModelAccess(): Promise<LanguageModelAccess>;
}

/** The handlers activation never runs, loaded on a command's first run (src/host/onDemandCommands.ts). */
const onDemand = () => import('./host/onDemandCommands.ts');

export function activate(context: vscode.ExtensionContext): KeywardTestApi | undefined {
  const log = new Log();
  const configuration = new Configuration(log);
  // Global state passes the one filter for disk; `keys` is read only when something is written.
  const globalState = new ScrubbedMemento(context.globalState, () => scannerKeys(keys));
  const keys: KeyStore = new KeyStore(secretPort(context.secrets), statePort(globalState));
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  // The key commands, built on the first one run (dist/commands.js); the startup's offer and reminders need them only
  // when the person takes one up.
  let keyCommandsLoading: Promise<KeyCommands> | undefined;
  const keyCommands = (): Promise<KeyCommands> =>
    (keyCommandsLoading ??= onDemand().then(
      ({ KeyCommands }) => new KeyCommands(keys, monitor, configuration, log, globalState),
    ));
  const reminders = new KeyReminders(keys, globalState, keyCommands);
  // Today's spend, per workspace, for the daily cap and the status tooltip.
  const spendState = new ScrubbedMemento(context.workspaceState, () => scannerKeys(keys));
  const ledger = new SpendLedger({
    get: () => spendState.get(SPEND_STATE_KEY),
    set: (day) => spendState.update(SPEND_STATE_KEY, day),
  });
  const probe = context.extensionMode === vscode.ExtensionMode.Test ? new PanelProbe() : undefined;
  const spend = new SpendGuard(ledger, configuration, keys, log);
  const statusBar = new StatusBar(monitor, keys, configuration, ledger);
  // Large documents are scanned on a thread of their own (dist/scanWorker.js), started on the first of them.
  // (This bundle is dist/extension.js: the thread's script is beside it.)
  const scanThread = new ScanThread(join(__dirname, 'scanWorker.js'));
  context.subscriptions.push(scanThread);
  const diagnostics = new KeyDiagnostics(
    keys,
    configuration,
    new ScrubbedMemento(context.workspaceState, () => scannerKeys(keys)),
    scanThread,
  );
  const modelSettings = new ModelSettingsStore(globalState);
  // One set of conversations for the side-bar view and the editor panel, stored through the filter for disk.
  const conversations = new ChatConversations(new ScrubbedMemento(context.workspaceState, () => scannerKeys(keys)));
  // Clear's Undo is shown in the chat when one is open (the session is built below; it is asked only after a Clear).
  const conversationCommands: ConversationCommands = new ConversationCommands(
    conversations,
    keys,
    log,
    (title, undo): boolean => session.offerClearUndo(title, undo),
  );
  // One chat session, built and owned here: the editor tab and the side view both show it.
  const lastEditor = new LastEditor();
  const chatStore = new ConversationStore(
    new ScrubbedMemento(context.workspaceState, () => scannerKeys(keys)),
    conversations,
  );
  // Built from dist/chatSession.js when a chat first opens (host/chat/chatSessionOnDemand.ts).
  const session: ChatSessionOnDemand = new ChatSessionOnDemand(async () => {
    const { ChatSession } = await import('./host/chat/chatSession.ts');
    return new ChatSession(monitor, keys, configuration, log, {
      extensionUri: context.extensionUri,
      store: chatStore,
      lastEditor,
      ...probe?.ports,
      modelSettings,
      editModelSettings: async (service, model, support) =>
        (await onDemand()).editModelSettings(modelSettings, service, model, support),
      spend,
      clearHistory: () => conversationCommands.clear(),
      exportHistory: () => conversationCommands.export(),
    });
  }, log);
  const panel: ChatEditorTab = new ChatEditorTab(context, session, chatStore, lastEditor, {
    conversations,
    commands: conversationCommands,
    showView: (): Promise<void> => chatView.show(),
  });
  const chatView: ChatView = new ChatView(context.extensionUri, session, conversations);
  // The Keys in Git History view, built with dist/commands.js by the history scan's first run: until a scan it shows
  // nothing, and its node commands come only from the nodes it shows.
  let historyView: GitHistoryView | undefined;
  let historyLoading: Promise<GitHistoryView> | undefined;
  const history = (): Promise<GitHistoryView> =>
    (historyLoading ??= onDemand().then(({ GitHistoryView }) => (historyView = new GitHistoryView())));
  // Other extensions use Keyward's models once the person allowed each (asked once, in a modal). Built with the
  // request handling (dist/lmRequests.js) on the first request or the first Manage Language Model Access.
  let lmAccessLoading: Promise<LanguageModelAccess> | undefined;
  const lmAccess = (): Promise<LanguageModelAccess> =>
    (lmAccessLoading ??= import('./host/lm/lmRequests.ts').then(
      ({ LanguageModelAccess }) => new LanguageModelAccess(globalState, ledger, log, context.extension.id),
    ));
  const lmProvider = new KeywardChatProvider({
    monitor,
    keys,
    catalog: new ModelCatalog(monitor),
    configuration,
    settings: modelSettings,
    spend,
    access: lmAccess,
    log,
    manageCommand: CommandId.manageLanguageModels,
  });
  const fixes = new KeyFixes(diagnostics, configuration, keys);
  const liveness = new KeyLiveness(diagnostics, configuration);
  const preCommitHook = new PreCommitHookCommand(log);

  const lastAnswerView = new LastAnswerView(() => conversations.turns());
  const command = <A extends unknown[]>(id: string, run: (...args: A) => unknown) =>
    vscode.commands.registerCommand(id, run as (...args: unknown[]) => unknown);
  context.subscriptions.push(
    log,
    configuration,
    statusBar,
    ledger,
    diagnostics,
    fixes,
    new KeyHover(diagnostics),
    liveness,
    command(CommandId.checkKeyLive, (uri?: vscode.Uri, range?: vscode.Range) => liveness.check(uri, range)),
    { dispose: () => monitor.dispose() },
    keys,
    conversations,
    panel,
    chatView,
    session,
    lastEditor,
    command(CommandId.openPanel, () => void panel.open()),
    command(CommandId.openChat, () => chatView.show()),
    lastAnswerView,
    command(CommandId.showLastAnswer, () => lastAnswerView.show()),
    command(CommandId.newConversation, () => conversationCommands.newConversation()),
    command(CommandId.showConversations, () => conversationCommands.show()),
    // Each place passes its own argument (a menu its context, a row an id): the commands read what they can trust.
    command(CommandId.renameConversation, (id?: unknown, title?: unknown) => conversationCommands.rename(id, title)),
    command(CommandId.deleteConversation, (id?: unknown, confirmed?: unknown) =>
      conversationCommands.remove(id, confirmed === true),
    ),
    command(CommandId.importKeys, async () => (await keyCommands()).importFromEnvironment()),
    command(CommandId.askAboutSelection, () => panel.askAboutSelection()),
    command(CommandId.clearHistory, () => panel.clearHistory()),
    command(CommandId.exportHistory, (target?: unknown) => panel.exportHistory(target)),
    // From the CodeLens (the Apply's id), the editor title (the file) or the palette (nothing).
    command(CommandId.acceptProposal, (arg?: unknown) => session.keepProposal(arg)),
    command(CommandId.discardProposal, (arg?: unknown) => session.undoProposal(arg)),
    command(CommandId.scanWorkspace, async () => (await onDemand()).scanWorkspace(diagnostics, log)),
    { dispose: () => historyView?.dispose() },
    command(CommandId.scanHistory, async () => (await onDemand()).scanHistory(await history(), diagnostics, log)),
    command(CommandId.historyRotateKey, async (node?: HistoryNode) => (await history()).rotate(node)),
    command(CommandId.historyCopyCommit, async (node?: HistoryNode) => (await history()).copyCommit(node)),
    command(CommandId.historyOpen, async (node?: HistoryNode) => (await history()).open(node)),
    command(CommandId.installPreCommitHook, () => preCommitHook.run()),
    command(CommandId.showLog, () => log.show()),
    modelSettings,
    lmProvider,
    vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, lmProvider),
    command(CommandId.manageLanguageModels, async () =>
      (await onDemand()).manageLanguageModelKeys(keys, configuration),
    ),
    command(CommandId.manageLanguageModelAccess, async () => (await lmAccess()).manage()),
    keys.onDidChange((service) => lmProvider.refresh(service)),
    configuration.onDidChange(() => lmProvider.refresh()),
    // Each service's key commands, as its row in core/services/descriptors.ts names them.
    ...SERVICE_IDS.flatMap((service) => {
      const ids = SERVICES[service].commands;
      return [
        command(ids.setKey, async (args?: SetKeyArgs) => (await keyCommands()).setKey(service, args)),
        command(ids.verifyKey, async () => (await keyCommands()).verify(service)),
        command(ids.rotateKey, async (key?: string) => (await keyCommands()).rotate(service, key)),
        command(ids.deleteKey, async (confirmed?: boolean) =>
          (await keyCommands()).delete(service, confirmed === true),
        ),
        command(ids.actions, async () => (await onDemand()).showStatusActions(service, configuration, monitor)),
      ];
    }),
    command(CommandId.setKey, async (service?: unknown, args?: SetKeyArgs) => {
      const id = await serviceToSet(service, configuration.value);
      return id && (await keyCommands()).setKey(id, args);
    }),
    command(CommandId.setKeyExpiry, async (service?: ServiceId, date?: string) =>
      (await keyCommands()).setExpiry(service, date),
    ),
    command(CommandId.setUsageTier, async () => (await onDemand()).pickUsageTier()),
    command(CommandId.refreshStatus, () => statusBar.refresh()),
    context.secrets.onDidChange((event) => {
      // Other windows share SecretStorage: follow what they stored or deleted.
      void keys.secretChanged(event.key).then((service) => {
        if (service) {
          monitor.reset(service);
          if (keys.metadata(service) || SERVICES[service].capabilities.keyOptional) void monitor.verify(service);
        }
      });
    }),
  );
  log.info(
    `Keyward ${context.extension.packageJSON.version as string} active; ${SERVICE_IDS.map((id) => `${id} ${baseUrlOf(configuration.value, id) ?? '(not set)'}`).join(', ')}.`,
  );

  // Startup work must not delay activation; nor run after a quick deactivation (it would start the status timers again).
  const startup = setTimeout(() => {
    for (const document of vscode.workspace.textDocuments) void diagnostics.full(document);
    void statusBar.refresh();
    void reminders.offerEnvironmentImport().then(() => reminders.remindExpiry());
  }, 0);
  const daily = setInterval(() => void reminders.remindExpiry(), 6 * 3_600_000);
  context.subscriptions.push({ dispose: () => (clearTimeout(startup), clearInterval(daily)) });

  if (!probe) return undefined;
  return {
    modelSettings,
    languageModelAccess: lmAccess,
    statusView: (service) => statusBar.view(service),
    refresh: () => statusBar.refresh(),
    keyMetadata: (service) => keys.metadata(service),
    logLines: () => log.lines(),
    historyView: () => historyView?.snapshot() ?? [],
    findings: (uri) =>
      diagnostics
        .all(uri)
        .map((d) => ({ ruleId: d.finding.ruleId, masked: d.finding.masked, git: d.git, line: d.finding.line })),
    globalState: () => Object.fromEntries(context.globalState.keys().map((k) => [k, context.globalState.get(k)])),
    panel,
    conversations,
    conversationCommands,
    chatTitles: () => ({ view: chatView.title, panel: panel.tabTitle }),
    panelProbe: probe,
    fixes,
    preCommitHook,
    config: () => configuration.value,
    ask: async (request) => {
      try {
        const result = await runPrompt(monitor, request);
        return { ok: true, text: result.text, model: result.model };
      } catch (error) {
        const failure = error as { kind: string; partialText?: string };
        return { ok: false, kind: failure.kind, ...(failure.partialText ? { partialText: failure.partialText } : {}) };
      }
    },
  };
}

export function deactivate(): void {}
