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
  ViewColumn,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
  LanguageModelDataPart,
  LanguageModelError,
  LanguageModelChatMessageRole,
  LanguageModelChatToolMode,
  CancellationError,
  lm,
  ThemeIcon,
} = fake.api;
// The editor's parts the inline edit uses (fakeVscode.ts adds them to the same api).
export const { CodeLens, Selection, SymbolKind, EndOfLine, OverviewRulerLane } =
  fake.api as unknown as typeof import('./fakeVscode.ts');
