// The panel's title for each error kind, localised: the English titles are
// rows of the one error-kind table, so a new kind cannot reach the panel
// without a name a person can read.
import * as vscode from 'vscode';
import type { ErrorKind } from '../shared/errorKinds.ts';
import { ERROR_KIND_RULES } from '../shared/errorKindRules.ts';

export function errorKindStrings(): Record<`kind.${ErrorKind}`, string> {
  return Object.fromEntries(
    Object.entries(ERROR_KIND_RULES).map(([kind, rule]) => [`kind.${kind}`, vscode.l10n.t(rule.title)]),
  ) as Record<`kind.${ErrorKind}`, string>;
}
