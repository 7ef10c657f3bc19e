// `import * as vscode from 'vscode'` in host code resolves here under vitest
// (see vitest.config.ts): one shared fake whose state the tests read and script.
import { createFakeVscode } from './fakeVscode.ts';

export const fake = createFakeVscode();
export const {
  version,
  Disposable,
  EventEmitter,
  MarkdownString,
  ThemeColor,
  Position,
  Range,
  Diagnostic,
  Hover,
  WorkspaceEdit,
  CodeAction,
  StatusBarAlignment,
  ExtensionMode,
  ConfigurationTarget,
  Uri,
  env,
  l10n,
  window,
  workspace,
  commands,
  languages,
  extensions,
  CodeActionKind,
  DiagnosticSeverity,
  ProgressLocation,
} = fake.api;
