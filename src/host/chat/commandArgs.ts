// What a command receives depends on where it was run (house style 20): the
// palette and a keybinding pass nothing, a view's title bar and its "…" menu
// pass their own context object, a list row or a test passes an id or a Uri.
// Each reader keeps only what it can trust and lets the rest mean "the current one".
import * as vscode from 'vscode';

/** An id when `arg` names one of `known`; anything else (a menu's context object, a stale id) is undefined. */
export function idArg(arg: unknown, known: readonly string[]): string | undefined {
  return typeof arg === 'string' && known.includes(arg) ? arg : undefined;
}

/** A file to write to only when a caller passed a real Uri, never a menu's context read as a path. */
export function uriArg(arg: unknown): vscode.Uri | undefined {
  return arg instanceof vscode.Uri ? arg : undefined;
}

export function textArg(arg: unknown): string | undefined {
  return typeof arg === 'string' ? arg : undefined;
}
