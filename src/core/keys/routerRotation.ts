// Rotating the routing key with a management key, in the one safe order (the service's own rotation guide: create,
// deploy, verify, then retire the old): find the stored key in the account's list, create its successor with the
// same name, limit and reset and a fresh expiry, store it, verify it answers, update the .env line that held the old
// one, disable the old key, and delete it only once the person confirms. A failure at any step leaves a working key
// stored and names the step and what is left to do; nothing is ever disabled before its successor works.
import { ServiceError } from '../errors.ts';
import { keysMatching } from './redactedMatch.ts';
import type { RouterKeyRecord, RouterKeysApi } from './routerKeysApi.ts';

export type RotationStep = 'find' | 'create' | 'store' | 'verify' | 'env' | 'disable' | 'delete';

/** How long a rotated key lives unless the old one said otherwise. */
export const ROTATED_KEY_DAYS = 90;

export interface RotationPorts {
  api: Pick<RouterKeysApi, 'list' | 'create' | 'change' | 'delete'>;
  /** The key stored now. */
  oldKey: string;
  /** Stores the new key as the routing key (the old one is remembered as rotated out). */
  store(newKey: string): Promise<void>;
  /** Puts the old key back, the new one forgotten. */
  restore(): Promise<void>;
  /** Asks the service whether the stored key answers; the error when it does not. */
  verify(): Promise<ServiceError | null>;
  /** Replaces the old key by the new one in the .env files Keyward wrote; how many lines changed. */
  updateEnv(oldKey: string, newKey: string): Promise<number>;
  /** Whether the person agrees to delete the old key for good (it is disabled already). */
  confirmDelete(old: RouterKeyRecord): Promise<boolean>;
  now: () => number;
}

export interface RotationOutcome {
  /** The step that failed; undefined when every step ran (the delete may still have been declined). */
  failedAt?: RotationStep;
  reason?: string;
  old?: RouterKeyRecord;
  created?: RouterKeyRecord;
  envLines: number;
  deleted: boolean;
}

const reasonOf = (error: unknown) => (error instanceof ServiceError ? error.message : String(error));

/** Finds the stored key's record: exactly one label that fits it, else the reason there is not one. */
async function findOld(ports: RotationPorts): Promise<RouterKeyRecord | string> {
  const records = await ports.api.list();
  const found = keysMatching(
    ports.oldKey,
    records.map((record) => ({ ...record, redactedValue: record.label })),
  );
  if (found.length === 1) return found[0]!;
  return found.length === 0
    ? 'the stored key is not among the keys this management key manages (another account, or deleted)'
    : `${found.length} keys of the account have the stored key's label; pick the one to retire in Manage Keys`;
}

export async function rotateRouterKey(ports: RotationPorts): Promise<RotationOutcome> {
  const outcome: RotationOutcome = { envLines: 0, deleted: false };
  const fail = (failedAt: RotationStep, reason: string): RotationOutcome => ({ ...outcome, failedAt, reason });
  let old: RouterKeyRecord;
  try {
    const found = await findOld(ports);
    if (typeof found === 'string') return fail('find', found);
    old = outcome.old = found;
  } catch (error) {
    return fail('find', reasonOf(error));
  }
  let newKey: string;
  try {
    const made = await ports.api.create({
      name: old.name,
      limit: old.limit,
      limitReset: old.limitReset,
      expiresAtMs: ports.now() + ROTATED_KEY_DAYS * 86_400_000,
    });
    outcome.created = made.record;
    newKey = made.key.reveal();
  } catch (error) {
    return fail('create', reasonOf(error));
  }
  // From here a new key exists: on failure it is deleted again (best effort), the old one kept.
  const undo = async () => {
    await ports.api.delete(outcome.created!.hash).catch(() => undefined);
  };
  try {
    await ports.store(newKey);
  } catch (error) {
    await undo();
    return fail('store', reasonOf(error));
  }
  const refused = await ports.verify();
  if (refused) {
    await ports.restore().catch(() => undefined);
    await undo();
    return fail('verify', refused.message);
  }
  try {
    outcome.envLines = await ports.updateEnv(ports.oldKey, newKey);
  } catch (error) {
    // The new key works and is stored; the old one stays enabled for whatever still reads it.
    return fail('env', reasonOf(error));
  }
  try {
    await ports.api.change(old.hash, { disabled: true });
  } catch (error) {
    return fail('disable', reasonOf(error));
  }
  if (!(await ports.confirmDelete(old))) return outcome;
  try {
    await ports.api.delete(old.hash);
    outcome.deleted = true;
  } catch (error) {
    return fail('delete', reasonOf(error));
  }
  return outcome;
}
