// The host side of the prompt panel: owns the webview, validates every message
// from it, runs prompts through the shared clients, guards against sending a
// key, and keeps the conversation in workspace storage. What it stores passes
// the one filter for disk; attachments are remembered as references (file,
// range), and their text is read again when a restored chip is sent.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ServiceId } from '../shared/errorKinds.ts';
import {
  type Attachment,
  type ChatTurn,
  type HostMessage,
  type ModelOption,
  type PanelState,
  type WebviewHandlers,
  type WebviewMessage,
  isWebviewMessage,
} from '../shared/protocol.ts';
import type { AccountMonitor } from '../core/accountMonitor.ts';
import { ServiceError } from '../core/errors.ts';
import { FREE_ROUTER_MODEL, isFreeModelId } from '../core/routerClient.ts';
import { type KeyStore, scannerKeys } from '../core/keyStore.ts';
import { type Turn, runPrompt } from '../core/promptRunner.ts';
import type { ReportedUsage } from '../core/textStream.ts';
import { scrubForDisk } from '../core/persistFilter.ts';
import { scanText } from '../core/scan/scanner.ts';
import { CommandId } from './commandIds.ts';
import type { Configuration } from './configuration.ts';
import type { Log } from './log.ts';
import { buildPanelHtml } from './panelHtml.ts';
import { panelStrings } from './panelStrings.ts';
import { ScrubbedMemento } from './scrubbedState.ts';
import { disposeAll } from '../shared/dispose.ts';

export const PANEL_VIEW_TYPE = 'keyward.prompt';
const TURNS_KEY = 'keyward.panel.turns';
const CHOICE_KEY = 'keyward.panel.choice';
const REFS_KEY = 'keyward.panel.attachmentRefs';
const MAX_REFS = 50;
const t = vscode.l10n.t;

/** Where an attachment's text came from: enough to read it again, nothing of the text itself. */
interface AttachmentRef {
  id: string;
  uri: string;
  /** Start line, start character, end line, end character (0-based). */
  range: [number, number, number, number];
}

interface Choice {
  service: ServiceId;
  selectedModel: Record<ServiceId, string>;
}

const newId = () => randomBytes(9).toString('hex');

/** Prompt text with the attached code, as the service receives it. */
export function composePrompt(prompt: string, attachments: readonly Attachment[]): string {
  const blocks = attachments.map(
    (a) =>
      `File ${a.fileName} (${a.languageId}), lines ${a.startLine}-${a.endLine}:\n\`\`\`${a.languageId}\n${a.text}\n\`\`\``,
  );
  return [prompt, ...blocks].join('\n\n');
}

export function routerOptions(
  models: { id: string; name: string; free: boolean; promptPrice: number | null; completionPrice: number | null }[],
): ModelOption[] {
  const options = models.map((m) => ({
    id: m.id,
    name: m.name,
    free: m.free,
    inputPerMillion: m.promptPrice === null ? null : m.promptPrice * 1e6,
    outputPerMillion: m.completionPrice === null ? null : m.completionPrice * 1e6,
  }));
  const rank = (m: ModelOption) => (m.id === FREE_ROUTER_MODEL ? 0 : m.free ? 1 : 2);
  return options.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

export class PromptPanel implements vscode.Disposable, vscode.WebviewPanelSerializer {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private queue: HostMessage[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly disposables: vscode.Disposable[] = [];
  private panelDisposables: vscode.Disposable[] = [];
  private lastEditor: vscode.TextEditor | undefined;
  private models: Record<ServiceId, ModelOption[] | null> = { router: null, direct: null };
  private canList: Record<ServiceId, boolean> = { router: true, direct: true };
  /** For tests: what the secret guard answers instead of a modal. */
  guardAnswer: 'redact' | 'cancel' | undefined;
  /** For tests: every message sent to the webview. */
  readonly sent: HostMessage[] = [];

  private readonly context: vscode.ExtensionContext;
  /** Workspace state through the one filter for disk. */
  private readonly state: vscode.Memento;
  private readonly monitor: AccountMonitor;
  private readonly keys: KeyStore;
  private readonly configuration: Configuration;
  private readonly log: Log;

  constructor(
    context: vscode.ExtensionContext,
    monitor: AccountMonitor,
    keys: KeyStore,
    configuration: Configuration,
    log: Log,
  ) {
    this.context = context;
    this.state = new ScrubbedMemento(context.workspaceState, () => scannerKeys(keys));
    this.monitor = monitor;
    this.keys = keys;
    this.configuration = configuration;
    this.log = log;
    this.lastEditor = vscode.window.activeTextEditor;
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.lastEditor = editor;
      }),
      vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, this),
    );
    const unsubscribe = keys.onDidChange((service) => {
      this.models[service] = null;
      this.post({ type: 'keys/changed', hasKey: this.hasKeys() });
      if (this.panel) void this.loadModels(service);
    });
    this.disposables.push(new vscode.Disposable(unsubscribe));
  }

  private hasKeys(): Record<ServiceId, boolean> {
    return { router: this.keys.metadata('router') !== undefined, direct: this.keys.metadata('direct') !== undefined };
  }

  private turns(): ChatTurn[] {
    return this.state.get<ChatTurn[]>(TURNS_KEY) ?? [];
  }

  private async saveTurns(turns: ChatTurn[]): Promise<void> {
    await this.state.update(TURNS_KEY, turns);
  }

  private choice(): Choice {
    return (
      this.state.get<Choice>(CHOICE_KEY) ?? {
        service: 'router',
        selectedModel: { router: FREE_ROUTER_MODEL, direct: 'gpt-5.4-mini' },
      }
    );
  }

  open(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      t('Keyward'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      this.webviewOptions(),
    );
    this.attach(panel);
    return panel;
  }

  private webviewOptions(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.context.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.context.extensionUri, 'media'),
      ],
    };
  }

  /** VS Code restores the panel after a reload. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = this.webviewOptions();
    this.attach(panel);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'icon.svg');
    const webview = panel.webview;
    const nonce = randomBytes(16).toString('base64');
    webview.html = buildPanelHtml({
      cspSource: webview.cspSource,
      nonce,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'media', 'panel.css')).toString(),
      lang: vscode.env.language,
      strings: panelStrings(),
    });
    this.panelDisposables = [
      webview.onDidReceiveMessage((message: unknown) => this.handleMessage(message)),
      panel.onDidDispose(() => {
        // Closing the panel stops what it was waiting for.
        for (const controller of this.running.values()) controller.abort();
        this.running.clear();
        this.panel = undefined;
        this.ready = false;
        disposeAll(this.panelDisposables);
      }),
    ];
  }

  private post(message: HostMessage): void {
    this.sent.push(message);
    if (this.sent.length > 2000) this.sent.splice(0, 1000);
    if (!this.panel) return;
    if (!this.ready) {
      if (message.type !== 'panel/state') this.queue.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  /** Every message from the webview enters here and is validated before use. */
  handleMessage(raw: unknown): void {
    if (!isWebviewMessage(raw)) {
      this.log.warn(
        `Dropped a malformed message from the prompt panel (${typeof raw === 'object' && raw ? String((raw as { type?: unknown }).type) : typeof raw}).`,
      );
      return;
    }
    const handler = this.handlers[raw.type] as (message: WebviewMessage) => unknown;
    void Promise.resolve(handler(raw)).catch((error: unknown) =>
      this.log.error(`Prompt panel: ${(error as Error).message}`),
    );
  }

  private readonly handlers: WebviewHandlers = {
    'webview/ready': () => this.onReady(),
    'chat/send': (m) => this.send(m.requestId, m.service, m.model, m.prompt, m.attachments),
    'chat/stop': (m) => this.running.get(m.requestId)?.abort(),
    'models/refresh': (m) => {
      this.models[m.service] = null;
      return this.loadModels(m.service);
    },
    'service/select': (m) => this.state.update(CHOICE_KEY, { ...this.choice(), service: m.service }),
    'model/select': (m) =>
      this.state.update(CHOICE_KEY, {
        ...this.choice(),
        selectedModel: { ...this.choice().selectedModel, [m.service]: m.model },
      }),
    'link/open': (m) => (/^https:\/\//i.test(m.url) ? vscode.env.openExternal(vscode.Uri.parse(m.url)) : undefined),
    'code/insert': (m) => this.insertCode(m.code, m.mode),
    'code/copy': (m) => vscode.env.clipboard.writeText(m.code),
    'history/clear': () => this.clearHistory(),
    'history/export': () => this.exportHistory(),
    'action/run': (m) => this.runAction(m.action, m.service),
  };

  private async onReady(): Promise<void> {
    const choice = this.choice();
    const state: PanelState = {
      service: choice.service,
      models: this.models,
      canListModels: this.canList,
      selectedModel: choice.selectedModel,
      hasKey: this.hasKeys(),
      turns: this.turns(),
      strings: panelStrings(),
    };
    this.ready = true;
    this.log.info(`Prompt panel ready with ${state.turns.length} turn(s) of conversation.`);
    void this.panel?.webview.postMessage({ type: 'panel/state', state } satisfies HostMessage);
    this.sent.push({ type: 'panel/state', state });
    for (const message of this.queue.splice(0)) void this.panel?.webview.postMessage(message);
    await Promise.all((['router', 'direct'] as const).map((service) => this.loadModels(service)));
  }

  private async loadModels(service: ServiceId): Promise<void> {
    if (this.models[service]) {
      this.post({ type: 'models/list', service, models: this.models[service], canList: this.canList[service] });
      return;
    }
    try {
      if (service === 'router') {
        const client = await this.monitor.routerClient();
        if (!client) return;
        this.models.router = routerOptions(await client.models());
        this.canList.router = true;
      } else {
        const client = await this.monitor.directClient();
        if (!client) return;
        this.models.direct = (await client.models())
          .sort()
          .map((id) => ({ id, name: id, free: false, inputPerMillion: null, outputPerMillion: null }));
        this.canList.direct = true;
      }
      this.post({ type: 'models/list', service, models: this.models[service], canList: true });
    } catch (error) {
      const failure = error instanceof ServiceError ? error : undefined;
      // A Restricted key may prompt yet not list models: the person types a model id.
      this.canList[service] = failure?.kind !== 'permission';
      this.post({
        type: 'models/list',
        service,
        models: null,
        canList: this.canList[service],
        ...(failure ? { error: failure.toData() } : {}),
      });
    }
  }

  /**
   * Adds the selection of the active editor to the panel, as a removable chip.
   * With nothing selected it asks: the whole file (a .env, say) is attached only
   * when the person chooses it, or when `scope` says so.
   */
  async askAboutSelection(
    editor = vscode.window.activeTextEditor,
    scope: 'ask' | 'wholeFile' = 'ask',
  ): Promise<Attachment | undefined> {
    if (!editor) {
      this.open();
      return undefined;
    }
    const document = editor.document;
    let selection: vscode.Range = editor.selection;
    if (selection.isEmpty) {
      if (scope !== 'wholeFile') {
        const pick = await vscode.window.showQuickPick(
          [
            {
              label: t(
                'Attach the whole file ({0} lines)',
                String(
                  document.lineCount -
                    (document.lineAt(document.lineCount - 1).isEmptyOrWhitespace && document.lineCount > 1 ? 1 : 0),
                ),
              ),
              whole: true,
            },
            { label: t('Attach nothing'), whole: false },
          ],
          {
            title: t('Nothing is selected in {0}', vscode.workspace.asRelativePath(document.uri)),
            placeHolder: t('Select the code to ask about, or attach the whole file'),
          },
        );
        if (!pick?.whole) {
          this.open();
          return undefined;
        }
      }
      selection = new vscode.Range(0, 0, document.lineCount, 0);
    }
    this.open();
    const range = document.validateRange(selection);
    const attachment: Attachment = {
      id: newId(),
      fileName: vscode.workspace.asRelativePath(document.uri),
      languageId: document.languageId,
      startLine: range.start.line + 1,
      endLine: Math.max(
        range.start.line + 1,
        range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1,
      ),
      text: document.getText(range),
    };
    this.lastEditor = editor;
    const refs = this.state.get<AttachmentRef[]>(REFS_KEY) ?? [];
    await this.state.update(
      REFS_KEY,
      [
        ...refs,
        {
          id: attachment.id,
          uri: document.uri.toString(),
          range: [range.start.line, range.start.character, range.end.line, range.end.character],
        },
      ].slice(-MAX_REFS),
    );
    this.post({ type: 'attachment/add', attachment });
    return attachment;
  }

  /**
   * The webview keeps attachments as references only (its state is written to
   * disk): a chip restored after a reload comes back without text, and the text
   * is read again here from the file, only for attachments this host made.
   */
  private async resolveAttachments(attachments: Attachment[]): Promise<Attachment[]> {
    const refs = this.state.get<AttachmentRef[]>(REFS_KEY) ?? [];
    const resolved: Attachment[] = [];
    for (const attachment of attachments) {
      if (attachment.text !== '') {
        resolved.push(attachment);
        continue;
      }
      const ref = refs.find((r) => r.id === attachment.id);
      try {
        if (!ref) throw new Error('no longer known');
        const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.uri));
        resolved.push({
          ...attachment,
          text: document.getText(document.validateRange(new vscode.Range(...ref.range))),
        });
      } catch (error) {
        this.log.warn(
          `Left out the attachment ${attachment.fileName}:${attachment.startLine}-${attachment.endLine}: ${(error as Error).message}.`,
        );
      }
    }
    return resolved;
  }

  /**
   * The secret guard: a key in the prompt or the attached code never leaves the
   * editor. Returns the texts to send (keys redacted) or undefined to cancel.
   */
  private async guard(
    prompt: string,
    attachments: Attachment[],
  ): Promise<{ prompt: string; attachments: Attachment[] } | undefined> {
    const options = await scannerKeys(this.keys).catch(() => ({}));
    const pieces = [prompt, ...attachments.map((a) => a.text)];
    const found = pieces.map((text) => scanText(text, options));
    const all = found.flat();
    if (all.length === 0) return { prompt, attachments };
    const names = [...new Set(all.map((f) => `${f.masked} (${f.description})`))].join(', ');
    const redact = t('Send with the Key Redacted');
    const answer =
      this.guardAnswer ??
      ((await vscode.window.showWarningMessage(
        t('The prompt contains a key: {0}. Keyward will not send it.', names),
        { modal: true },
        redact,
      )) === redact
        ? 'redact'
        : 'cancel');
    if (answer !== 'redact') return undefined;
    const redacted = pieces.map((text, i) => {
      const lines = text.split('\n');
      for (const f of [...found[i]!].reverse()) {
        const line = lines[f.line]!;
        lines[f.line] = `${line.slice(0, f.column)}[redacted key ${f.masked}]${line.slice(f.endColumn)}`;
      }
      return lines.join('\n');
    });
    return { prompt: redacted[0]!, attachments: attachments.map((a, i) => ({ ...a, text: redacted[i + 1]! })) };
  }

  async send(
    requestId: string,
    service: ServiceId,
    model: string,
    rawPrompt: string,
    rawAttachments: Attachment[],
  ): Promise<void> {
    const guarded = await this.guard(rawPrompt, await this.resolveAttachments(rawAttachments));
    if (guarded === undefined) {
      // The prompt is still in the webview's box; it is not echoed back.
      this.post({ type: 'chat/blocked', requestId, prompt: '' });
      return;
    }
    const { prompt, attachments } = guarded;
    const history = this.turns();
    const user: ChatTurn = { id: newId(), role: 'user', text: prompt, service, model, status: 'done', attachments };
    const assistant: ChatTurn = { id: newId(), role: 'assistant', text: '', service, model, status: 'streaming' };
    this.post({ type: 'chat/started', requestId, user, assistant });
    const previous = history.filter(
      (turn) =>
        turn.service === service && (turn.role === 'user' || turn.status === 'done' || turn.status === 'interrupted'),
    );
    const turns: Turn[] = previous.map((turn) => ({
      role: turn.role,
      content:
        turn.role === 'user' ? composePrompt(turn.text, turn.attachments ?? []) : turn.text || turn.refusal || '',
    }));
    turns.push({ role: 'user', content: composePrompt(prompt, attachments) });
    const lastDirect = [...history]
      .reverse()
      .find((turn) => turn.service === 'direct' && turn.role === 'assistant' && turn.responseId);
    const controller = new AbortController();
    this.running.set(requestId, controller);
    let text = '';
    let reported: ReportedUsage | undefined;
    try {
      const result = await runPrompt(
        this.monitor,
        {
          service,
          model,
          turns,
          ...(service === 'direct' && lastDirect?.responseId ? { previousResponseId: lastDirect.responseId } : {}),
          denyDataCollection: this.configuration.value.router.denyDataCollection,
        },
        {
          signal: controller.signal,
          onDelta: (delta) => {
            text += delta;
            this.post({ type: 'chat/chunk', requestId, text: delta });
          },
          onRetry: (notice) =>
            this.post({ type: 'chat/retrying', requestId, kind: notice.error.kind, delayMs: notice.delayMs }),
          onFreeWait: (delayMs) => this.post({ type: 'chat/retrying', requestId, kind: 'free_limit_minute', delayMs }),
          onReported: (usage) => {
            reported = usage;
          },
        },
      );
      const free =
        service === 'router' && (isFreeModelId(model) || result.costUsd === 0) ? this.monitor.freeGuard.status() : null;
      const done: ChatTurn = {
        ...assistant,
        text: result.text,
        model: result.model || model,
        status: 'done',
        usage: result.usage,
        costUsd: result.costUsd,
        free: free ? { used: free.used, limit: free.limit } : null,
        responseId: service === 'direct' ? result.id : null,
        refusal: result.refusal,
        finishReason: result.finishReason,
      };
      await this.saveTurns([...history, user, done]);
      this.post({ type: 'chat/done', requestId, turn: done });
    } catch (thrown) {
      const error =
        thrown instanceof ServiceError
          ? thrown
          : new ServiceError({ kind: 'network', service, message: String((thrown as Error)?.message ?? thrown) });
      const partial = error.partialText ?? text;
      const status: ChatTurn['status'] =
        error.kind === 'cancelled' ? 'cancelled' : error.kind === 'stream_interrupted' ? 'interrupted' : 'error';
      const failed: ChatTurn = {
        ...assistant,
        text: partial,
        status,
        error: error.toData(),
        // What the service charged for a stopped or broken answer, when it said.
        ...(reported ? { usage: reported.usage, costUsd: reported.costUsd } : {}),
        // The reset is a moment, not "in N seconds from whenever the card is drawn".
        retryAt:
          error.retryAfterSeconds !== null ? new Date(Date.now() + error.retryAfterSeconds * 1000).toISOString() : null,
      };
      await this.saveTurns([...history, user, failed]);
      this.post({ type: 'chat/error', requestId, turn: failed, prompt });
      this.log.warn(`Prompt to the ${service} service (${model}) failed: ${error.kind}: ${error.message}`);
    } finally {
      this.running.delete(requestId);
    }
  }

  private async insertCode(code: string, mode: 'cursor' | 'replace' | 'below'): Promise<boolean> {
    const editor = this.lastEditor;
    if (!editor || editor.document.isClosed) {
      void vscode.window.showInformationMessage(t('Open an editor to insert the code into.'));
      return false;
    }
    const { document, selection } = editor;
    const edit = new vscode.WorkspaceEdit();
    if (mode === 'replace') edit.replace(document.uri, selection, code);
    else if (mode === 'below') {
      const line =
        selection.end.character === 0 && selection.end.line > selection.start.line
          ? selection.end.line - 1
          : selection.end.line;
      edit.insert(document.uri, document.lineAt(line).range.end, `\n${code.replace(/\n$/, '')}`);
    } else edit.insert(document.uri, selection.active, code);
    return vscode.workspace.applyEdit(edit);
  }

  async clearHistory(): Promise<void> {
    await this.saveTurns([]);
    this.post({ type: 'history/cleared' });
  }

  /** Writes the conversation as Markdown; `target` skips the save dialog (tests, scripts). */
  async exportHistory(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        filters: { Markdown: ['md'] },
        defaultUri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders?.[0]?.uri ?? this.context.globalStorageUri,
          'keyward-conversation.md',
        ),
      }));
    if (!uri) return undefined;
    const parts = ['# Keyward conversation', ''];
    for (const turn of this.turns()) {
      if (turn.role === 'user') {
        parts.push(`## You (${turn.service}, ${turn.model})`, '', composePrompt(turn.text, turn.attachments ?? []), '');
      } else {
        parts.push(`## ${turn.model}${turn.status !== 'done' ? ` (${turn.status})` : ''}`, '', turn.text, '');
        if (turn.refusal) parts.push(`> ${t('The model declined')}: ${turn.refusal}`, '');
        if (turn.finishReason === 'length' || turn.finishReason === 'content_filter')
          parts.push(
            `_${turn.finishReason === 'length' ? t('Cut off at the token limit.') : t('Filtered by the provider.')}_`,
            '',
          );
        if (turn.error) parts.push(`> ${turn.error.kind}: ${turn.error.message}`, '');
      }
    }
    const options = await scannerKeys(this.keys).catch(() => ({}));
    await vscode.workspace.fs.writeFile(uri, Buffer.from(scrubForDisk(parts.join('\n'), options)));
    return uri;
  }

  private async runAction(
    action: 'setKey' | 'verifyKey' | 'openCredits' | 'openKeys',
    service: ServiceId,
  ): Promise<void> {
    const config = this.configuration.value;
    if (action === 'setKey')
      await vscode.commands.executeCommand(service === 'router' ? CommandId.setRouterKey : CommandId.setDirectKey);
    else if (action === 'verifyKey')
      await vscode.commands.executeCommand(
        service === 'router' ? CommandId.verifyRouterKey : CommandId.verifyDirectKey,
      );
    else if (action === 'openCredits')
      await vscode.env.openExternal(
        vscode.Uri.parse(service === 'router' ? config.router.creditsUrl : config.direct.billingUrl),
      );
    else
      await vscode.env.openExternal(
        vscode.Uri.parse(service === 'router' ? config.router.keysUrl : config.direct.keysUrl),
      );
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  dispose(): void {
    for (const controller of this.running.values()) controller.abort();
    this.panel?.dispose();
    disposeAll(this.disposables);
  }
}
