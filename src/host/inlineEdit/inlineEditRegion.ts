// Which lines an inline edit rewrites: the selection's whole lines; with nothing selected, the innermost function,
// method or class around the cursor as the language's symbol provider sees it; without one, the paragraph the
// cursor is in (the lines between blank ones), and on a blank line that line alone.
import * as vscode from 'vscode';
import type { EditPlace, EditRound } from '../../core/chat/inlineEditPrompt.ts';

const t = vscode.l10n.t;

/** Whole lines: the first and how many. */
export interface LineRegion {
  start: number;
  count: number;
  /** What it is, in words a person recognises: `greet`, or nothing for a selection or paragraph. */
  name?: string;
}

const BODIES = new Set([
  vscode.SymbolKind.Function,
  vscode.SymbolKind.Method,
  vscode.SymbolKind.Constructor,
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Enum,
  vscode.SymbolKind.Struct,
]);

function innermost(symbols: readonly vscode.DocumentSymbol[], at: vscode.Position): vscode.DocumentSymbol | undefined {
  for (const symbol of symbols) {
    if (!symbol.range.contains(at)) continue;
    const inner = innermost(symbol.children ?? [], at);
    if (inner) return inner;
    if (BODIES.has(symbol.kind)) return symbol;
  }
  return undefined;
}

async function symbolAt(
  document: vscode.TextDocument,
  at: vscode.Position,
): Promise<vscode.DocumentSymbol | undefined> {
  const found = await Promise.resolve(
    vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    ),
  ).catch(() => undefined);
  // A provider of the older flat form (SymbolInformation) has no ranges of bodies to go by.
  const symbols = (found ?? []).filter((s): s is vscode.DocumentSymbol => 'children' in s && 'range' in s);
  return innermost(symbols, at);
}

function paragraph(document: vscode.TextDocument, line: number): LineRegion {
  const blank = (n: number) => document.lineAt(n).text.trim() === '';
  if (blank(line)) return { start: line, count: 1 };
  let start = line;
  while (start > 0 && !blank(start - 1)) start--;
  let end = line;
  while (end < document.lineCount - 1 && !blank(end + 1)) end++;
  return { start, count: end - start + 1 };
}

export async function editRegion(editor: vscode.TextEditor): Promise<LineRegion> {
  const { selection, document } = editor;
  if (!selection.isEmpty) {
    // A selection ending at the start of a line ends on the line before (as a selection of whole lines does).
    const last =
      selection.end.character === 0 && selection.end.line > selection.start.line
        ? selection.end.line - 1
        : selection.end.line;
    return { start: selection.start.line, count: last - selection.start.line + 1 };
  }
  const symbol = await symbolAt(document, selection.active);
  if (symbol) {
    return {
      start: symbol.range.start.line,
      count: symbol.range.end.line - symbol.range.start.line + 1,
      name: symbol.name,
    };
  }
  return paragraph(document, selection.active.line);
}

/** The region in words for the box: its lines and file, and for a follow-up the instruction it refines. */
export function regionLabel(document: vscode.TextDocument, region: LineRegion, earlier?: EditRound): string {
  const file = vscode.workspace.asRelativePath(document.uri);
  const lines =
    region.count === 1
      ? t('line {0} of {1}', region.start + 1, file)
      : t('lines {0}–{1} of {2}', region.start + 1, region.start + region.count, file);
  const what = region.name ? `\`${region.name}\`, ${lines}` : lines;
  return earlier ? t('Follow-up on “{0}” ({1})', earlier.instruction, what) : what;
}

/** Where the region is, as the prompt tells the model. */
export function regionPlace(document: vscode.TextDocument, region: LineRegion): EditPlace {
  return {
    file: vscode.workspace.asRelativePath(document.uri),
    languageId: document.languageId,
    startLine: region.start + 1,
  };
}

/** The region's lines as they are now. */
export function regionText(document: vscode.TextDocument, region: LineRegion): string {
  return Array.from({ length: region.count }, (_, i) => document.lineAt(region.start + i).text).join('\n');
}
