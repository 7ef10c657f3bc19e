// keyward keys list|create|rotate|disable|enable|delete --service SERVICE: the account's keys through the management
// key (routing service) or the admin key (direct service), read from the environment only (a flag's argument
// lands in shell history and process lists). A key to act on is named by its id, or found from the key itself read
// from an environment variable or a file, never from an argument; an ambiguous match is refused, never guessed.
import { ServiceError } from '../core/errors.ts';
import type { ListedKey } from '../core/keys/accountKeys.ts';
import { openAccountKeys } from '../core/keys/accountKeyApis.ts';
import { keysMatching } from '../core/keys/redactedMatch.ts';
import { redactSecrets } from '../core/redact.ts';
import { SERVICES } from '../core/services/descriptors.ts';
import { type CliIo, EXIT } from './io.ts';
import { NETWORK_HELP, UsageError, errorJson, reportUsage, writeError } from './common.ts';
import { createKey, rotateKey } from './keysCreate.ts';
import { type KeysContext, MANAGED, contextOf, parseKeysArgs } from './keysArgs.ts';

const ENVS = MANAGED.map((id) => `${SERVICES[id].accountKey!.env} (${id})`).join(', ');

export const KEYS_HELP = `Usage: keyward keys <list|create|rotate|disable|enable|delete> --service ${MANAGED.join('|')} [options]

Manages the account's keys with its management key (routing service) or admin key (direct service),
read from ${ENVS}; never from an argument.

  list                 every key: name, listed form, limit and what is left, usage today and this
                       month, expiry, owner, last use, disabled
  create               (routing) a limited key: --name NAME (the folder's name), --limit USD (10),
                       --reset daily|weekly|monthly (monthly), --expires-days N (90); the new key is
                       written to --out FILE (created 0600, never through a link) or, with --print-key
                       only, to standard output
  rotate               (routing) the key in OPENROUTER_API_KEY replaced: its successor made with the
                       same name, limit and reset, written to --out FILE, checked, each line of
                       --env-file FILE holding the old key updated, the old key disabled, and
                       deleted with --delete-old; a failure at any step leaves a working key and says
                       which step failed
  disable, enable, delete
                       one key: --id ID (from list), or the key itself read from --key-from-env VAR or
                       --key-file FILE and matched by its listed form; delete needs --yes

Options: --base-url URL (else the service's base-URL variable), --json (one JSON object on stdout).
${NETWORK_HELP}
Exit status: 0 done, 1 the service refused, a key was not found or matched several, 2 usage error.
`;

const ACTIONS = ['list', 'create', 'rotate', 'disable', 'enable', 'delete'] as const;
type Action = (typeof ACTIONS)[number];

export async function keysCommand(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseKeysArgs(args);
  } catch (error) {
    return reportUsage(io, 'keys', args.includes('--json'), new UsageError((error as Error).message, 'unknown_option'));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(KEYS_HELP);
    return EXIT.ok;
  }
  const action = positionals[0] as Action | undefined;
  let context: KeysContext;
  try {
    if (!action || !ACTIONS.includes(action) || positionals.length > 1)
      throw new UsageError(`say one of ${ACTIONS.join(', ')}`, action ? 'invalid_option' : 'missing_option');
    context = contextOf(values, io);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io, 'keys', values.json, error);
    throw error;
  }
  try {
    if (action === 'create') return await createKey(context);
    if (action === 'rotate') return await rotateKey(context);
    return await listOrAct(context, action);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io, 'keys', values.json, error);
    if (!(error instanceof ServiceError)) throw error;
    if (values.json) io.stdout.write(errorJson(error) + '\n');
    else writeError(io, error);
    return EXIT.failure;
  }
}

/** A key as the CLI prints it: its fields, no actions, nothing key-shaped beyond the listed form. */
export function keyJson(key: ListedKey): Record<string, unknown> {
  const { actions: _actions, inUse: _inUse, ...fields } = key;
  return fields;
}

function keyLine(key: ListedKey): string {
  const parts = [key.place, key.owner].filter(Boolean) as string[];
  if (key.limitUsd !== null)
    parts.push(
      `limit $${key.limitUsd.toFixed(2)} ($${(key.remainingUsd ?? 0).toFixed(2)} left${key.limitReset ? `, ${key.limitReset}` : ''})`,
    );
  if (key.usageTodayUsd !== null) parts.push(`today $${key.usageTodayUsd.toFixed(2)}`);
  if (key.usageMonthUsd !== null) parts.push(`month $${key.usageMonthUsd.toFixed(2)}`);
  if (key.expiresMs !== null) parts.push(`expires ${new Date(key.expiresMs).toISOString().slice(0, 10)}`);
  if (key.lastUsedMs !== null) parts.push(`last used ${new Date(key.lastUsedMs).toISOString().slice(0, 10)}`);
  if (key.disabled) parts.push('DISABLED');
  return `${key.name || '(no name)'}  ${key.shown}  id ${key.id}\n    ${parts.join(' · ')}\n`;
}

/** The key the person named: by --id, or the key itself (from a variable or a file) matched by its listed form. */
async function targetOf(context: KeysContext, keys: ListedKey[]): Promise<ListedKey[]> {
  const { values, io } = context;
  if (values.id) return keys.filter((key) => key.id === values.id);
  let secret: string | undefined;
  if (values['key-from-env']) secret = io.env[values['key-from-env']]?.trim();
  else if (values['key-file']) {
    const { readFile } = await import('node:fs/promises');
    secret = (await readFile(values['key-file'], 'utf8')).trim();
  } else throw new UsageError('name the key: --id ID, --key-from-env VAR or --key-file FILE', 'missing_option');
  if (!secret) throw new UsageError('the key to match is empty', 'invalid_option');
  return keysMatching(
    secret,
    keys.map((key) => ({ ...key, redactedValue: key.shown })),
  );
}

async function listOrAct(context: KeysContext, action: Exclude<Action, 'create' | 'rotate'>): Promise<number> {
  const { service, config, accountKey, values, io } = context;
  const api = openAccountKeys(service, accountKey, config, context.baseUrl)!;
  const out = (text: string) => io.stdout.write(redactSecrets(text, [accountKey]));
  try {
    const keys = await api.list(undefined);
    if (action === 'list') {
      out(
        values.json
          ? JSON.stringify({ ok: true, service, keys: keys.map(keyJson) }) + '\n'
          : keys.map(keyLine).join(''),
      );
      return EXIT.ok;
    }
    if (action === 'delete' && !values.yes)
      throw new UsageError('delete cannot be undone: add --yes', 'missing_option');
    const found = await targetOf(context, keys);
    if (found.length !== 1) {
      const why =
        found.length === 0 ? 'no key of the account matches' : `${found.length} keys match; name one with --id`;
      out(
        values.json ? JSON.stringify({ ok: false, service, reason: why, candidates: found.map(keyJson) }) + '\n' : '',
      );
      if (!values.json) io.stderr.write(`keyward keys ${action}: ${why}\n${found.map(keyLine).join('')}`);
      return EXIT.failure;
    }
    const key = found[0]!;
    if (!key.actions.includes(action))
      throw new UsageError(
        SERVICES[service].accountKey?.canDisable
          ? `${key.name || 'the key'} is ${key.disabled ? 'disabled' : 'enabled'} already`
          : `the ${SERVICES[service].displayName} cannot ${action} a key; delete it instead`,
        'invalid_option',
      );
    if (action === 'delete') await api.delete(key);
    else await api.setDisabled!(key, action === 'disable');
    const done = { delete: 'deleted', disable: 'disabled', enable: 'enabled' }[action];
    out(
      values.json
        ? JSON.stringify({ ok: true, service, action: done, key: keyJson(key) }) + '\n'
        : `${done}: ${key.name || '(no name)'} ${key.shown}\n`,
    );
    return EXIT.ok;
  } finally {
    await api.close();
  }
}
