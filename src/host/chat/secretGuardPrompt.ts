// The secret guard's question, as a modal: the only way on is the explicit
// "send redacted" (or, when the stored keys could not be read, "send anyway");
// closing the dialog cancels.
import * as vscode from 'vscode';
import type { GuardAnswer, GuardHit } from '../../core/keys/secretGuard.ts';

const t = vscode.l10n.t;

export async function askToRedact(names: string, _hits: readonly GuardHit[], unread?: string): Promise<GuardAnswer> {
  const redact = names ? t('Send with the Key Redacted') : t('Send Anyway');
  const cannotRead =
    unread === undefined
      ? ''
      : t(
          'Keyward could not read its stored keys ({0}), so a stored key without a fixed shape (an OpenAI-compatible service key) in this prompt would go unnoticed.',
          unread,
        );
  const message =
    names && cannotRead
      ? `${t('The prompt contains a key: {0}. Keyward will not send it.', names)} ${cannotRead}`
      : names
        ? t('The prompt contains a key: {0}. Keyward will not send it.', names)
        : `${cannotRead} ${t('Send the prompt anyway?')}`;
  const answer = await vscode.window.showWarningMessage(message, { modal: true }, redact);
  return answer === redact ? 'redact' : 'cancel';
}
