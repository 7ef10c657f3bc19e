// keyward keys create and rotate (routing service): a new key's plaintext comes once, so where it goes is decided
// before it is asked for: a file (--out, created 0600, never written through a link) or, only when asked with
// --print-key, standard output. Rotate follows core/keys/routerRotation.ts's safe order.
import { basename, dirname, resolve } from 'node:path';
import { ServiceError } from '../core/errors.ts';
import { type LimitReset, RouterKeysApi } from '../core/keys/routerKeysApi.ts';
import { ROTATED_KEY_DAYS, type RotationOutcome, rotateRouterKey } from '../core/keys/routerRotation.ts';
import { maskKey, redactSecrets } from '../core/redact.ts';
import { UnsafePath, readTarget, safeTarget, writeTarget } from '../core/safeWrite.ts';
import { serviceModule } from '../core/services/registry.ts';
import { SERVICES } from '../core/services/descriptors.ts';
import { EXIT } from './io.ts';
import { UsageError, keyFor } from './common.ts';
import type { KeysContext } from './keysArgs.ts';

/** A workspace's key starts limited: enough for a day of work, little lost if it leaks. */
const DEFAULT_LIMIT_USD = 10;

function numberOption(value: string | undefined, name: string, fallback: number, whole: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n)))
    throw new UsageError(
      `${name} must be a positive ${whole ? 'whole number' : 'number'}, not "${value}"`,
      'invalid_option',
    );
  return n;
}

function resetOption(value: string | undefined): LimitReset {
  if (value === undefined) return 'monthly';
  if (value === 'daily' || value === 'weekly' || value === 'monthly') return value;
  throw new UsageError(`--reset must be daily, weekly or monthly, not "${value}"`, 'invalid_option');
}

/** Writes a key to the file named, created 0600; a link or a path outside its folder is refused. */
async function writeKeyFile(path: string, key: string): Promise<void> {
  const full = resolve(path);
  try {
    await writeTarget(await safeTarget(dirname(full), basename(full)), `${key}\n`);
  } catch (error) {
    if (error instanceof UnsafePath) throw new UsageError(`--out ${path}: ${error.message}`, 'invalid_option');
    throw error;
  }
}

/** Where a new key goes: checked before the key exists, so no key is made that has nowhere to go. */
function destination(context: KeysContext): { out?: string; print: boolean } {
  const { out, 'print-key': print } = context.values;
  if (!out && !print)
    throw new UsageError(
      'say where the new key goes: --out FILE (or --print-key for standard output)',
      'missing_option',
    );
  if (!SERVICES[context.service].accountKey?.canCreate)
    throw new UsageError(
      `the ${SERVICES[context.service].displayName}'s API cannot create a user's key: make one on its keys page`,
      'invalid_option',
    );
  return { ...(out ? { out } : {}), print: print === true };
}

function api(context: KeysContext): RouterKeysApi {
  return new RouterKeysApi({
    ...context.config.network,
    baseUrl: context.baseUrl,
    managementKey: context.accountKey,
  });
}

export async function createKey(context: KeysContext): Promise<number> {
  const { values, io } = context;
  const where = destination(context);
  const plan = {
    name: values.name ?? basename(process.cwd()),
    limit: numberOption(values.limit, '--limit', DEFAULT_LIMIT_USD, false),
    limitReset: resetOption(values.reset),
    expiresAtMs:
      Date.now() + numberOption(values['expires-days'], '--expires-days', ROTATED_KEY_DAYS, true) * 86_400_000,
  };
  const client = api(context);
  try {
    const made = await client.create(plan);
    const key = made.key.reveal();
    if (where.out) await writeKeyFile(where.out, key);
    const record = { ...made.record, masked: maskKey(key) };
    if (values.json)
      io.stdout.write(
        JSON.stringify({ ok: true, service: context.service, key: record, out: where.out ?? null }) + '\n',
      );
    else
      io.stderr.write(
        `created ${record.name} ${record.label} (limit $${plan.limit.toFixed(2)} ${plan.limitReset})${where.out ? `, written to ${where.out}` : ''}\n`,
      );
    if (where.print) io.stdout.write(`${key}\n`);
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

/** The key check of the new key, as `keyward status` asks it: null when it answers. */
async function verified(context: KeysContext, key: string): Promise<ServiceError | null> {
  const module = serviceModule(context.service);
  const client = await module.open({ ...context.config.network, baseUrl: context.baseUrl, key });
  try {
    await module.checkKey(client);
    return null;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  } finally {
    await client.close();
  }
}

/** Replaces the old key by the new one in --env-file; how many places changed. */
async function updateEnvFile(path: string | undefined, oldKey: string, newKey: string): Promise<number> {
  if (!path) return 0;
  const full = resolve(path);
  const target = await safeTarget(dirname(full), basename(full));
  const text = await readTarget(target);
  const count = text.split(oldKey).length - 1;
  if (count > 0) await writeTarget(target, text.replaceAll(oldKey, newKey));
  return count;
}

export async function rotateKey(context: KeysContext): Promise<number> {
  const { values, io } = context;
  const where = destination(context);
  const oldKey = keyFor(context.service, io.env);
  const client = api(context);
  let newKey = '';
  let outcome: RotationOutcome;
  try {
    outcome = await rotateRouterKey({
      api: client,
      oldKey,
      store: async (key) => {
        newKey = key;
        if (where.out) await writeKeyFile(where.out, key);
      },
      restore: async () => {
        if (where.out) await writeKeyFile(where.out, oldKey);
      },
      verify: () => verified(context, newKey),
      updateEnv: (from, to) => updateEnvFile(values['env-file'], from, to),
      confirmDelete: async () => values['delete-old'] === true,
      now: Date.now,
    });
  } finally {
    await client.close();
  }
  const ok = outcome.failedAt === undefined;
  const reason = outcome.reason ? redactSecrets(outcome.reason, [oldKey, newKey, context.accountKey]) : null;
  const summary = {
    ok,
    service: context.service,
    failedAt: outcome.failedAt ?? null,
    reason,
    old: outcome.old?.label ?? null,
    new: outcome.created?.label ?? null,
    envLines: outcome.envLines,
    oldDeleted: outcome.deleted,
  };
  if (values.json) io.stdout.write(JSON.stringify(summary) + '\n');
  else
    io.stderr.write(
      ok
        ? `rotated: ${summary.new} stored${where.out ? ` in ${where.out}` : ''}; old key ${summary.old} ${outcome.deleted ? 'deleted' : 'disabled'}\n`
        : `keyward keys rotate: the ${outcome.failedAt} step failed: ${reason}\n`,
    );
  if (where.print && newKey && (ok || !['find', 'create', 'store', 'verify'].includes(outcome.failedAt!)))
    io.stdout.write(`${newKey}\n`);
  return ok ? EXIT.ok : EXIT.failure;
}
