// The panel's title and wait words for each error kind, localised: the English
// texts are rows of the one error-kind table, so a new kind cannot reach the
// panel without a name a person can read.
import * as vscode from 'vscode';
import type { ErrorKind } from '../shared/errorKinds.ts';
import { ERROR_KIND_RULES } from '../shared/errorKindRules.ts';

export function errorKindStrings(): Record<`kind.${ErrorKind}`, string> {
  return Object.fromEntries(
    Object.entries(ERROR_KIND_RULES).map(([kind, rule]) => [`kind.${kind}`, vscode.l10n.t(rule.title)]),
  ) as Record<`kind.${ErrorKind}`, string>;
}

/** What the panel says while it waits to send again, for the kinds that wait (their rows' `wait`). */
export function errorKindWaitStrings(): Partial<Record<`wait.${ErrorKind}`, string>> {
  return Object.fromEntries(
    Object.entries(ERROR_KIND_RULES).flatMap(([kind, rule]) =>
      rule.wait === null ? [] : [[`wait.${kind}`, vscode.l10n.t(rule.wait)]],
    ),
  );
}
