// What activate() returns when VS Code runs Keyward's own tests (the in-host suites in test/e2e/suite): a window
// onto the parts the suites drive or read. Never built in an ordinary run.
import type * as vscode from 'vscode';
import type { KeywardConfig } from '../../core/config.ts';
import { type PromptRequest, runPrompt } from '../../core/chat/promptRunner.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { ChatConversations } from '../chat/chatConversations.ts';
import type { ChatEditorTab } from '../chat/chatEditorTab.ts';
import type { ConversationCommands } from '../chat/conversationCommands.ts';
import type { ModelSettingsStore } from '../chat/modelSettingsStore.ts';
import type { PanelProbe } from '../chat/panelProbe.ts';
import type { DialogProbe } from '../dialogProbe.ts';
import type { LanguageModelAccess } from '../lm/lmAccess.ts';
import type { GitHistoryView } from '../scan/gitHistoryView.ts';
import type { KeyFixes } from '../scan/keyFixes.ts';
import type { PreCommitHookCommand } from '../scan/preCommitHookCommand.ts';
import type { ChatParts } from './chatParts.ts';
import type { KeywardCore } from './keywardCore.ts';
import type { ScanParts } from './scanParts.ts';

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
  /** The quick fixes. */
  fixes: KeyFixes;
  /** Install Pre-commit Hook. */
  preCommitHook: PreCommitHookCommand;
  /**
   * Answers the questions of the quick fixes, the liveness check, Install Pre-commit Hook and the language models'
   * access (the host refuses modals), and keeps what they told.
   */
  dialogs: DialogProbe;
  /** The settings as Keyward obeys them. */
  config(): KeywardConfig;
  ask(
    request: PromptRequest,
  ): Promise<{ ok: true; text: string; model: string } | { ok: false; kind: string; partialText?: string }>;
  /** Which extensions may use Keyward's models (its question is answered through `dialogs`). */
  languageModelAccess(): Promise<LanguageModelAccess>;
}

export function testApi(
  context: vscode.ExtensionContext,
  core: KeywardCore,
  chat: ChatParts,
  scan: ScanParts,
  parts: {
    panel: PanelProbe;
    dialogs: DialogProbe;
    languageModelAccess: () => Promise<LanguageModelAccess>;
    conversationCommands: ConversationCommands;
  },
): KeywardTestApi {
  const { keys, statusBar, log, configuration } = core;
  return {
    modelSettings: chat.modelSettings,
    languageModelAccess: parts.languageModelAccess,
    statusView: (service) => statusBar.view(service),
    refresh: () => statusBar.refresh(),
    keyMetadata: (service) => keys.metadata(service),
    logLines: () => log.lines(),
    historyView: () => scan.historyView()?.snapshot() ?? [],
    findings: (uri) =>
      scan.diagnostics
        .all(uri)
        .map((d) => ({ ruleId: d.finding.ruleId, masked: d.finding.masked, git: d.git, line: d.finding.line })),
    globalState: () => Object.fromEntries(context.globalState.keys().map((k) => [k, context.globalState.get(k)])),
    panel: chat.panel,
    conversations: chat.conversations,
    conversationCommands: parts.conversationCommands,
    chatTitles: () => ({ view: chat.chatView.title, panel: chat.panel.tabTitle }),
    panelProbe: parts.panel,
    dialogs: parts.dialogs,
    fixes: scan.fixes,
    preCommitHook: scan.preCommitHook,
    config: () => configuration.value,
    ask: async (request) => {
      try {
        const result = await runPrompt(core.monitor, request);
        return { ok: true, text: result.text, model: result.model };
      } catch (error) {
        const failure = error as { kind: string; partialText?: string };
        return { ok: false, kind: failure.kind, ...(failure.partialText ? { partialText: failure.partialText } : {}) };
      }
    },
  };
}
