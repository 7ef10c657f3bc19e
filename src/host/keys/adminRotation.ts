// Rotate where the service's API cannot make a person's key but its admin key is stored (the direct service): the
// stored key is found among the admin key's keys by its redacted form, which says its project, and the person
// chooses where the successor comes from: the project's own keys page, opened for them (a key of their own, pasted
// back), or a service account's key the API makes in the same project (a key of the project, never shown). The new key
// is stored and verified by the ordinary Rotate; the old one is deleted only once the person confirms, since the API
// deletes a project key for good and cannot disable one.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import type { KeywardConfig } from '../../core/config.ts';
import { openAccountKeys } from '../../core/keys/accountKeyApis.ts';
import type { AccountKeysApi, ListedKey } from '../../core/keys/accountKeys.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { redactSecrets } from '../../core/redact.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';
import { SERVICES, pagesOf } from '../../core/services/descriptors.ts';

const t = vscode.l10n.t;

export interface AdminRotationParts {
  keys: KeyStore;
  configuration: { readonly value: KeywardConfig };
}

/** Stores and verifies the successor (the ordinary Rotate with the key given); false when it was refused. */
export type StoreSuccessor = (key: string) => Promise<boolean>;

/** Whether Rotate can find the stored key's project: a service that cannot make a person's key, its admin key stored. */
export function canRotateWithAdmin(service: ServiceId, keys: KeyStore): boolean {
  const account = SERVICES[service].accountKey;
  return (
    account !== undefined &&
    !account.canCreate &&
    keys.accountMetadata(service) !== undefined &&
    keys.metadata(service) !== undefined
  );
}

/** The project's keys page where the service has one and the keys page is the default; else the keys page. */
export function projectKeysPage(service: ServiceId, config: KeywardConfig, key: ListedKey): string | null {
  const page = pagesOf(config, service).keys;
  const template = SERVICES[service].accountKey?.projectKeysPage;
  const projectId = key.id.includes('/') ? key.id.slice(0, key.id.indexOf('/')) : '';
  if (!template || !projectId || page !== pagesOf(DEFAULT_CONFIG, service).keys) return page;
  return template.replace('{project}', encodeURIComponent(projectId));
}

/**
 * Rotate through the admin key. True or false: done, or stopped (said); undefined: the stored key is not among the
 * admin key's keys (or they could not be listed, which is said), so the ordinary Rotate goes on.
 */
export async function rotateWithAdmin(
  parts: AdminRotationParts,
  service: ServiceId,
  storeSuccessor: StoreSuccessor,
): Promise<boolean | undefined> {
  const [admin, current] = await Promise.all([
    parts.keys.getAccountKey(service).catch(() => undefined),
    parts.keys.getKey(service).catch(() => undefined),
  ]);
  const config = parts.configuration.value;
  const api = admin && current ? openAccountKeys(service, admin, config) : undefined;
  if (!api) return undefined;
  try {
    const old = await findStored(api, service, current!, [admin!, current!]);
    if (!old) return undefined;
    const successor = await successorOf(api, service, config, old);
    if (successor === undefined || !(await storeSuccessor(successor))) return false;
    await offerDelete(api, old, [admin!, current!]);
    return true;
  } finally {
    await api.close();
  }
}

async function findStored(
  api: AccountKeysApi,
  service: ServiceId,
  current: string,
  secrets: string[],
): Promise<ListedKey | undefined> {
  try {
    const listed = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('Finding the stored key among the {0} keys…', SERVICE_NAMES[service]),
      },
      () => api.list(current),
    );
    return listed.find((key) => key.inUse);
  } catch (error) {
    void vscode.window.showWarningMessage(
      t(
        'The {0} keys could not be listed ({1}): make the new key on the keys page instead.',
        SERVICE_NAMES[service],
        redactSecrets((error as Error).message, secrets),
      ),
    );
    return undefined;
  }
}

/** The new key: pasted from the project's keys page, or a service account's made here; undefined when stopped. */
async function successorOf(
  api: AccountKeysApi,
  service: ServiceId,
  config: KeywardConfig,
  old: ListedKey,
): Promise<string | undefined> {
  const place = old.place ?? t('its project');
  const ways = [
    {
      label: t('Make It on the Keys Page of {0}', place),
      detail: t('A key of your own, made in the browser with the page that opens now; then paste it here.'),
      way: 'page' as const,
    },
    ...(api.createPlaceKey
      ? [
          {
            label: t('Create a Service Account Key in {0}', place),
            detail: t(
              'A key of the project, not of a person: it keeps working when someone leaves. Made here, never shown.',
            ),
            way: 'service' as const,
          },
        ]
      : []),
  ];
  const chosen = await vscode.window.showQuickPick(ways, {
    title: t('Rotate the {0} key', SERVICE_NAMES[service]),
    placeHolder: t('Where does the successor of {0} ({1}) come from?', old.name || t('(no name)'), old.shown),
  });
  if (!chosen) return undefined;
  if (chosen.way === 'service') return createServiceKey(api, service, old);
  const page = projectKeysPage(service, config, old);
  if (page) await vscode.env.openExternal(vscode.Uri.parse(page));
  return (
    (await vscode.window.showInputBox({
      title: t('Rotate the {0} key', SERVICE_NAMES[service]),
      prompt: t('Create a new key in {0} on the page that just opened, then paste it here.', place),
      password: true,
      ignoreFocusOut: true,
    })) || undefined
  );
}

async function createServiceKey(api: AccountKeysApi, service: ServiceId, old: ListedKey): Promise<string | undefined> {
  const name = `Keyward ${vscode.workspace.name ?? ''}`.trim();
  try {
    const made = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Creating a service account key…') },
      () => api.createPlaceKey!(old, name),
    );
    return made.reveal();
  } catch (error) {
    void vscode.window.showErrorMessage(
      t(
        'The {0} did not create the service account ({1}); the stored key stays in place.',
        SERVICE_NAMES[service],
        redactSecrets((error as Error).message),
      ),
    );
    return undefined;
  }
}

/** The old key deleted once the person says so; until then it is named as still working. */
async function offerDelete(api: AccountKeysApi, old: ListedKey, secrets: string[]): Promise<void> {
  const remove = t('Delete Old Key');
  const shown = `${old.name || t('(no name)')} (${old.shown})`;
  const answer = await vscode.window.showWarningMessage(
    t('The new key is stored and works. Delete the old key {0} now? It works for anyone who has it until then.', shown),
    { modal: true, detail: t('Deleting cannot be undone: anything still using the old key stops within seconds.') },
    remove,
  );
  if (answer !== remove) {
    void vscode.window.showInformationMessage(
      t('The old key {0} still works: delete it from Manage Keys… once nothing uses it.', shown),
    );
    return;
  }
  try {
    await api.delete(old);
    void vscode.window.showInformationMessage(t('Key rotated, and the old key {0} is deleted.', shown));
  } catch (error) {
    void vscode.window.showErrorMessage(
      t(
        'The old key {0} could not be deleted ({1}): delete it from Manage Keys… or the keys page.',
        shown,
        redactSecrets((error as Error).message, secrets),
      ),
    );
  }
}
