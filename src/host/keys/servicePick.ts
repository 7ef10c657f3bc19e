// The generic key commands' service: the one the caller named, else the one the person picks. Set Key… offers every
// service; Verify, Rotate and Delete Key… offer the services with a stored key. So a new service needs no command of
// its own to be set up, checked, rotated or removed from the palette.
import * as vscode from 'vscode';
import type { KeyMetadata } from '../../core/keys/keyStore.ts';
import { SERVICE_IDS, type ServiceId, isServiceId } from '../../shared/serviceIds.ts';
import type { KeywardConfig } from '../../core/config.ts';
import { serviceLabel } from '../serviceNames.ts';

const t = vscode.l10n.t;

export async function serviceToSet(given: unknown, config: KeywardConfig): Promise<ServiceId | undefined> {
  if (isServiceId(given)) return given;
  const picked = await vscode.window.showQuickPick(
    SERVICE_IDS.map((id) => ({ label: serviceLabel(id, config), id })),
    { placeHolder: t('Which service is the key for?') },
  );
  return picked?.id;
}

/**
 * Verify/Rotate/Delete Key…'s service: the one named, else the only one with a stored key, else the person's pick
 * among those with one (each shown with its masked key). With none stored, says so and offers Set Key….
 */
export async function serviceWithKey(
  given: unknown,
  config: KeywardConfig,
  metadata: (service: ServiceId) => KeyMetadata | undefined,
): Promise<ServiceId | undefined> {
  if (isServiceId(given)) return given;
  const stored = SERVICE_IDS.filter((id) => metadata(id));
  if (stored.length === 1) return stored[0];
  if (stored.length === 0) {
    const set = t('Set Key…');
    if ((await vscode.window.showInformationMessage(t('No key is stored in Keyward.'), set)) === set)
      await vscode.commands.executeCommand('keyward.setKey');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    stored.map((id) => ({ label: serviceLabel(id, config), description: metadata(id)!.masked, id })),
    { placeHolder: t('Which key?') },
  );
  return picked?.id;
}
