// `keyward scan --fix-disable`: every key the scan counts (not the ones the ignore file or the baseline accept) is
// disabled at its own account, with the management key read from the environment as `keyward keys` reads it. A key
// of another account, one matching several listed keys, or a service that cannot disable keys is named with what to
// do instead; the findings still count (a disabled key is still in the file and its history).
import { DEFAULT_CONFIG, type KeywardConfig } from '../core/config.ts';
import type { KeyStop } from '../core/keys/stopFoundKeys.ts';
import { SERVICES, SERVICE_IDS } from '../core/services/descriptors.ts';
import type { FileFinding } from '../core/scan/report.ts';
import type { ServiceId } from '../shared/serviceIds.ts';
import { UsageError, baseUrlFor, proxyFor } from './common.ts';
import type { CliIo } from './io.ts';

/** The accounts --fix-disable may act on: each service whose management or admin key is in the environment. */
export interface FixDisableSetup {
  accounts: Partial<Record<ServiceId, { accountKey: string; baseUrl: string }>>;
  config: KeywardConfig;
}

/** Read when the flag is given: at least one account key must be set, or nothing could be disabled (usage error). */
export function fixDisableSetup(io: CliIo): FixDisableSetup {
  const accounts: FixDisableSetup['accounts'] = {};
  for (const id of SERVICE_IDS) {
    const account = SERVICES[id].accountKey;
    const accountKey = account ? (io.env[account.env]?.trim() ?? '') : '';
    if (account && accountKey) accounts[id] = { accountKey, baseUrl: baseUrlFor(id, undefined, io.env) };
  }
  if (Object.keys(accounts).length === 0) {
    const envs = SERVICE_IDS.flatMap((id) => (SERVICES[id].accountKey ? [SERVICES[id].accountKey!.env] : []));
    throw new UsageError(`--fix-disable needs ${envs.join(' or ')} in the environment: it disables keys with it`);
  }
  return { accounts, config: { ...DEFAULT_CONFIG, network: { ...DEFAULT_CONFIG.network, proxy: proxyFor(io.env) } } };
}

/**
 * Disables the counted findings' keys and records on each finding what was done (`stopped`). A finding whose key
 * could not be read back, or whose service's account key is not set, is told so.
 */
export async function fixDisable(
  setup: FixDisableSetup,
  findings: readonly FileFinding[],
  keys: ReadonlyMap<string, string>,
  io: CliIo,
  text: boolean,
): Promise<void> {
  // Loaded only here: reading the flag at the start of every scan must not load the network stack.
  const [{ openAccountKeys }, { stopFoundKeys }] = await Promise.all([
    import('../core/keys/accountKeyApis.ts'),
    import('../core/keys/stopFoundKeys.ts'),
  ]);
  const secrets = Object.values(setup.accounts).map((a) => a.accountKey);
  const found = findings.flatMap((f) => {
    const key = keys.get(f.finding.fingerprint);
    return key ? [{ fingerprint: f.finding.fingerprint, service: f.finding.service, key }] : [];
  });
  const outcomes = await stopFoundKeys(
    found,
    (service) => {
      const account = setup.accounts[service];
      return account && openAccountKeys(service, account.accountKey, setup.config, account.baseUrl);
    },
    secrets,
  );
  for (const f of findings) f.stopped = outcomes.get(f.finding.fingerprint) ?? notStopped(f, setup, keys);
  // One line per key, not per place it was found.
  if (text) io.stderr.write(summary([...new Map(findings.map((f) => [f.finding.fingerprint, f.stopped!])).values()]));
}

function notStopped(f: FileFinding, setup: FixDisableSetup, keys: ReadonlyMap<string, string>): KeyStop {
  const account = SERVICES[f.finding.service as ServiceId]?.accountKey;
  if (!keys.has(f.finding.fingerprint)) return { status: 'failed', reason: 'the key could not be read back' };
  if (!account) return { status: 'cannot_disable', reason: 'no account key can manage this provider’s keys' };
  if (!setup.accounts[f.finding.service as ServiceId])
    return { status: 'cannot_disable', reason: `${account.env} is not set` };
  return { status: 'failed', reason: 'not looked for' };
}

function summary(stops: readonly KeyStop[]): string {
  const count = (status: KeyStop['status']) => stops.filter((s) => s.status === status).length;
  const disabled = count('disabled') + count('disabled_already');
  const left = stops.length - disabled;
  return `keyward scan: --fix-disable: ${disabled} of ${stops.length} key${stops.length === 1 ? '' : 's'} disabled${
    left > 0 ? `; ${left} not (each says why)` : ''
  }\n`;
}
