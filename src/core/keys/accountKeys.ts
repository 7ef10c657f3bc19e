// The keys of an account, as a management or admin key sees them: one shape for every service that has such a key,
// so the key list, Disable now and the CLI show and act on them the same way. Each service fills in what its API
// knows (the routing service: limits, usage, expiry, disabled; the direct service: projects, owners, last use) and
// says which actions it allows (accountKeyApis.ts opens each service's).
import type { KeywardConfig } from '../config.ts';
import type { SecretValue } from './secretValue.ts';

export type KeyAction = 'delete' | 'disable' | 'enable' | 'set-limit';

/** One key of the account: never the key itself, only the form the service shows of it. */
export interface ListedKey {
  /** What the service calls it by in its API (a hash, a project and key id). */
  id: string;
  name: string;
  /** The masked or redacted form the service lists ("sk-or-v1-abc...def", "sk-proj-...9f2c"). */
  shown: string;
  /** Where it lives, where the service has places (a project's name). */
  place: string | null;
  owner: string | null;
  createdMs: number | null;
  lastUsedMs: number | null;
  expiresMs: number | null;
  disabled: boolean;
  /** Spending limit in USD and what is left of it; null: none set, or the service has none. */
  limitUsd: number | null;
  remainingUsd: number | null;
  /** "daily" | "weekly" | "monthly" where the limit resets; null: it never does. */
  limitReset: string | null;
  usageTodayUsd: number | null;
  usageMonthUsd: number | null;
  /** This is the key Keyward uses for prompts (matched by the listed form, or the service's own id for it). */
  inUse: boolean;
  actions: readonly KeyAction[];
}

export interface AccountKeysApi {
  /** Every key of the account, every page; `inUseKey` (the stored prompt key) marks the one Keyward uses. */
  list(inUseKey: string | undefined, signal?: AbortSignal): Promise<ListedKey[]>;
  delete(key: ListedKey, signal?: AbortSignal): Promise<void>;
  setDisabled?(key: ListedKey, disabled: boolean, signal?: AbortSignal): Promise<void>;
  setLimit?(key: ListedKey, limitUsd: number, signal?: AbortSignal): Promise<void>;
  /**
   * A key that belongs to `like`'s place (a project), not to a person, where the service can make one (the direct
   * service's service accounts): returned wrapped, this once.
   */
  createPlaceKey?(like: ListedKey, name: string, signal?: AbortSignal): Promise<SecretValue>;
  /** What the whole account spent since 00:00 UTC on the 1st, where the service reports it apart from the keys. */
  monthSpend?(signal?: AbortSignal): Promise<{ total: number; currency: string }>;
  close(): Promise<void>;
}

export interface AccountKeysOptions {
  baseUrl: string;
  accountKey: string;
  config: KeywardConfig;
}
