// Add and remove a management key (routing service) or an admin key (direct service): the keys that manage an
// account. Each goes to a SecretStorage slot of its own (the descriptor's accountKey), is checked against the one API
// it may call before it is kept, and is never offered to the chat, the language models or a key check. Loaded with
// the other on-demand commands (dist/commands.js).
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { isServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { checkAccountKey } from '../../core/keys/accountKeyCheck.ts';
import { fingerprint } from '../../core/keys/keyFormats.ts';
import { ACCOUNT_KEY_SERVICES, type KeyStore, SecretStorageUnavailable } from '../../core/keys/keyStore.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { serviceLabel } from '../serviceNames.ts';

const t = vscode.l10n.t;

/** What the commands need of the extension; a test passes its own. */
export interface AccountKeyParts {
  keys: KeyStore;
  configuration: Configuration;
  log: Log;
}

/** "management key", "admin key", localised. */
function keyName(service: ServiceId): string {
  return t(SERVICES[service].accountKey!.name);
}

/** The service named, else the one the person picks among those that have such a key (and, to remove, hold one). */
async function pickService(given: unknown, parts: AccountKeyParts, stored: boolean): Promise<ServiceId | undefined> {
  const offered = ACCOUNT_KEY_SERVICES.filter((id) => !stored || parts.keys.accountMetadata(id));
  if (isServiceId(given) && offered.includes(given)) return given;
  if (offered.length === 0) {
    void vscode.window.showInformationMessage(t('No management or admin key is stored in Keyward.'));
    return undefined;
  }
  if (offered.length === 1) return offered[0];
  const config = parts.configuration.value;
  const picked = await vscode.window.showQuickPick(
    offered.map((id) => ({
      label: t('{0}: {1}', serviceLabel(id, config), keyName(id)),
      description: parts.keys.accountMetadata(id)?.masked ?? '',
      id,
    })),
    { placeHolder: stored ? t('Which key to remove?') : t('Which key to add?') },
  );
  return picked?.id;
}

/** Why a pasted key cannot be this service's management or admin key, before anything is asked of the service. */
async function shapeProblem(service: ServiceId, key: string, keys: KeyStore): Promise<string | undefined> {
  if (/\s/.test(key)) return t('The key contains spaces or line breaks; paste the key alone.');
  const ordinary = await keys.getKey(service).catch(() => undefined);
  if (ordinary && fingerprint(ordinary.trim()) === fingerprint(key))
    return t(
      'This is the {0} key Keyward uses for prompts. A {1} is a different key: create one on the service and paste it here.',
      SERVICE_NAMES[service],
      keyName(service),
    );
  return undefined;
}

/** Keyward: Add a Management or Admin Key…: asks, checks with the service, stores; says what the key can see. */
export async function addAccountKey(parts: AccountKeyParts, given?: unknown, pasted?: string): Promise<boolean> {
  const service = await pickService(given, parts, false);
  if (!service) return false;
  const name = keyName(service);
  const key = (
    pasted ??
    (await vscode.window.showInputBox({
      title: t('Add a {0} ({1})', name, SERVICE_NAMES[service]),
      prompt: t(
        "Paste the {0}. Keyward uses it only to list, create, limit and disable keys, never to call a model, and keeps it in VS Code's secret storage.",
        name,
      ),
      password: true,
      ignoreFocusOut: true,
    })) ??
    ''
  ).trim();
  if (!key) return false;
  const problem = await shapeProblem(service, key, parts.keys);
  if (problem) {
    void vscode.window.showErrorMessage(problem);
    return false;
  }
  const checked = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: t('Checking the {0} with the {1}…', name, SERVICE_NAMES[service]),
      cancellable: true,
    },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return checkAccountKey(service, key, parts.configuration.value, abort.signal);
    },
  );
  if (!checked.ok) {
    parts.log.warn(
      `Checking a ${SERVICE_NAMES[service]} ${SERVICES[service].accountKey!.name}: ${checked.error.kind}: ${checked.error.message}`,
    );
    void vscode.window.showErrorMessage(
      t('The {0} refused this {1}, so nothing was stored: {2}', SERVICE_NAMES[service], name, checked.error.message),
    );
    return false;
  }
  try {
    const meta = await parts.keys.setAccountKey(service, key);
    parts.log.info(`Stored a ${SERVICE_NAMES[service]} ${SERVICES[service].accountKey!.name} ${meta.masked}.`);
    const seen =
      checked.seen.what === 'projects'
        ? t('Projects it sees: {0}.', checked.seen.count)
        : t('Keys it sees: {0}.', checked.seen.count);
    void vscode.window.showInformationMessage(
      t('{0} {1} stored ({2}). {3} Keyward never sends it to a model.', serviceLabel(service), name, meta.masked, seen),
    );
    return true;
  } catch (error) {
    if (!(error instanceof SecretStorageUnavailable)) throw error;
    parts.log.error(error.message);
    void vscode.window.showErrorMessage(t('Keyward cannot store keys: {0}', error.message), { modal: true });
    return false;
  }
}

/** Keyward: Remove a Management or Admin Key…: after a confirmation (or `confirmed` from code). */
export async function removeAccountKey(parts: AccountKeyParts, given?: unknown, confirmed = false): Promise<boolean> {
  const service = await pickService(given, parts, true);
  const meta = service && parts.keys.accountMetadata(service);
  if (!service || !meta) return false;
  const remove = t('Remove');
  const answer = confirmed
    ? remove
    : await vscode.window.showWarningMessage(
        t(
          'Remove the {0} {1} from Keyward? It stays valid at the service until you delete it there.',
          keyName(service),
          meta.masked,
        ),
        { modal: true },
        remove,
      );
  if (answer !== remove) return false;
  await parts.keys.deleteAccountKey(service);
  parts.log.info(`Removed the ${SERVICE_NAMES[service]} ${SERVICES[service].accountKey!.name} ${meta.masked}.`);
  return true;
}
