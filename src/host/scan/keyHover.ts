// Hover over a flagged key: which service, the masked key, where git stands, whether it is the stored key, and what
// to do. The text (keyHoverText.ts) loads on the first hover over a key, from dist/keyHover.js (a hover elsewhere
// answers at once): it costs a small file's read on that hover, and keeps dist/extension.js within its budget.
import * as vscode from 'vscode';
import type { KeyDiagnostics } from './keyDiagnostics.ts';
import { Disposable } from '../../shared/dispose.ts';

export class KeyHover extends Disposable implements vscode.HoverProvider {
  private readonly diagnostics: KeyDiagnostics;

  constructor(diagnostics: KeyDiagnostics) {
    super();
    this.diagnostics = diagnostics;
    this._register(vscode.languages.registerHoverProvider({ scheme: '*' }, this));
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover> | undefined {
    const entry = this.diagnostics.at(document.uri, position)[0];
    if (!entry) return undefined;
    return import('./keyHoverText.ts').then(({ keyHover }) => keyHover(entry));
  }
}
