// A small hand-written fake of the parts of the `vscode` API that Keyward's host
// layer touches, for fast unit tests and the activation bench. Features are
// proven in the real VS Code host (test/e2e); this only exercises thin adapters.
// Classes implement the real interfaces where they can, so the compiler keeps them honest.
import { FakeQuickPick, ThemeIcon } from './fakeQuickPick.ts';
import type * as vscode from 'vscode';

/** An answer in `state.answers` for a notification left waiting, as a real one is until the person acts. */
export const UNANSWERED = Symbol('unanswered');
export class Disposable {
  private readonly callback: () => void;
  constructor(callback: () => void) {
    this.callback = callback;
  }
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    this.callback();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<(value: T) => void>();
  readonly event = (listener: (value: T) => void) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class MarkdownString implements vscode.MarkdownString {
  value: string;
  isTrusted: boolean | { readonly enabledCommands: readonly string[] } | undefined = false;
  supportThemeIcons: boolean;
  supportHtml = false;
  baseUri: vscode.Uri | undefined;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(value: string): MarkdownString {
    // As VS Code does: Markdown's special characters are escaped.
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
    return this;
  }
  appendMarkdown(value: string): MarkdownString {
    this.value += value;
    return this;
  }
  appendCodeblock(value: string, language = ''): MarkdownString {
    this.value += `\n\`\`\`${language}\n${value}\n\`\`\`\n`;
    return this;
  }
}

export class Position implements vscode.Position {
  readonly line: number;
  readonly character: number;
  constructor(line: number, character: number) {
    this.line = line;
    this.character = character;
  }
  compareTo(other: Position): number {
    return this.line - other.line || this.character - other.character;
  }
  isBefore(other: Position): boolean {
    return this.compareTo(other) < 0;
  }
  isBeforeOrEqual(other: Position): boolean {
    return this.compareTo(other) <= 0;
  }
  isAfter(other: Position): boolean {
    return this.compareTo(other) > 0;
  }
  isAfterOrEqual(other: Position): boolean {
    return this.compareTo(other) >= 0;
  }
  isEqual(other: Position): boolean {
    return this.compareTo(other) === 0;
  }
  translate(lineDelta: number | { lineDelta?: number; characterDelta?: number } = 0, characterDelta = 0): Position {
    if (typeof lineDelta === 'object')
      return new Position(this.line + (lineDelta.lineDelta ?? 0), this.character + (lineDelta.characterDelta ?? 0));
    return new Position(this.line + lineDelta, this.character + characterDelta);
  }
  with(line: number | { line?: number; character?: number } = this.line, character = this.character): Position {
    if (typeof line === 'object') return new Position(line.line ?? this.line, line.character ?? this.character);
    return new Position(line, character);
  }
}

export class Range implements vscode.Range {
  readonly start: Position;
  readonly end: Position;
  constructor(start: Position, end: Position);
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number);
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const [start, end] =
      typeof a === 'number' ? [new Position(a, b as number), new Position(c!, d!)] : [a, b as Position];
    // As VS Code does: start and end are swapped when given the wrong way round.
    [this.start, this.end] = start.isAfter(end) ? [end, start] : [start, end];
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line;
  }
  contains(target: Position | Range): boolean {
    if (target instanceof Range) return this.contains(target.start) && this.contains(target.end);
    return target.isAfterOrEqual(this.start) && target.isBeforeOrEqual(this.end);
  }
  isEqual(other: Range): boolean {
    return this.start.isEqual(other.start) && this.end.isEqual(other.end);
  }
  intersection(other: Range): Range | undefined {
    const start = this.start.isBefore(other.start) ? other.start : this.start;
    const end = this.end.isBefore(other.end) ? this.end : other.end;
    return end.isBefore(start) ? undefined : new Range(start, end);
  }
  union(other: Range): Range {
    return new Range(
      this.start.isBefore(other.start) ? this.start : other.start,
      this.end.isAfter(other.end) ? this.end : other.end,
    );
  }
  with(start: Position | { start?: Position; end?: Position } = this.start, end: Position = this.end): Range {
    if (start instanceof Position) return new Range(start, end);
    return new Range(start.start ?? this.start, start.end ?? this.end);
  }
}

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;
export type DiagnosticSeverity = (typeof DiagnosticSeverity)[keyof typeof DiagnosticSeverity];

export class Diagnostic implements vscode.Diagnostic {
  range: Range;
  message: string;
  severity: DiagnosticSeverity;
  source: string | undefined;
  code: string | number | { value: string | number; target: vscode.Uri } | undefined;
  relatedInformation: vscode.DiagnosticRelatedInformation[] | undefined;
  tags: vscode.DiagnosticTag[] | undefined;
  constructor(range: Range, message: string, severity: DiagnosticSeverity = DiagnosticSeverity.Error) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

export class Hover implements vscode.Hover {
  contents: (MarkdownString | vscode.MarkedString)[];
  range: Range | undefined;
  constructor(
    contents: MarkdownString | vscode.MarkedString | (MarkdownString | vscode.MarkedString)[],
    range?: Range,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents];
    this.range = range;
  }
}

/** One text edit of a WorkspaceEdit; an insert is a replace of an empty range. */
export interface FakeTextEdit {
  uri: vscode.Uri;
  range: Range;
  newText: string;
}

// Not `implements vscode.WorkspaceEdit`: file operations and snippet edits are not faked.
export class WorkspaceEdit {
  readonly edits: FakeTextEdit[] = [];
  get size(): number {
    return new Set(this.edits.map((e) => e.uri.toString())).size;
  }
  insert(uri: vscode.Uri, at: Position, newText: string): void {
    this.edits.push({ uri, range: new Range(at, at), newText });
  }
  replace(uri: vscode.Uri, range: Range, newText: string): void {
    this.edits.push({ uri, range, newText });
  }
  delete(uri: vscode.Uri, range: Range): void {
    this.edits.push({ uri, range, newText: '' });
  }
  has(uri: vscode.Uri): boolean {
    return this.edits.some((e) => e.uri.toString() === uri.toString());
  }
  get(uri: vscode.Uri): FakeTextEdit[] {
    return this.edits.filter((e) => e.uri.toString() === uri.toString());
  }
}

export class CodeActionKind implements vscode.CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly Source = new CodeActionKind('source');
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this);
  }
}

export class CodeAction {
  title: string;
  kind: CodeActionKind | undefined;
  diagnostics: Diagnostic[] | undefined;
  isPreferred: boolean | undefined;
  edit: WorkspaceEdit | undefined;
  command: vscode.Command | undefined;
  disabled: { readonly reason: string } | undefined;
  constructor(title: string, kind?: CodeActionKind) {
    this.title = title;
    this.kind = kind;
  }
}

/** A diagnostic collection that keeps what is set, so tests can read what was published. */
export class FakeDiagnosticCollection {
  readonly name: string;
  readonly entries = new Map<string, readonly Diagnostic[]>();
  constructor(name = '') {
    this.name = name;
  }
  set(uri: vscode.Uri, diagnostics: readonly Diagnostic[] | undefined): void {
    if (diagnostics === undefined) this.entries.delete(uri.toString());
    else this.entries.set(uri.toString(), [...diagnostics]);
  }
  get(uri: vscode.Uri): readonly Diagnostic[] | undefined {
    return this.entries.get(uri.toString());
  }
  delete(uri: vscode.Uri): void {
    this.entries.delete(uri.toString());
  }
  clear(): void {
    this.entries.clear();
  }
  dispose(): void {
    this.entries.clear();
  }
}

/** An open document over a string, with the parts of TextDocument the host layer reads. */
export function fakeDocument(path: string, text: string, languageId = 'javascript', scheme = 'file') {
  const lines = text.split('\n');
  const uri = scheme === 'file' ? fileUri(path) : { scheme, fsPath: path, path, toString: () => `${scheme}:${path}` };
  const offsetAt = (p: Position) =>
    lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) +
    Math.min(p.character, lines[p.line]!.length);
  return {
    uri,
    fileName: path,
    languageId,
    isUntitled: scheme === 'untitled',
    version: 1,
    lineCount: lines.length,
    getText: (range?: Range) => (range ? text.slice(offsetAt(range.start), offsetAt(range.end)) : text),
    lineAt: (n: number) => ({ lineNumber: n, text: lines[n]!, range: new Range(n, 0, n, lines[n]!.length) }),
  };
}

/** A file URI, as far as the host layer looks at one. */
/** A URI that is not a file's, in its parts as RFC 3986 splits them (appendix B), printed back as it came. */
function parsedUri(value: string) {
  const [, scheme = '', authority = '', path = '', query = '', fragment = ''] =
    /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value) ?? [];
  return { scheme, authority, path, query, fragment, toString: () => value };
}

export function fileUri(path: string) {
  return { scheme: 'file', fsPath: path, path, toString: () => `file://${path}` };
}

export class ThemeColor {
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
}

export class FakeStatusBarItem {
  readonly id: string;
  text = '';
  name: string | undefined;
  command: string | undefined;
  tooltip: string | MarkdownString | undefined;
  backgroundColor: ThemeColor | undefined;
  accessibilityInformation: { label: string; role?: string } | undefined;
  visible = false;
  constructor(id: string) {
    this.id = id;
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

/** A Memento over a map. */
export class FakeMemento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
  }
}

/** SecretStorage over a map; `failing` makes every call throw like a missing keyring. */
export class FakeSecrets {
  readonly values = new Map<string, string>();
  failing = false;
  private readonly emitter = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.emitter.event;
  private check(): void {
    if (this.failing) throw new Error('Cannot create an item in a locked collection');
  }
  async get(key: string): Promise<string | undefined> {
    this.check();
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.check();
    this.values.set(key, value);
    this.emitter.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.check();
    this.values.delete(key);
    this.emitter.fire({ key });
  }
  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
}

// The language-model API's value classes, as far as Keyward's provider builds and reads them.
export class LanguageModelTextPart {
  value: string;
  constructor(value: string) {
    this.value = value;
  }
}
export class LanguageModelToolCallPart {
  callId: string;
  name: string;
  input: object;
  constructor(callId: string, name: string, input: object) {
    this.callId = callId;
    this.name = name;
    this.input = input;
  }
}
export class LanguageModelToolResultPart {
  callId: string;
  content: unknown[];
  constructor(callId: string, content: unknown[]) {
    this.callId = callId;
    this.content = content;
  }
}
export class LanguageModelDataPart {
  data: Uint8Array;
  mimeType: string;
  constructor(data: Uint8Array, mimeType: string) {
    this.data = data;
    this.mimeType = mimeType;
  }
}
export class LanguageModelError extends Error {
  code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
  static NoPermissions = (message?: string) => new LanguageModelError(message ?? '', 'NoPermissions');
  static Blocked = (message?: string) => new LanguageModelError(message ?? '', 'Blocked');
  static NotFound = (message?: string) => new LanguageModelError(message ?? '', 'NotFound');
}
export class CancellationError extends Error {
  constructor() {
    super('Canceled');
  }
}

export interface FakeState {
  /** User settings, by full name. */
  settings: Record<string, unknown>;
  /** What a workspace's .vscode/settings.json says, by full name. */
  workspaceSettings: Record<string, unknown>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  logLines: string[];
  messages: { level: 'info' | 'warning' | 'error'; text: string; items: string[] }[];
  /** Scripted answers: the next message with buttons gets the first answer, and so on. */
  answers: (string | undefined | typeof UNANSWERED)[];
  inputs: (string | undefined)[];
  /** The options of each input box shown: its default value, prompt and check. */
  inputBoxes: { value?: string; prompt?: string; validateInput?: (text: string) => unknown }[];
  statusItems: FakeStatusBarItem[];
  /** The loaded l10n bundle, as VS Code loads `bundle.l10n.<locale>.json`; null: English. */
  l10nBundle: Record<string, string> | null;
  opened: string[];
  configurationEmitter: EventEmitter<{ affectsConfiguration(section: string): boolean }>;
  diagnosticCollections: FakeDiagnosticCollection[];
  /** Language-model chat providers by vendor. */
  lmProviders: Map<string, unknown>;
  /** Quick picks shown (their items' labels, descriptions and details), and scripted picks by label. */
  quickPicks: { label: string; description?: string; detail?: string }[][];
  picks: (string | undefined)[];
  /** The last QuickPick created. */
  quickPick?: FakeQuickPick<{ label: string }>;
  /** Progress notifications shown (their titles), and how to press Cancel on the last cancellable one. */
  progress: string[];
  cancelProgress?: () => void;
  /** Status bar messages set (setStatusBarMessage), oldest first. */
  statusMessages: string[];
  /** The extension's URI handlers (VS Code allows one). */
  uriHandlers: { handleUri(uri: unknown): unknown }[];
  /** Text editors shown (fakeTextEditor.ts makes them), CodeLens providers, and the document change event's source. */
  editors: unknown[];
  codeLensProviders: unknown[];
  documentChanges: EventEmitter<unknown>;
}

let decorations = 0;

export class CodeLens {
  range: Range;
  command: vscode.Command | undefined;
  readonly isResolved = true;
  constructor(range: Range, command?: vscode.Command) {
    this.range = range;
    this.command = command;
  }
}

export class Selection extends Range {
  readonly anchor: Position;
  readonly active: Position;
  constructor(anchor: Position, active: Position) {
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
}

export const SymbolKind = { Class: 4, Method: 5, Constructor: 8, Enum: 9, Interface: 10, Function: 11, Struct: 22 };
export const EndOfLine = { LF: 1, CRLF: 2 };
export const OverviewRulerLane = { Left: 1, Center: 2, Right: 4, Full: 7 };

export function createFakeVscode(settings: Record<string, unknown> = {}) {
  const state: FakeState = {
    settings,
    workspaceSettings: {},
    commands: new Map(),
    logLines: [],
    messages: [],
    answers: [],
    inputs: [],
    inputBoxes: [],
    statusItems: [],
    l10nBundle: null,
    opened: [],
    configurationEmitter: new EventEmitter(),
    diagnosticCollections: [],
    lmProviders: new Map(),
    quickPicks: [],
    picks: [],
    progress: [],
    statusMessages: [],
    uriHandlers: [],
    editors: [],
    codeLensProviders: [],
    documentChanges: new EventEmitter(),
  };
  const message =
    (level: 'info' | 'warning' | 'error') =>
    async (text: string, ...rest: unknown[]) => {
      const items = rest.filter((r): r is string => typeof r === 'string');
      state.messages.push({ level, text, items });
      if (items.length === 0) return undefined;
      const answer = state.answers.shift();
      // A notification the person has not answered yet: its promise has not settled.
      return answer === UNANSWERED ? new Promise<never>(() => undefined) : answer;
    };
  const logger = (level: string) => (message: string) => state.logLines.push(`[${level}] ${message}`);
  const api = {
    version: '1.139.0',
    Disposable,
    EventEmitter,
    MarkdownString,
    ThemeColor,
    Position,
    Range,
    Diagnostic,
    WorkspaceEdit,
    CodeAction,
    CodeActionKind,
    DiagnosticSeverity,
    Hover,
    StatusBarAlignment: { Left: 1, Right: 2 },
    LanguageModelTextPart,
    LanguageModelToolCallPart,
    LanguageModelToolResultPart,
    LanguageModelDataPart,
    LanguageModelError,
    CancellationError,
    LanguageModelChatMessageRole: { User: 1, Assistant: 2 },
    LanguageModelChatToolMode: { Auto: 1, Required: 2 },
    lm: {
      registerLanguageModelChatProvider: (vendor: string, provider: unknown) => {
        state.lmProviders.set(vendor, provider);
        return new Disposable(() => state.lmProviders.delete(vendor));
      },
    },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    Uri: {
      // A parsed file URI is a file URI again (the diagnostics key their maps by the string).
      parse: (value: string) =>
        value.startsWith('file://') ? fileUri(value.slice('file://'.length)) : parsedUri(value),
      file: fileUri,
    },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    env: {
      language: 'en',
      clipboard: { writeText: async () => undefined },
      uriScheme: 'vscode',
      // As VS Code desktop answers for its own scheme: the URI as it is (code-server gives an https address instead).
      asExternalUri: async <T>(uri: T) => uri,
      openExternal: async (uri: { toString(): string }) => {
        state.opened.push(uri.toString());
        return true;
      },
    },
    l10n: {
      // As VS Code does: the bundle's text for the message when it has one, the English otherwise.
      t: (message: string, ...args: unknown[]) =>
        (state.l10nBundle?.[message] ?? message).replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])),
    },
    window: {
      createOutputChannel: (_name: string, _options?: unknown) => ({
        info: logger('info'),
        warn: logger('warn'),
        error: logger('error'),
        debug: logger('debug'),
        trace: logger('trace'),
        appendLine: logger('info'),
        show: () => undefined,
        dispose: () => undefined,
      }),
      showInformationMessage: message('info'),
      showWarningMessage: message('warning'),
      showErrorMessage: message('error'),
      showInputBox: async (options?: {
        value?: string;
        prompt?: string;
        validateInput?: (text: string) => unknown;
      }) => {
        state.inputBoxes.push(options ?? {});
        return state.inputs.shift();
      },
      withProgress: <T>(
        options: { title?: string; cancellable?: boolean },
        task: (progress: unknown, token: { onCancellationRequested(listener: () => void): unknown }) => Promise<T>,
      ) => {
        const cancelled = new EventEmitter<void>();
        state.progress.push(options.title ?? '');
        if (options.cancellable) state.cancelProgress = () => cancelled.fire(undefined);
        return task({ report: () => undefined }, { onCancellationRequested: cancelled.event });
      },
      showQuickPick: async (items: unknown) => {
        const shown = (await items) as { label: string; description?: string; detail?: string }[];
        if (!Array.isArray(shown)) return undefined;
        state.quickPicks.push(shown.map(({ label, description, detail }) => ({ label, description, detail })));
        const pick = state.picks.shift();
        return shown.find((i) => i.label === pick);
      },
      setStatusBarMessage: (text: string) => {
        state.statusMessages.push(text);
        return new Disposable(() => undefined);
      },
      createStatusBarItem: (id: string) => {
        const item = new FakeStatusBarItem(id);
        state.statusItems.push(item);
        return item;
      },
      state: { focused: true },
      activeTextEditor: undefined,
      onDidChangeActiveTextEditor: new EventEmitter<unknown>().event,
      registerWebviewPanelSerializer: () => new Disposable(() => undefined),
      registerUriHandler: (handler: { handleUri(uri: unknown): unknown }) => {
        state.uriHandlers.push(handler);
        return new Disposable(() => state.uriHandlers.splice(state.uriHandlers.indexOf(handler), 1));
      },
      registerWebviewViewProvider: () => new Disposable(() => undefined),
      onDidChangeWindowState: new EventEmitter<{ focused: boolean }>().event,
    },
    workspace: {
      getConfiguration: (section?: string) => {
        // No section: `name` is the whole key, as in VS Code.
        const keyOf = (name: string) => (section ? `${section}.${name}` : name);
        return {
          // As VS Code merges them: the workspace's value over the user's.
          get: (name: string) => state.workspaceSettings[keyOf(name)] ?? state.settings[keyOf(name)],
          inspect: (name: string) => ({
            key: keyOf(name),
            globalValue: state.settings[keyOf(name)],
            workspaceValue: state.workspaceSettings[keyOf(name)],
          }),
        };
      },
      isTrusted: true,
      asRelativePath: (uri: { fsPath?: string } | string) => (typeof uri === 'string' ? uri : (uri.fsPath ?? '')),
      onDidGrantWorkspaceTrust: new EventEmitter<void>().event,
      onDidChangeConfiguration: state.configurationEmitter.event,
      onDidOpenTextDocument: new EventEmitter<unknown>().event,
      onDidCloseTextDocument: new EventEmitter<unknown>().event,
      onDidChangeTextDocument: state.documentChanges.event,
      onDidSaveTextDocument: new EventEmitter<unknown>().event,
      textDocuments: [] as unknown[],
      workspaceFolders: undefined,
      registerTextDocumentContentProvider: () => new Disposable(() => undefined),
      createFileSystemWatcher: () => {
        const none = new EventEmitter<unknown>().event;
        return { onDidChange: none, onDidCreate: none, onDidDelete: none, dispose: () => undefined };
      },
    },
    languages: {
      createDiagnosticCollection: (name?: string) => {
        const collection = new FakeDiagnosticCollection(name);
        state.diagnosticCollections.push(collection);
        return collection;
      },
      registerCodeActionsProvider: () => new Disposable(() => undefined),
      registerHoverProvider: () => new Disposable(() => undefined),
    },
    extensions: { getExtension: () => undefined, all: [] as { id: string; packageJSON: unknown }[] },
    commands: {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        if (state.commands.has(id)) throw new Error(`command ${id} already registered`);
        state.commands.set(id, handler);
        return new Disposable(() => state.commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => state.commands.get(id)?.(...args),
    },
    ThemeIcon,
  };
  // The one QuickPick shown last, for a test to drive (fakeQuickPick.ts).
  Object.assign(api.window, {
    createQuickPick: () => (state.quickPick = new FakeQuickPick()),
  });
  // The editor's parts the inline edit uses: editors shown, decorations, CodeLens (fakeTextEditor.ts).
  Object.defineProperty(api.window, 'visibleTextEditors', { get: () => state.editors, enumerable: true });
  Object.assign(api.window, {
    onDidChangeVisibleTextEditors: new EventEmitter<unknown>().event,
    createTextEditorDecorationType: (options: unknown) => ({
      key: `decoration${++decorations}`,
      options,
      dispose() {},
    }),
  });
  Object.assign(api.languages, {
    registerCodeLensProvider: (_selector: unknown, provider: unknown) => {
      state.codeLensProviders.push(provider);
      return new Disposable(() => state.codeLensProviders.splice(state.codeLensProviders.indexOf(provider), 1));
    },
  });
  Object.assign(api, { CodeLens, Selection, SymbolKind, EndOfLine, OverviewRulerLane });
  return { api, state };
}

export function fakeExtensionContext(version = '0.0.0', mode = 1) {
  const subscriptions: { dispose(): unknown }[] = [];
  return {
    subscriptions,
    extension: { id: 'keyward.keyward', packageJSON: { version } },
    extensionMode: mode,
    secrets: new FakeSecrets(),
    globalState: new FakeMemento(),
    workspaceState: new FakeMemento(),
    dispose: () => subscriptions.splice(0).forEach((d) => d.dispose()),
  };
}
