// The editor's key parts (diagnostics, quick fixes, hover) wired over the fake vscode,
// as extension.ts wires them, for fast unit tests. The real-host suite proves the same
// features in VS Code; these pin the details (ranges, severities, codes, edits).
import { KeyStore } from '../../src/core/keys/keyStore.ts';
import { Configuration } from '../../src/host/configuration.ts';
import { KeyDiagnostics } from '../../src/host/scan/keyDiagnostics.ts';
import { KeyFixes } from '../../src/host/scan/keyFixes.ts';
import { KeyHover } from '../../src/host/scan/keyHover.ts';
import { DialogProbe } from '../../src/host/dialogProbe.ts';
import { Log } from '../../src/host/log.ts';
import { secretPort, statePort } from '../../src/host/keys/secretPorts.ts';
import { type FakeDiagnosticCollection, FakeMemento, FakeSecrets } from './fakeVscode.ts';
import { fake } from './vscodeShim.ts';

export interface EditorParts {
  keys: KeyStore;
  configuration: Configuration;
  diagnostics: KeyDiagnostics;
  fixes: KeyFixes;
  hover: KeyHover;
  /** The fixes' questions and messages: the window's (the fake's) unless a test answers; what they told is kept. */
  dialogs: DialogProbe;
  /** What the diagnostics published, as VS Code's Problems view would get it. */
  collection: FakeDiagnosticCollection;
  ignoreProblems: FakeDiagnosticCollection;
  dispose(): void;
}

export function editorParts(settings: Record<string, unknown> = {}, { savePatienceMs = 60_000 } = {}): EditorParts {
  fake.state.commands.clear();
  fake.state.messages.length = 0;
  fake.state.settings = { ...settings };
  fake.state.diagnosticCollections.length = 0;
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  const configuration = new Configuration(new Log());
  const diagnostics = new KeyDiagnostics(keys, configuration);
  const dialogs = new DialogProbe();
  const fixes = new KeyFixes(diagnostics, configuration, keys, { dialogs, savePatienceMs });
  const hover = new KeyHover(diagnostics);
  return {
    keys,
    configuration,
    diagnostics,
    fixes,
    hover,
    dialogs,
    collection: fake.state.diagnosticCollections[0]!,
    // The refused lines of each .keywardignore, shown on that file.
    ignoreProblems: fake.state.diagnosticCollections.find((c) => c.name === 'keyward-ignore')!,
    dispose() {
      hover.dispose();
      fixes.dispose();
      diagnostics.dispose();
      configuration.dispose();
    },
  };
}

/** Resolves once `diagnostics` has published again (after a key change, a rescan). */
export function nextChange(parts: EditorParts): Promise<void> {
  return new Promise((resolve) => {
    const subscription = parts.diagnostics.onDidChange(() => {
      subscription.dispose();
      resolve();
    });
  });
}
