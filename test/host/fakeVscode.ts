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

export interface FakeState {
  settings: Record<string, unknown>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  logLines: string[];
  messages: { level: 'info' | 'warning' | 'error'; text: string }[];
  configurationEmitter: EventEmitter<{ affectsConfiguration(section: string): boolean }>;
}

export function createFakeVscode(settings: Record<string, unknown> = {}) {
  const state: FakeState = {
    settings,
    commands: new Map(),
    logLines: [],
    messages: [],
    configurationEmitter: new EventEmitter(),
  };
  const logger = (level: string) => (message: string) => state.logLines.push(`[${level}] ${message}`);
  const api = {
    version: '1.139.0',
    Disposable,
    EventEmitter,
    l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) },
    window: {
      createOutputChannel: (_name: string, _options?: unknown) => ({
        info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug'), trace: logger('trace'),
        appendLine: logger('info'), show: () => undefined, dispose: () => undefined,
      }),
      showInformationMessage: async (text: string) => void state.messages.push({ level: 'info', text }),
      showWarningMessage: async (text: string) => void state.messages.push({ level: 'warning', text }),
      showErrorMessage: async (text: string) => void state.messages.push({ level: 'error', text }),
    },
    workspace: {
      getConfiguration: (section: string) => ({
        get: (name: string) => state.settings[`${section}.${name}`],
      }),
      onDidChangeConfiguration: state.configurationEmitter.event,
    },
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

export function fakeExtensionContext(version = '0.0.0') {
  const subscriptions: { dispose(): unknown }[] = [];
  return {
    subscriptions,
    extension: { packageJSON: { version } },
    dispose: () => subscriptions.splice(0).forEach((d) => d.dispose()),
  };
}
