// The prompt UI's host side, whatever shows it (the panel, a side-bar view):
// every message from a webview is validated and handled here, prompts run
// through the shared clients behind the secret guard, and what changes is
// posted to every connected webview.
import * as vscode from 'vscode';
import type { KeyMask } from '../../shared/keyShapes.ts';
import { DEFAULT_SERVICE, type ServiceId } from '../../shared/serviceIds.ts';
import {
  type Attachment,
  type HostMessage,
  type PanelState,
  type ServiceChoice,
  type WebviewHandlers,
  type WebviewMessage,
  isWebviewMessage,
} from '../../shared/protocol.ts';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import { responseKeyOf, splitAtAnswer } from '../../core/chat/conversation.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import { SERVICE_IDS, baseUrlOf } from '../../core/services/descriptors.ts';
import { attachFrom } from './attachRequest.ts';
import { attachContext, contextRefusalText } from './contextReaders.ts';
import { imagesRefusedText } from './imageRefusal.ts';
import type { PromptImage } from '../../shared/promptImages.ts';
import { CodeProposals } from './codeApply.ts';
import { insertCode } from './codeInsert.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { focusEditor, openLink, runPanelAction } from './panelActions.ts';
import { heldKeyMasks, keyReadiness, offeredServices } from './chatServices.ts';
import { panelStrings } from './panelStrings.ts';
import { WebviewConnection } from './webviewConnection.ts';
import { ChatFocusContext } from './chatFocusContext.ts';
import { CommandId } from '../commandIds.ts';
import type { SettingSupport } from '../../shared/modelSettings.ts';
import { Disposable, toDisposable } from '../../shared/dispose.ts';
import { type LastEdit, type Running, type SendContext, sendPrompt } from './chatSend.ts';
import type { ChatSessionPorts } from './chatSessionPorts.ts';

// Ask About Selection's attaching, which the editor tab runs before the chat it opens loads: taken from this file,
// so that it loads with the chat rather than at activation.
export { attachSelection } from './panelAttachments.ts';

export type { ChatSessionPorts } from './chatSessionPorts.ts';

export class ChatSession extends Disposable {
  private readonly connections = new Set<WebviewConnection>();
  private readonly running = new Map<string, Running>();
  private readonly catalog: ModelCatalog;
  private readonly monitor: AccountMonitor;
  private readonly keys: KeyStore;
  private readonly configuration: Configuration;
  private readonly log: Log;
  private readonly ports: ChatSessionPorts;
  /** Apply's changes waiting for Keep or Undo. */
  readonly proposals: CodeProposals;
  private lastEdit: LastEdit | undefined;
  /** What a send reads and writes of this session (chatSend.ts). */
  private readonly sendContext: SendContext;
  /** Whether a chat holds the keyboard focus, for the keybindings' `when` (its webview's own focus, not the view's). */
  private readonly focus = this._register(new ChatFocusContext());
  /** Requests whose conversation was put back by an Undo: what they end with is neither stored nor shown. */
  private readonly discarded = new Set<string>();
  /** The last Clear's way back while the chat offers it ("Conversation cleared — Undo"). */
  private clearUndo: (() => Promise<void>) | undefined;

  constructor(
    monitor: AccountMonitor,
    keys: KeyStore,
    configuration: Configuration,
    log: Log,
    ports: ChatSessionPorts,
  ) {
    super();
    this.monitor = monitor;
    this.keys = keys;
    this.configuration = configuration;
    this.log = log;
    this.ports = ports;
    this.proposals = this._register(
      new CodeProposals(
        (error) => this.log.error(`Apply: ${error.message}`),
        (applyId, state, file, text) =>
          this.post({ type: 'code/applyState', applyId, state, file, ...(text ? { text } : {}) }),
        ports.chooseFile,
      ),
    );
    this.catalog = new ModelCatalog(monitor);
    this.sendContext = {
      monitor,
      keys,
      configuration,
      log,
      ports,
      post: (message) => this.post(message),
      running: this.running,
      discarded: this.discarded,
      setLastEdit: (edit) => {
        this.lastEdit = edit;
      },
      responseKey: (service) => this.responseKey(service),
      support: (service, model) => this.support(service, model),
      imagesRefused: (service, model, images) =>
        imagesRefusedText(model, this.catalog.models[service]?.find((m) => m.id === model)?.imageInput, images),
    };
    this._register(
      configuration.onDidChange((config) =>
        this.post({ type: 'settings/changed', enterSends: config.chat.enterSends }),
      ),
    );
    this._register(
      keys.onDidChange((service) => {
        this.catalog.forget(service);
        this.post({ type: 'keys/changed', hasKey: this.hasKeys(), keyMasks: this.keyMasks() });
        if (this.connections.size > 0) void this.loadModels(service);
      }),
    );
    // Setting up the compatible service (or removing it) changes the switch while the panel is open.
    let offered = JSON.stringify(this.services());
    this._register(
      configuration.onDidChange(() => {
        const services = this.services();
        if (JSON.stringify(services) === offered) return;
        offered = JSON.stringify(services);
        for (const id of SERVICE_IDS) this.catalog.forget(id);
        const chosen = this.ports.store.choice().service;
        const service = services.some((s) => s.id === chosen) ? chosen : DEFAULT_SERVICE;
        this.post({ type: 'services/changed', services, service });
        if (this.connections.size > 0) void Promise.all(services.map((s) => this.loadModels(s.id)));
      }),
    );
    // Registered last, so it goes first: requests stop and webviews close before the subscriptions end.
    this._register(
      toDisposable(() => {
        for (const run of this.running.values()) run.controller.abort();
        this.running.clear();
        for (const connection of this.connections) connection.dispose();
        this.connections.clear();
      }),
    );
  }

  /** Shows the prompt UI in `webview`; disposing the connection stops what it was waiting for. */
  connect(webview: vscode.Webview): vscode.Disposable & { whenReady: Promise<void> } {
    const connection = new WebviewConnection(webview, this.ports.extensionUri, (raw, from) =>
      this.handleMessage(raw, from),
    );
    this.connections.add(connection);
    const disposable = new vscode.Disposable(() => {
      this.connections.delete(connection);
      this.focus.set(connection, false);
      connection.dispose();
      for (const [requestId, run] of this.running)
        if (run.from === connection || run.from === undefined) {
          run.controller.abort();
          this.running.delete(requestId);
        }
    });
    return Object.assign(disposable, { whenReady: connection.whenReady });
  }

  post(message: HostMessage): void {
    this.ports.tap?.(message);
    for (const connection of this.connections) connection.post(message);
  }

  /** The key and base URL a chained answer is stored under; undefined when the key cannot be read. */
  private async responseKey(service: ServiceId): Promise<string | undefined> {
    const key = await this.keys.getKey(service).catch(() => undefined);
    const baseUrl = baseUrlOf(this.configuration.value, service);
    return key && baseUrl ? responseKeyOf(key, baseUrl) : undefined;
  }

  private hasKeys(): Record<ServiceId, boolean> {
    return keyReadiness(this.keys);
  }

  private keyMasks(): KeyMask[] {
    return heldKeyMasks(this.keys);
  }

  private services(): ServiceChoice[] {
    return offeredServices(this.configuration.value);
  }

  /** Every message from a webview enters here and is validated before use. */
  handleMessage(raw: unknown, from?: WebviewConnection): void {
    if (!isWebviewMessage(raw)) {
      this.log.warn(
        `Dropped a malformed message from the prompt panel (${typeof raw === 'object' && raw ? String((raw as { type?: unknown }).type) : typeof raw}).`,
      );
      return;
    }
    const handler = this.handlers(from)[raw.type] as (message: WebviewMessage) => unknown;
    void Promise.resolve(handler(raw)).catch((error: unknown) =>
      this.log.error(`Prompt panel: ${(error as Error).message}`),
    );
  }

  private handlers(from: WebviewConnection | undefined): WebviewHandlers {
    const store = this.ports.store;
    return {
      'webview/ready': () => this.onReady(from),
      'chat/send': (m) =>
        this.send(m.requestId, m.service, m.model, m.prompt, m.attachments, from, m.replaceFrom, {
          overCap: m.overCap === true,
          images: m.images,
        }),
      'chat/stop': (m) => this.running.get(m.requestId)?.controller.abort(),
      'models/refresh': (m) => {
        this.catalog.forget(m.service);
        return this.loadModels(m.service);
      },
      'models/editSettings': (m) =>
        this.ports.editModelSettings?.(m.service, m.model, this.support(m.service, m.model)),
      'service/select': (m) => store.selectService(m.service),
      'model/select': (m) => store.selectModel(m.service, m.model),
      'link/open': (m) => openLink(m.url, this.log),
      'code/insert': (m) => insertCode(this.ports.lastEditor.current, m.code, m.mode),
      'code/copy': (m) => vscode.env.clipboard.writeText(m.code),
      'code/apply': (m) =>
        this.proposals.apply({
          code: m.code,
          languageId: m.languageId,
          ...(m.applyId ? { applyId: m.applyId } : {}),
          attached: this.attachedTo(m.turnId).map((place) => place.uri),
          about: this.attachedTo(m.turnId),
          editor: this.ports.lastEditor.current,
        }),
      'code/applyResolve': (m) => this.proposals.resolve(m.applyId, m.keep),
      'history/undoEdit': () => this.undoEdit(),
      'attach/request': async (m) => {
        const attachment = await attachFrom(m.source, this.ports.lastEditor, store);
        if (attachment) this.post({ type: 'attachment/add', attachment });
      },
      'history/clear': () => this.ports.clearHistory(),
      'history/undoClear': () => {
        const undo = this.clearUndo;
        this.clearUndo = undefined;
        return undo?.();
      },
      'history/export': () => this.ports.exportHistory(),
      'focus/editor': () => focusEditor(this.ports.lastEditor),
      'action/run': (m) => runPanelAction(m.action, m.service, this.configuration),
      'chat/regenerate': (m) => this.regenerate(m, from),
      'chat/showVersion': (m) => this.showVersion(m.turnId, m.index),
      'focus/changed': (m) => this.focus.set(from, m.focused),
      'answer/showLast': () => vscode.commands.executeCommand(CommandId.showLastAnswer),
      'context/attach': async (m) => {
        const got = await attachContext(m.name, this.ports.lastEditor.current, store);
        // A refusal goes back to the webview that asked, under its prompt box.
        if ('why' in got) from?.post({ type: 'composer/note', text: contextRefusalText(got) });
        else this.post({ type: 'attachment/add', attachment: got });
      },
    };
  }

  /** What was attached to the prompt that the answer `turnId` answers (file and range), where this host attached it. */
  private attachedTo(turnId: string | undefined): vscode.Location[] {
    if (!turnId) return [];
    const turns = this.ports.store.turns();
    const index = turns.findIndex((turn) => turn.id === turnId);
    const prompt = turns
      .slice(0, Math.max(index, 0))
      .reverse()
      .find((turn) => turn.role === 'user');
    const refs = this.ports.store.attachmentRefs();
    return (prompt?.attachments ?? [])
      .map((a) => refs.find((ref) => ref.id === a.id))
      .filter((ref) => ref !== undefined)
      .map((ref) => new vscode.Location(vscode.Uri.parse(ref.uri), new vscode.Range(...ref.range)));
  }

  /**
   * Undo of the last Edit-and-resend: the conversation is put back as it was before the edit (the answer to the
   * edited message, finished or still coming, is dropped), and every webview shows it.
   */
  private async undoEdit(): Promise<void> {
    const edit = this.lastEdit;
    const store = this.ports.store;
    if (!edit || edit.conversationId !== store.conversationId()) return;
    this.lastEdit = undefined;
    for (const [requestId, run] of this.running)
      if (run.conversationId === edit.conversationId) {
        this.discarded.add(requestId);
        run.controller.abort();
      }
    await store.saveTurns(edit.before, edit.conversationId);
    this.post({ type: 'panel/state', state: this.state() });
  }

  /** Regenerate or Retry: the answer's own prompt goes again, from the turns before it (send() places the answer). */
  private regenerate(m: Extract<WebviewMessage, { type: 'chat/regenerate' }>, from?: WebviewConnection) {
    const again = splitAtAnswer(this.ports.store.turns(), m.turnId);
    if (!again) {
      this.log.warn('Regenerate: the answer or its prompt is no longer in the conversation; nothing was sent.');
      this.post({ type: 'chat/blocked', requestId: m.requestId, prompt: '' });
      return;
    }
    const { text, attachments = [] } = again.prompt;
    return this.send(m.requestId, m.service, m.model, text, attachments, from, undefined, {
      regenerate: m.turnId,
      overCap: m.overCap === true,
    });
  }

  /** Another version of an answer is shown, and stored so: the next prompt continues from the one shown. */
  private async showVersion(turnId: string, index: number): Promise<void> {
    const conversationId = this.ports.store.conversationId();
    // An answer streaming here would store the turns it started from over this choice.
    if ([...this.running.values()].some((run) => run.conversationId === conversationId)) return;
    const shown = await this.ports.store.showVersion(turnId, index, conversationId);
    if (shown) this.post({ type: 'chat/turn', turn: shown });
  }

  /** Another conversation is shown (switched, new, cleared, restored): every webview gets the state again. */
  showConversation(): void {
    for (const [requestId, run] of this.running) {
      // An answer still streaming belongs to the conversation left behind: it stops and is kept there.
      run.controller.abort();
      this.running.delete(requestId);
    }
    this.post({ type: 'panel/state', state: this.state() });
  }

  /**
   * Shows Clear's Undo in every open chat, which keeps it until it shows another conversation; false when no chat
   * is open to show it.
   */
  offerClearUndo(title: string, undo: () => Promise<void>): boolean {
    if (this.connections.size === 0) return false;
    this.clearUndo = undo;
    this.post({ type: 'history/undoable', title });
    return true;
  }

  /** Asks every webview to put the cursor in the prompt box. */
  focusPrompt(): void {
    this.post({ type: 'prompt/focus' });
  }

  private state(): PanelState {
    const choice = this.ports.store.choice();
    const services = this.services();
    return {
      service: services.some((s) => s.id === choice.service) ? choice.service : DEFAULT_SERVICE,
      services,
      models: this.catalog.models,
      canListModels: this.catalog.canList,
      selectedModel: choice.selectedModel,
      hasKey: this.hasKeys(),
      keyMasks: this.keyMasks(),
      turns: this.ports.store.turns(),
      conversationId: this.ports.store.conversationId(),
      strings: panelStrings(),
      enterSends: this.configuration.value.chat.enterSends,
    };
  }

  private async onReady(from: WebviewConnection | undefined): Promise<void> {
    const state = this.state();
    this.log.info(`Prompt panel ready with ${state.turns.length} turn(s) of conversation.`);
    const message = { type: 'panel/state', state } satisfies HostMessage;
    from?.opened(message);
    this.ports.tap?.(message);
    await Promise.all(state.services.map((service) => this.loadModels(service.id)));
  }

  private async loadModels(service: ServiceId): Promise<void> {
    const list = await this.catalog.load(service);
    if (list) this.post({ type: 'models/list', ...list });
  }

  send(
    requestId: string,
    service: ServiceId,
    model: string,
    prompt: string,
    attachments: Attachment[],
    from?: WebviewConnection,
    replaceFrom?: string,
    options: { overCap?: boolean; regenerate?: string; images?: PromptImage[] | undefined } = {},
  ): Promise<void> {
    return sendPrompt(this.sendContext, {
      requestId,
      service,
      model,
      prompt,
      attachments,
      from,
      replaceFrom,
      options,
    });
  }

  /** What the model takes, from its service's list; undefined when the list is not known or does not say. */
  private support(service: ServiceId, model: string): SettingSupport | undefined {
    return this.catalog.models[service]?.find((m) => m.id === model)?.settings;
  }
}
