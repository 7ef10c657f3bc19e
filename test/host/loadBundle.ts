// Loads the built extension bundle with `require('vscode')` answered by a fake.
import { createRequire } from 'node:module';
import Module from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
type Loader = { _load: (request: unknown, ...rest: unknown[]) => unknown };

export interface ExtensionModule {
  activate(context: unknown): void;
  deactivate(): void;
}

/** The fake of the latest load with `onDemand`, which `following` answers for. */
let latest: object = {};
/**
 * An on-demand part is loaded once per test file (the module loader keeps it), and keeps the `vscode` it was given:
 * this one reads the fake of the latest load, so that a part a later test runs talks to that test's fake.
 */
const following = new Proxy(
  {},
  {
    get: (_, name) => Reflect.get(latest, name),
    has: (_, name) => Reflect.has(latest, name),
    ownKeys: () => Reflect.ownKeys(latest),
    getOwnPropertyDescriptor: (_, name) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(latest, name);
      return descriptor && { ...descriptor, configurable: true };
    },
  },
);

/**
 * `onDemand` keeps the fake answering after the load, so that a command's on-demand part (dist/commands.js…) loads
 * against it too when the test runs the command; the test file's worker ends with it.
 */
export function loadExtensionBundle(
  api: unknown,
  bundle = 'dist/extension.js',
  { onDemand = false } = {},
): ExtensionModule {
  const path = resolve(bundle);
  delete require.cache[path];
  const loader = Module as unknown as Loader;
  const originalLoad = loader._load;
  if (onDemand) latest = api as object;
  const answer = onDemand ? following : api;
  loader._load = function (request: unknown, ...rest: unknown[]) {
    return request === 'vscode' ? answer : originalLoad.call(this, request, ...rest);
  };
  try {
    return require(path) as ExtensionModule;
  } finally {
    if (!onDemand) loader._load = originalLoad;
  }
}
