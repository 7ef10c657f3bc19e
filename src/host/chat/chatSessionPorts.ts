// What the chat session needs besides the core services, in a file of its own: the session and its send step
// (chatSend.ts) both read it, and neither imports the other for it.
import type * as vscode from 'vscode';
import type { HostMessage } from '../../shared/protocol.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { ModelSettings, SettingSupport } from '../../shared/modelSettings.ts';
import type { GuardQuestion } from '../../core/guards/secretGuard.ts';
import type { ChooseFilePort } from './codeApply.ts';
import type { LastEditor } from './lastEditor.ts';
import type { SpendGuard } from './spendGuard.ts';
import type { ConversationStore } from './conversationStore.ts';

/** What the session needs besides the core services; tests replace the question and watch what is posted. */
export interface ChatSessionPorts {
  extensionUri: vscode.Uri;
  store: ConversationStore;
  lastEditor: LastEditor;
  /** The secret guard's question; a modal unless replaced. */
  ask?: GuardQuestion;
  /** Apply's "which file?"; the Quick Pick unless replaced. */
  chooseFile?: ChooseFilePort;
  /** Sees every message posted to the webviews. */
  tap?: (message: HostMessage) => void;
  /** The daily spend cap: holds a paid prompt back once reached (the chat's card asks), and adds each answer's cost. */
  spend?: SpendGuard;
  /** A history command ran from the webview. */
  clearHistory: () => Promise<void>;
  exportHistory: () => Promise<unknown>;
  /** Per-model settings (host/chat/modelSettingsStore.ts): sent where the model takes them, and named under the answer. */
  modelSettings?: { get(service: ServiceId, model: string): ModelSettings };
  /** The chat's settings button: the host asks for the model's settings (host/chat/modelSettingsEditor.ts). */
  editModelSettings?: (service: ServiceId, model: string, support: SettingSupport | undefined) => Promise<void>;
}
