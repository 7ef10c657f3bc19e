// One lifetime pattern (issue 20): a class that owns something it must release extends
// Disposable (shared/dispose.ts) and _register()s it, the way microsoft/vscode-hexeditor
// does (src/dispose.ts); events inside Keyward are shared/event.ts Emitters. A class that
// disposes by hand, a list of disposables, or VS Code's emitter where no VS Code API asks
// for a vscode.Event fails here, so the pattern stays one.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
/** The building blocks themselves: the base class and the emitter (a leaf that holds only its listeners). */
const BLOCKS = new Set(['shared/dispose.ts:Disposable', 'shared/event.ts:Emitter']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each break of the pattern as `file:Class: why` (or `file:line: why`). */
export function lifetimeProblems(texts: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(texts)) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lines = text.split('\n');
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        const name = `${file}:${node.name.text}`;
        const heritage = node.heritageClauses ?? [];
        const extendsDisposable = heritage.some(
          (h) =>
            h.token === ts.SyntaxKind.ExtendsKeyword && h.types.some((t) => t.expression.getText() === 'Disposable'),
        );
        const implementsDisposable = heritage.some(
          (h) =>
            h.token === ts.SyntaxKind.ImplementsKeyword &&
            h.types.some((t) => /(^|\.)I?Disposable$/.test(t.expression.getText())),
        );
        const dispose = node.members.find(
          (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText() === 'dispose',
        );
        if (!BLOCKS.has(name) && !extendsDisposable && (dispose || implementsDisposable))
          problems.push(`${name}: disposes by hand instead of extending Disposable`);
        if (extendsDisposable && dispose && !/super\.dispose\(\)/.test(dispose.getText()))
          problems.push(`${name}: overrides dispose() without super.dispose()`);
        for (const member of node.members)
          if (
            !BLOCKS.has(name) &&
            ts.isPropertyDeclaration(member) &&
            member.type &&
            /Disposable\[\]/.test(member.type.getText())
          )
            problems.push(`${name}: keeps a list of disposables instead of _register()`);
      }
      if (ts.isNewExpression(node) && node.expression.getText() === 'vscode.EventEmitter') {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
        // VS Code's emitter only where a VS Code API demands a vscode.Event, and the line above says which.
        if (!/vscode\.Event\b/.test(lines[line - 1] ?? ''))
          problems.push(`${file}:${line + 1}: vscode.EventEmitter where shared/event.ts's Emitter would do`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return problems;
}

describe('lifetimes: one pattern', () => {
  it('every owning class in src/ extends Disposable, and events are Emitters', () => {
    const texts = Object.fromEntries(
      sourceFiles(SRC)
        .map((path) => [relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8')] as const)
        // The webview's classes are reshaped with its state object, in their own change (issue 20, item 3).
        .filter(([file]) => !file.startsWith('webview/')),
    );
    expect(lifetimeProblems(texts)).toEqual([]);
  });

  it('the check sees a class that disposes by hand, a list of disposables and a stray vscode emitter', () => {
    expect(
      lifetimeProblems({
        'host/a.ts': [
          'class Panel implements vscode.Disposable {',
          '  private readonly disposables: vscode.Disposable[] = [];',
          '  private readonly changed = new vscode.EventEmitter<void>();',
          '  dispose(): void { for (const d of this.disposables) d.dispose(); }',
          '}',
          'class Tree extends Disposable {',
          '  // TreeDataProvider.onDidChangeTreeData must be a vscode.Event.',
          '  private readonly changed = this._register(new vscode.EventEmitter<void>());',
          '  override dispose(): void { this.changed.fire(); }',
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'host/a.ts:Panel: disposes by hand instead of extending Disposable',
      'host/a.ts:Panel: keeps a list of disposables instead of _register()',
      "host/a.ts:3: vscode.EventEmitter where shared/event.ts's Emitter would do",
      'host/a.ts:Tree: overrides dispose() without super.dispose()',
    ]);
  });
});
