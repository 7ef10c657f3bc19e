// Disable now (Delete now, where the service cannot disable a key): a key found in a file, stopped at its service
// with the stored management or admin key. The key is found among the account's keys by its listed form (never by
// computing an id from it); when several could be it the person picks, when none is it says so. Disabling is
// reversible and done at once; deleting asks first.
import * as vscode from 'vscode';
import { SERVICE_NAMES, ServiceError } from '../../core/errors.ts';
import type { KeywardConfig } from '../../core/config.ts';
import { openAccountKeys } from '../../core/keys/accountKeyApis.ts';
import type { ListedKey } from '../../core/keys/accountKeys.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { keysMatching } from '../../core/keys/redactedMatch.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { KeyDiagnostics } from '../scan/keyDiagnostics.ts';
import { keyAction } from './keyList.ts';

const t = vscode.l10n.t;

export interface StopKeyParts {
  keys: KeyStore;
  configuration: { readonly value: KeywardConfig };
}

/** The one listed key `found` is: itself when one fits, the person's pick when several do, undefined otherwise. */
async function pick(service: ServiceId, found: ListedKey[]): Promise<ListedKey | undefined> {
  if (found.length === 1) return found[0];
  if (found.length === 0) {
    void vscode.window.showErrorMessage(
      t(
        'This key is not among the keys the stored {0} manages: it belongs to another account, or was deleted already.',
        t(SERVICES[service].accountKey!.name),
      ),
    );
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(
    found.map((key) => ({ label: key.name || t('(no name)'), description: key.shown, detail: key.place ?? '', key })),
    { placeHolder: t('{0} keys of the account look like this one: which is it?', String(found.length)) },
  );
  return chosen?.key;
}

export async function stopFoundKey(
  parts: StopKeyParts,
  uri: vscode.Uri,
  range: vscode.Range,
  diagnostics: KeyDiagnostics,
): Promise<boolean> {
  const entry = diagnostics.at(uri, range)[0];
  const service = entry?.finding.service as ServiceId | undefined;
  const accountKey = service && (await parts.keys.getAccountKey(service).catch(() => undefined));
  const api = service && accountKey ? openAccountKeys(service, accountKey, parts.configuration.value) : undefined;
  if (!service || !api) return false;
  const document =
    vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString()) ??
    (await vscode.workspace.openTextDocument(uri));
  const secret = document.getText(entry!.range);
  try {
    const listed = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('Finding this key at the {0}…', SERVICE_NAMES[service]),
      },
      () => api.list(undefined),
    );
    const key = await pick(
      service,
      keysMatching(
        secret,
        listed.map((k) => ({ ...k, redactedValue: k.shown })),
      ),
    );
    if (!key) return false;
    if (key.disabled && !key.actions.includes('delete')) return false;
    if (key.disabled) {
      void vscode.window.showInformationMessage(
        t('{0} ({1}) is disabled already: requests with it are refused.', key.name || t('(no name)'), key.shown),
      );
      return true;
    }
    const action = key.actions.includes('disable') ? 'disable' : 'delete';
    await keyAction(service, api, key, action);
    return true;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    void vscode.window.showErrorMessage(t('The {0} could not be asked: {1}', SERVICE_NAMES[service], error.message));
    return false;
  } finally {
    await api.close();
  }
}
