// A small hand-written fake of the parts of the `vscode` API that Keyward's host
// layer touches, for fast unit tests and the activation bench. Features are
// proven in the real VS Code host (test/e2e); this only exercises thin adapters.
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

export class MarkdownString {
  value: string;
  isTrusted = false;
  supportThemeIcons: boolean;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
}

export class Position {
  readonly line: number;
  readonly character: number;
  constructor(line: number, character: number) {
    this.line = line;
    this.character = character;
  }
  isBefore(other: Position): boolean {
    return this.line < other.line || (this.line === other.line && this.character < other.character);
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
  contains(position: Position): boolean {
    return !position.isBefore(this.start) && !this.end.isBefore(position);
  }
  intersection(other: Range): Range | undefined {
    const start = this.start.isBefore(other.start) ? other.start : this.start;
    const end = this.end.isBefore(other.end) ? this.end : other.end;
    return end.isBefore(start) ? undefined : new Range(start.line, start.character, end.line, end.character);
  }
}

export class Diagnostic {
  readonly range: Range;
  readonly message: string;
  readonly severity: number;
  source: string | undefined;
  code: string | undefined;
  constructor(range: Range, message: string, severity: number) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

export class WorkspaceEdit {
  readonly edits: { uri: unknown; at: Position | Range; text: string }[] = [];
  insert(uri: unknown, at: Position, text: string): void {
    this.edits.push({ uri, at, text });
  }
  replace(uri: unknown, at: Range, text: string): void {
    this.edits.push({ uri, at, text });
  }
  delete(uri: unknown, at: Range): void {
    this.edits.push({ uri, at, text: '' });
  }
}

export class CodeAction {
  readonly title: string;
  readonly kind: string;
  diagnostics: Diagnostic[] = [];
  isPreferred = false;
  edit: WorkspaceEdit | undefined;
  command: { title: string; command: string; arguments?: unknown[] } | undefined;
  constructor(title: string, kind: string) {
    this.title = title;
    this.kind = kind;
  }
}

/** A file URI, as far as the host layer looks at one. */
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

export interface FakeState {
  /** User settings, by full name. */
  settings: Record<string, unknown>;
  /** What a workspace's .vscode/settings.json says, by full name. */
  workspaceSettings: Record<string, unknown>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  logLines: string[];
  messages: { level: 'info' | 'warning' | 'error'; text: string; items: string[] }[];
  /** Scripted answers: the next message with buttons gets the first answer, and so on. */
  answers: (string | undefined)[];
  inputs: (string | undefined)[];
  statusItems: FakeStatusBarItem[];
  opened: string[];
  configurationEmitter: EventEmitter<{ affectsConfiguration(section: string): boolean }>;
}

export function createFakeVscode(settings: Record<string, unknown> = {}) {
  const state: FakeState = {
    settings,
    workspaceSettings: {},
    commands: new Map(),
    logLines: [],
    messages: [],
    answers: [],
    inputs: [],
    statusItems: [],
    opened: [],
    configurationEmitter: new EventEmitter(),
  };
  const message =
    (level: 'info' | 'warning' | 'error') =>
    async (text: string, ...rest: unknown[]) => {
      const items = rest.filter((r): r is string => typeof r === 'string');
      state.messages.push({ level, text, items });
      return items.length > 0 ? state.answers.shift() : undefined;
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
    StatusBarAlignment: { Left: 1, Right: 2 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    Uri: { parse: (value: string) => ({ toString: () => value }), file: fileUri },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    env: {
      language: 'en',
      clipboard: { writeText: async () => undefined },
      openExternal: async (uri: { toString(): string }) => {
        state.opened.push(uri.toString());
        return true;
      },
    },
    l10n: {
      t: (message: string, ...args: unknown[]) =>
        message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])),
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
      showInputBox: async () => state.inputs.shift(),
      showQuickPick: async () => undefined,
      createStatusBarItem: (id: string) => {
        const item = new FakeStatusBarItem(id);
        state.statusItems.push(item);
        return item;
      },
      state: { focused: true },
      activeTextEditor: undefined,
      onDidChangeActiveTextEditor: new EventEmitter<unknown>().event,
      registerWebviewPanelSerializer: () => new Disposable(() => undefined),
      registerWebviewViewProvider: () => new Disposable(() => undefined),
      onDidChangeWindowState: new EventEmitter<{ focused: boolean }>().event,
    },
    workspace: {
      getConfiguration: (section: string) => ({
        // As VS Code merges them: the workspace's value over the user's.
        get: (name: string) => state.workspaceSettings[`${section}.${name}`] ?? state.settings[`${section}.${name}`],
        inspect: (name: string) => ({
          key: `${section}.${name}`,
          globalValue: state.settings[`${section}.${name}`],
          workspaceValue: state.workspaceSettings[`${section}.${name}`],
        }),
      }),
      isTrusted: true,
      asRelativePath: (uri: { fsPath?: string } | string) => (typeof uri === 'string' ? uri : (uri.fsPath ?? '')),
      onDidGrantWorkspaceTrust: new EventEmitter<void>().event,
      onDidChangeConfiguration: state.configurationEmitter.event,
      onDidOpenTextDocument: new EventEmitter<unknown>().event,
      onDidCloseTextDocument: new EventEmitter<unknown>().event,
      onDidChangeTextDocument: new EventEmitter<unknown>().event,
      onDidSaveTextDocument: new EventEmitter<unknown>().event,
      textDocuments: [] as unknown[],
      workspaceFolders: undefined,
      createFileSystemWatcher: () => {
        const none = new EventEmitter<unknown>().event;
        return { onDidChange: none, onDidCreate: none, onDidDelete: none, dispose: () => undefined };
      },
    },
    languages: {
      createDiagnosticCollection: () => ({
        set: () => undefined,
        delete: () => undefined,
        clear: () => undefined,
        dispose: () => undefined,
      }),
      registerCodeActionsProvider: () => new Disposable(() => undefined),
      registerHoverProvider: () => new Disposable(() => undefined),
    },
    extensions: { getExtension: () => undefined },
    CodeActionKind: { QuickFix: 'quickfix' },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    commands: {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        if (state.commands.has(id)) throw new Error(`command ${id} already registered`);
        state.commands.set(id, handler);
        return new Disposable(() => state.commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => state.commands.get(id)?.(...args),
    },
  };
  return { api, state };
}

export function fakeExtensionContext(version = '0.0.0', mode = 1) {
  const subscriptions: { dispose(): unknown }[] = [];
  return {
    subscriptions,
    extension: { packageJSON: { version } },
    extensionMode: mode,
    secrets: new FakeSecrets(),
    globalState: new FakeMemento(),
    workspaceState: new FakeMemento(),
    dispose: () => subscriptions.splice(0).forEach((d) => d.dispose()),
  };
}
