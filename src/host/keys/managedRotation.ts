// Rotate with a management key: the routing key replaced in one step (core/keys/routerRotation.ts) from wherever
// Rotate is offered (palette, status item, the committed-key quick fix), the person asked only before the old key is
// deleted for good. Each way it can stop is said with what is left to do; the key stored always works.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { RouterKeysApi } from '../../core/keys/routerKeysApi.ts';
import { type RotationOutcome, rotateRouterKey } from '../../core/keys/routerRotation.ts';
import { SERVICES, baseUrlOf } from '../../core/services/descriptors.ts';
import { maskKey, redactSecrets } from '../../core/redact.ts';
import { UnsafePath, readTarget, safeTarget, writeTarget } from '../../core/safeWrite.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

export interface ManagedRotationParts {
  keys: KeyStore;
  monitor: AccountMonitor;
  configuration: Configuration;
  log: Log;
}

/** Whether Rotate can be done in one step here: a service whose API creates keys, with its management key stored. */
export function canRotateManaged(service: ServiceId, keys: KeyStore): boolean {
  return (
    SERVICES[service].accountKey?.canCreate === true &&
    keys.accountMetadata(service) !== undefined &&
    keys.metadata(service) !== undefined
  );
}

/**
 * The .env at the root of each workspace folder (where Keyward's Move to .env writes): each line holding the old key
 * gets the new one. No link is followed and no other file is touched.
 */
async function updateEnvFiles(oldKey: string, newKey: string): Promise<number> {
  let lines = 0;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    let target;
    try {
      target = await safeTarget(folder.uri.fsPath, '.env');
    } catch (error) {
      if (error instanceof UnsafePath && error.reason === 'missing_folder') continue;
      throw error;
    }
    const text = await readTarget(target).catch(() => '');
    const count = text.split(oldKey).length - 1;
    if (count === 0) continue;
    await writeTarget(target, text.replaceAll(oldKey, newKey));
    lines += count;
  }
  return lines;
}

/** What the person reads after a rotation, by how far it went. */
function outcomeText(outcome: RotationOutcome, newMasked: string): { error: boolean; text: string } {
  const reason = redactSecrets(outcome.reason ?? '');
  const old = outcome.old?.label ?? '';
  switch (outcome.failedAt) {
    case 'find':
      return { error: true, text: t('Keyward could not rotate the key: {0}. Nothing was changed.', reason) };
    case 'create':
      return { error: true, text: t('The new key could not be created: {0}. Nothing was changed.', reason) };
    case 'store':
    case 'verify':
      return {
        error: true,
        text: t('The new key did not work ({0}). The old key is still in use; the new one was deleted again.', reason),
      };
    case 'env':
      return {
        error: true,
        text: t(
          'The new key {0} is stored and works, but .env could not be updated ({1}). The old key {2} stays enabled: update .env, then disable it in Manage Keys.',
          newMasked,
          reason,
          old,
        ),
      };
    case 'disable':
      return {
        error: true,
        text: t(
          'The new key {0} is stored and works, but the old key {1} could not be disabled ({2}): it still works for anyone who has it. Disable it in Manage Keys.',
          newMasked,
          old,
          reason,
        ),
      };
    case 'delete':
      return {
        error: true,
        text: t('The old key {0} is disabled but could not be deleted ({1}). Delete it in Manage Keys.', old, reason),
      };
    default: {
      const env = outcome.envLines > 0 ? t(' Lines updated in .env: {0}.', String(outcome.envLines)) : '';
      return {
        error: false,
        text: outcome.deleted
          ? t('Key rotated: {0} stored and verified.{1} The old key {2} is deleted.', newMasked, env, old)
          : t('Key rotated: {0} stored and verified.{1} The old key {2} is disabled.', newMasked, env, old),
      };
    }
  }
}

/** Rotates the stored key with the management key; true when a new key is stored and works. */
export async function rotateManaged(parts: ManagedRotationParts, service: ServiceId): Promise<boolean> {
  const { keys, monitor, configuration, log } = parts;
  const [oldKey, manager] = [await keys.getKey(service), await keys.getAccountKey(service)];
  const baseUrl = baseUrlOf(configuration.value, service);
  const before = keys.metadata(service);
  if (!oldKey || !manager || !baseUrl || !before) return false;
  const api = new RouterKeysApi({ ...configuration.value.network, baseUrl, managementKey: manager });
  let outcome: RotationOutcome;
  try {
    outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Rotating the {0} key…', SERVICE_NAMES[service]) },
      () =>
        rotateRouterKey({
          api,
          oldKey,
          store: async (newKey) => {
            await keys.setKey(service, newKey, { label: before.label });
            monitor.reset(service);
          },
          restore: async () => {
            await keys.setKey(service, oldKey, {
              retirePrevious: false,
              label: before.label,
              expiresAt: before.expiresAt,
            });
            monitor.reset(service);
          },
          verify: async () => {
            const verification = await monitor.verify(service);
            return verification.ok ? null : verification.error;
          },
          updateEnv: updateEnvFiles,
          confirmDelete: async (old) => {
            const remove = t('Delete Old Key');
            const answer = await vscode.window.showWarningMessage(
              t('The new key works and the old key {0} is disabled. Delete the old key for good?', old.label),
              { modal: true },
              remove,
            );
            return answer === remove;
          },
          now: Date.now,
        }),
    );
  } finally {
    await api.close();
  }
  const stored = keys.metadata(service)?.masked ?? maskKey(oldKey);
  const said = outcomeText(outcome, stored);
  log.info(`Rotating the ${SERVICE_NAMES[service]} key with the management key: ${outcome.failedAt ?? 'done'}.`);
  void (said.error ? vscode.window.showErrorMessage(said.text) : vscode.window.showInformationMessage(said.text));
  return outcome.failedAt === undefined || !['find', 'create', 'store', 'verify'].includes(outcome.failedAt);
}
