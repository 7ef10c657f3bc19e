// The generic "Set Key…" command's service: the one its caller named, else the one the person picks. Every service
// is offered, so a new service needs no command of its own to be set up from the palette.
import * as vscode from 'vscode';
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
