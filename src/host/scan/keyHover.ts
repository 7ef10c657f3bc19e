// Hover over a flagged key: which service, the masked key, where git stands, whether it is the stored key, and what
// to do; the text is keyHoverText.ts. In the extension bundle: as a file of its own (3.7 KB) it cost a file read on
// the first hover and spared activation nothing measurable.
import * as vscode from 'vscode';
import type { KeyDiagnostics } from './keyDiagnostics.ts';
import { keyHover } from './keyHoverText.ts';
import { Disposable } from '../../shared/dispose.ts';

export class KeyHover extends Disposable implements vscode.HoverProvider {
  private readonly diagnostics: KeyDiagnostics;

  constructor(diagnostics: KeyDiagnostics) {
    super();
    this.diagnostics = diagnostics;
    this._register(vscode.languages.registerHoverProvider({ scheme: '*' }, this));
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const entry = this.diagnostics.at(document.uri, position)[0];
    return entry && keyHover(entry);
  }
}
