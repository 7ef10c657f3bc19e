// The strings of the chat's empty state (what to do first), localised on the host.
import * as vscode from 'vscode';

const t = vscode.l10n.t;

export function emptyStateStrings(): Record<`empty.${string}`, string> {
  return {
    'empty.title': t('Ask about your code'),
    'empty.keys': t('Keys'),
    'empty.keyStored': t('key stored'),
    'empty.noKey': t('no key yet'),
    'empty.keyOptional': t('key optional'),
    'empty.setKey': t('Set key'),
    'empty.signIn': t('Sign in'),
    'empty.import': t('Import from the environment'),
    'empty.importHint': t('Reads OPENROUTER_API_KEY and OPENAI_API_KEY into secret storage.'),
    'empty.tryFree': t('Try a free model'),
    'empty.tryFreeHint': t('The free router (openrouter/free) on the routing service costs nothing.'),
    'empty.tryFreeNeedsKey': t('Needs a routing service key.'),
    'empty.guardTitle': t('The secret guard'),
    'empty.guard': t(
      'Before anything is sent, the prompt and the attached code are scanned for keys. A key found is never sent: you redact it or cancel.',
    ),
    'empty.selection': t('Select code in an editor and press Ctrl+Alt+K to ask about it.'),
  };
}
