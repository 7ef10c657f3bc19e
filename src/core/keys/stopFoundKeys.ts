// Disable now, for keys a scan found (`keyward scan --fix-disable`): each key is looked for among its account's keys
// by the form the account lists (never by computing an id from it, which the spec does not define), and disabled when
// exactly one listed key is it. Several candidates are named and left alone (a guess could stop the wrong key), and a
// service that cannot disable a key says so with the command that deletes it instead. Nothing here sends a found key
// anywhere: only the management or admin key travels, to its own account's key list.
import { ServiceError } from '../errors.ts';
import { redactSecrets } from '../redact.ts';
import { SERVICES } from '../services/descriptors.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { AccountKeysApi, ListedKey } from './accountKeys.ts';
import { keysMatching } from './redactedMatch.ts';

export type StopStatus = 'disabled' | 'disabled_already' | 'ambiguous' | 'not_found' | 'cannot_disable' | 'failed';

/** What --fix-disable did to one found key: its status, in words, and the listed key it acted on. */
export interface KeyStop {
  status: StopStatus;
  reason: string;
  key?: { id: string; name: string; shown: string };
  /** With `ambiguous`: every listed key it could be, so the person can name one with `keyward keys disable --id`. */
  candidates?: { id: string; name: string; shown: string }[];
}

/** One distinct key a scan found: its fingerprint, its service, the key itself (kept in this process only). */
export interface FoundKey {
  fingerprint: string;
  service: string;
  key: string;
}

function brief(key: ListedKey): { id: string; name: string; shown: string } {
  return { id: key.id, name: key.name || '(no name)', shown: key.shown };
}

/** The outcome for one key among the account's listed keys. */
async function stopOne(api: AccountKeysApi, service: ServiceId, key: string, listed: ListedKey[]): Promise<KeyStop> {
  const found = keysMatching(
    key,
    listed.map((k) => ({ ...k, redactedValue: k.shown })),
  );
  const name = SERVICES[service].displayName;
  if (found.length === 0)
    return {
      status: 'not_found',
      reason: `no key the ${SERVICES[service].accountKey!.name} manages is this one: another account's, or deleted`,
    };
  if (found.length > 1)
    return {
      status: 'ambiguous',
      reason: `${found.length} of the account's keys look like this one: disable the right one with keyward keys disable --service ${service} --id ID`,
      candidates: found.map(brief),
    };
  const target = found[0]!;
  if (target.disabled) return { status: 'disabled_already', reason: 'disabled already', key: brief(target) };
  if (!api.setDisabled || !target.actions.includes('disable'))
    return {
      status: 'cannot_disable',
      reason: `the ${name} cannot disable a key; delete it: keyward keys delete --service ${service} --id ${target.id} --yes`,
      key: brief(target),
    };
  await api.setDisabled(target, true);
  return { status: 'disabled', reason: `disabled at the ${name}`, key: brief(target) };
}

/**
 * Stops every found key of a service `open` gives an account API for, listing each account's keys once. The
 * outcome per fingerprint; a key of a service with no account API opened gets none (the caller names why).
 */
export async function stopFoundKeys(
  found: readonly FoundKey[],
  open: (service: ServiceId) => AccountKeysApi | undefined,
  secrets: readonly string[],
): Promise<Map<string, KeyStop>> {
  const outcomes = new Map<string, KeyStop>();
  const byService = new Map<ServiceId, FoundKey[]>();
  for (const entry of found) {
    const service = entry.service as ServiceId;
    if (!SERVICES[service]?.accountKey || outcomes.has(entry.fingerprint)) continue;
    byService.set(service, [...(byService.get(service) ?? []), entry]);
  }
  for (const [service, entries] of byService) {
    const api = open(service);
    if (!api) continue;
    try {
      const listed = await api.list(undefined);
      for (const entry of entries) {
        if (outcomes.has(entry.fingerprint)) continue;
        outcomes.set(entry.fingerprint, await stopOne(api, service, entry.key, listed).catch(failed(secrets, entry)));
      }
    } catch (error) {
      const stop = failed(secrets, undefined)(error);
      for (const entry of entries) if (!outcomes.has(entry.fingerprint)) outcomes.set(entry.fingerprint, stop);
    } finally {
      await api.close();
    }
  }
  return outcomes;
}

/** A refusal or a network failure, in words with every key known here taken out. */
function failed(secrets: readonly string[], entry: FoundKey | undefined): (error: unknown) => KeyStop {
  return (error) => {
    if (!(error instanceof ServiceError) && !(error instanceof Error)) throw error;
    const known = entry ? [...secrets, entry.key] : [...secrets];
    return { status: 'failed', reason: redactSecrets(error.message, known) };
  };
}
