// The secret guard's question, as a modal: the only way on is the explicit
// "send redacted" (or, when the stored keys could not be read, "send anyway");
// closing the dialog cancels.
import * as vscode from 'vscode';
import type { GuardAnswer, GuardHit } from '../../core/guards/secretGuard.ts';

const t = vscode.l10n.t;
/** Places named in the dialog; a file full of keys is counted past these, not listed. */
const PLACES_SHOWN = 5;

/**
 * Where each key is, as a person looks for it: the prompt's line, or the attached file and its line there. Each
 * place names its key when there are several; one key is named once, before.
 */
function places(hits: readonly GuardHit[]): string {
  const one = new Set(hits.map((h) => h.masked)).size === 1;
  const place = (h: GuardHit) =>
    h.file === undefined
      ? t('the prompt, line {0}', String(h.line + 1))
      : t('{0}, line {1}', h.file, String(h.fileLine ?? h.line + 1));
  const named = hits
    .slice(0, PLACES_SHOWN)
    .map((h) => (one ? place(h) : t('{0} in {1}', h.masked, place(h))))
    .join('; ');
  const more = hits.length - PLACES_SHOWN;
  return more > 0 ? t('{0}; and {1} more', named, String(more)) : named;
}

export async function askToRedact(names: string, hits: readonly GuardHit[], unread?: string): Promise<GuardAnswer> {
  const redact = names ? t('Send with the Key Redacted') : t('Send Anyway');
  const cannotRead =
    unread === undefined
      ? ''
      : t(
          'Keyward could not read its stored keys ({0}), so a stored key without a fixed shape (an OpenAI-compatible service key) in this prompt would go unnoticed.',
          unread,
        );
  const found = names
    ? [
        t('The prompt contains a key: {0}. Keyward will not send it.', names),
        ...(hits.length > 0 ? [t('Where: {0}.', places(hits))] : []),
      ].join(' ')
    : '';
  const message =
    names && cannotRead ? `${found} ${cannotRead}` : names ? found : `${cannotRead} ${t('Send the prompt anyway?')}`;
  const answer = await vscode.window.showWarningMessage(message, { modal: true }, redact);
  return answer === redact ? 'redact' : 'cancel';
}
