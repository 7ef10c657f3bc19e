// Keyward: Create a Key for This Workspace…: with a management key, a routing key of its own for this workspace,
// limited from the start (one limited key per tool is what the service advises): a name (the workspace's), a credit
// limit (never none), when the limit resets and an expiry, each with a sensible default. The key goes straight into
// SecretStorage and is verified; the person never sees it.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES, ServiceError } from '../../core/errors.ts';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { type LimitReset, RouterKeysApi } from '../../core/keys/routerKeysApi.ts';
import { ROTATED_KEY_DAYS } from '../../core/keys/routerRotation.ts';
import { SERVICES, SERVICE_IDS, baseUrlOf } from '../../core/services/descriptors.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { resetName } from './keyList.ts';

const t = vscode.l10n.t;

/** A limit a workspace's key starts with: enough for a day of work, small enough that a leak costs little. */
export const DEFAULT_WORKSPACE_LIMIT_USD = 10;

export interface WorkspaceKeyParts {
  keys: KeyStore;
  monitor: AccountMonitor;
  configuration: Configuration;
  log: Log;
}

interface KeyPlan {
  name: string;
  limit: number;
  limitReset: LimitReset;
  days: number;
}

const positive = (text: string, whole: boolean) =>
  (whole ? /^\d+$/ : /^\d+(\.\d{1,2})?$/).test(text.trim()) && Number(text) > 0;

/** Asks the four answers in turn, each with its default; undefined when the person cancels one. */
async function askPlan(): Promise<KeyPlan | undefined> {
  const title = t('Create a Key for This Workspace');
  const name = await vscode.window.showInputBox({
    title,
    prompt: t('The key’s name at the service.'),
    value: vscode.workspace.name ?? 'Keyward',
    validateInput: (text) => (text.trim() ? undefined : t('A name, so the key can be told apart in the list.')),
  });
  if (name === undefined) return undefined;
  const limit = await vscode.window.showInputBox({
    title,
    prompt: t('Credit limit in US dollars: the key is refused once it has spent this much in a period.'),
    value: String(DEFAULT_WORKSPACE_LIMIT_USD),
    validateInput: (text) => (positive(text, false) ? undefined : t('A positive amount, such as 10 or 2.50.')),
  });
  if (limit === undefined) return undefined;
  const resets = (['monthly', 'weekly', 'daily'] as const).map((id) => ({ label: resetName(id), id }));
  const reset = await vscode.window.showQuickPick(resets, {
    title,
    placeHolder: t('When does the limit start again?'),
  });
  if (!reset) return undefined;
  const days = await vscode.window.showInputBox({
    title,
    prompt: t('Days until the key expires.'),
    value: String(ROTATED_KEY_DAYS),
    validateInput: (text) => (positive(text, true) ? undefined : t('A whole number of days, such as 90.')),
  });
  if (days === undefined) return undefined;
  return { name: name.trim(), limit: Number(limit), limitReset: reset.id, days: Number(days) };
}

/** Creates, stores and verifies the workspace's key; true when it is stored. */
/** The service whose API can create a key (the descriptor's accountKey says). */
const CREATOR = SERVICE_IDS.find((id) => SERVICES[id].accountKey?.canCreate) as ServiceId;

export async function createWorkspaceKey(parts: WorkspaceKeyParts, service: ServiceId = CREATOR): Promise<boolean> {
  const manager = await parts.keys.getAccountKey(service).catch(() => undefined);
  const baseUrl = baseUrlOf(parts.configuration.value, service);
  if (!manager || !baseUrl) {
    const add = t('Add a Management or Admin Key…');
    const answer = await vscode.window.showInformationMessage(
      t('Creating a key needs the {0} management key. Add it first.', SERVICE_NAMES[service]),
      add,
    );
    if (answer === add) await vscode.commands.executeCommand('keyward.addAccountKey', service);
    return false;
  }
  const plan = await askPlan();
  if (!plan) return false;
  const api = new RouterKeysApi({ ...parts.configuration.value.network, baseUrl, managementKey: manager });
  let created;
  try {
    created = await api.create({
      name: plan.name,
      limit: plan.limit,
      limitReset: plan.limitReset,
      expiresAtMs: Date.now() + plan.days * 86_400_000,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    void vscode.window.showErrorMessage(t('The key could not be created: {0}', error.message));
    return false;
  } finally {
    await api.close();
  }
  const expiresAt = created.record.expiresAtMs === null ? null : new Date(created.record.expiresAtMs).toISOString();
  await parts.keys.setKey(service, created.key.reveal(), { label: plan.name, expiresAt });
  parts.monitor.reset(service);
  const verification = await parts.monitor.verify(service);
  parts.log.info(`Created and stored the ${SERVICE_NAMES[service]} key ${created.record.label} for this workspace.`);
  void (verification.ok
    ? vscode.window.showInformationMessage(
        t(
          '{0} created with a {1} {2} limit, expiring in {3} days, and stored in Keyward ({4}).',
          plan.name,
          `$${plan.limit.toFixed(2)}`,
          resetName(plan.limitReset),
          String(plan.days),
          created.record.label,
        ),
      )
    : vscode.window.showWarningMessage(
        t('{0} was created and stored, but it did not answer yet: {1}', plan.name, verification.error.message),
      ));
  return true;
}
