// The secret guard's question, as a modal: the only way on is the explicit
// "send redacted"; closing the dialog cancels.
import * as vscode from 'vscode';
import type { GuardAnswer } from '../core/secretGuard.ts';

const t = vscode.l10n.t;

export async function askToRedact(names: string): Promise<GuardAnswer> {
  const redact = t('Send with the Key Redacted');
  const answer = await vscode.window.showWarningMessage(
    t('The prompt contains a key: {0}. Keyward will not send it.', names),
    { modal: true },
    redact,
  );
  return answer === redact ? 'redact' : 'cancel';
}
