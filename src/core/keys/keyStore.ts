// One active key per service, held only in secret storage. What may be known
// without the key (label, dates, a fingerprint, a masked form) lives apart, in
// plain state. Old fingerprints are remembered so the scanner can call out a
// rotated key that still sits in a file.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { Disposable } from '../../shared/dispose.ts';
import { Emitter, type Subscription } from '../../shared/event.ts';
import { type KeyMask, keyMaskOf } from '../../shared/keyShapes.ts';
import { fingerprint } from './fingerprint.ts';
import { maskKey } from '../redact.ts';
import { SERVICES, SERVICE_IDS, serviceOfSecret } from '../services/descriptors.ts';

/** The secret side: VS Code's SecretStorage in the extension, a map in tests. */
export interface SecretPort {
  get(name: string): Promise<string | undefined>;
  store(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** The plain side: global state. Never receives anything key-shaped. */
export interface StatePort {
  get<T>(name: string): T | undefined;
  update(name: string, value: unknown): Promise<void>;
}

export interface KeyMetadata {
  service: ServiceId;
  label: string;
  masked: string;
  fingerprint: string;
  length: number;
  addedAt: string;
  /** ISO date, from the key check's expires_at or entered by the user. */
  expiresAt: string | null;
  lastVerifiedAt: string | null;
}

export interface RetiredKey {
  service: ServiceId;
  fingerprint: string;
  masked: string;
  /** Length of the key, so the scanner can test candidates of any shape by fingerprint. */
  length: number;
  retiredAt: string;
}

/** What is known of a stored management or admin key without reading it. */
export interface AccountKeyMetadata {
  service: ServiceId;
  masked: string;
  fingerprint: string;
  length: number;
  addedAt: string;
}

/** The services with a key that manages the account (descriptor's accountKey). */
export const ACCOUNT_KEY_SERVICES: readonly ServiceId[] = SERVICE_IDS.filter((id) => SERVICES[id].accountKey);

function accountSlot(service: ServiceId): string {
  const slot = SERVICES[service].accountKey?.secretSlot;
  if (!slot) throw new Error(`The ${SERVICES[service].displayName} has no management or admin key.`);
  return slot;
}

export class SecretStorageUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      `VS Code could not use its secret storage (${(cause as Error)?.message ?? String(cause)}). On Linux this usually means no keyring (gnome-keyring or KWallet) is running. Keyward will not store the key anywhere else.`,
      { cause },
    );
    this.name = 'SecretStorageUnavailable';
  }
}

const secretName = (service: ServiceId) => SERVICES[service].secretSlot;
const META = 'keyward.keys.metadata';
const ACCOUNT_META = 'keyward.keys.accountMetadata';
const RETIRED = 'keyward.keys.retired';
const MAX_RETIRED = 20;

export class KeyStore extends Disposable {
  private readonly secrets: SecretPort;
  private readonly state: StatePort;
  private readonly now: () => Date;
  private readonly changed = this._register(new Emitter<ServiceId>());

  constructor(secrets: SecretPort, state: StatePort, now: () => Date = () => new Date()) {
    super();
    this.secrets = secrets;
    this.state = state;
    this.now = now;
  }

  async getKey(service: ServiceId): Promise<string | undefined> {
    try {
      return await this.secrets.get(secretName(service));
    } catch (error) {
      throw new SecretStorageUnavailable(error);
    }
  }

  metadata(service: ServiceId): KeyMetadata | undefined {
    return this.state.get<Partial<Record<ServiceId, KeyMetadata>>>(META)?.[service];
  }

  retired(): RetiredKey[] {
    return this.state.get<RetiredKey[]>(RETIRED) ?? [];
  }

  /** Stores the key (replacing and retiring any other) and its metadata. */
  async setKey(
    service: ServiceId,
    key: string,
    options: { label?: string; expiresAt?: string | null; retirePrevious?: boolean } = {},
  ): Promise<KeyMetadata> {
    const value = key.trim();
    const previous = this.metadata(service);
    try {
      await this.secrets.store(secretName(service), value);
    } catch (error) {
      throw new SecretStorageUnavailable(error);
    }
    const meta: KeyMetadata = {
      service,
      label: options.label ?? previous?.label ?? SERVICES[service].keyLabel,
      masked: maskKey(value),
      fingerprint: fingerprint(value),
      length: value.length,
      addedAt: this.now().toISOString(),
      expiresAt: options.expiresAt ?? null,
      lastVerifiedAt: null,
    };
    if (previous && previous.fingerprint !== meta.fingerprint && options.retirePrevious !== false)
      await this.retire(previous);
    await this.writeMeta(service, meta);
    this.emit(service);
    return meta;
  }

  async updateMetadata(
    service: ServiceId,
    patch: Partial<Pick<KeyMetadata, 'label' | 'expiresAt' | 'lastVerifiedAt'>>,
  ): Promise<void> {
    const meta = this.metadata(service);
    if (!meta) return;
    await this.writeMeta(service, { ...meta, ...patch });
    this.emit(service);
  }

  async deleteKey(service: ServiceId, options: { retire?: boolean } = {}): Promise<void> {
    const meta = this.metadata(service);
    try {
      await this.secrets.delete(secretName(service));
    } catch (error) {
      throw new SecretStorageUnavailable(error);
    }
    if (meta && options.retire !== false) await this.retire(meta);
    await this.writeMeta(service, undefined);
    this.emit(service);
  }

  /** The management or admin key (descriptor's accountKey); never handed to a model, key-check or models call. */
  async getAccountKey(service: ServiceId): Promise<string | undefined> {
    try {
      return await this.secrets.get(accountSlot(service));
    } catch (error) {
      throw new SecretStorageUnavailable(error);
    }
  }

  accountMetadata(service: ServiceId): AccountKeyMetadata | undefined {
    return this.state.get<Partial<Record<ServiceId, AccountKeyMetadata>>>(ACCOUNT_META)?.[service];
  }

  /** Stores a management or admin key in its own slot; the ordinary key stays as it is. */
  async setAccountKey(service: ServiceId, key: string): Promise<AccountKeyMetadata> {
    const value = key.trim();
    try {
      await this.secrets.store(accountSlot(service), value);
    } catch (error) {
      throw new SecretStorageUnavailable(error);
    }
    const meta = this.accountMetaOf(service, value);
    await this.writeAccountMeta(service, meta);
    this.emit(service);
    return meta;
  }

  async deleteAccountKey(service: ServiceId): Promise<void> {
    try {
      await this.secrets.delete(accountSlot(service));
    } catch (error) {
      throw new SecretStorageUnavailable(error);
    }
    await this.writeAccountMeta(service, undefined);
    this.emit(service);
  }

  /** Another window changed a secret: metadata follows what is really stored. Says which ordinary key changed. */
  async secretChanged(name: string): Promise<ServiceId | undefined> {
    const owner = ACCOUNT_KEY_SERVICES.find((id) => SERVICES[id].accountKey?.secretSlot === name);
    if (owner) {
      const key = (await this.getAccountKey(owner))?.trim();
      // Listeners (the scanner's known keys) hear of it; the caller's answer is for the ordinary key only.
      if (key && fingerprint(key) === this.accountMetadata(owner)?.fingerprint) return undefined;
      await this.writeAccountMeta(owner, key ? this.accountMetaOf(owner, key) : undefined);
      this.emit(owner);
      return undefined;
    }
    const service = serviceOfSecret(name);
    if (!service) return undefined;
    const key = await this.getKey(service);
    const meta = this.metadata(service);
    if (!key && meta) await this.writeMeta(service, undefined);
    else if (key && meta?.fingerprint !== fingerprint(key)) {
      await this.writeMeta(service, {
        service,
        label: meta?.label ?? SERVICES[service].keyLabel,
        masked: maskKey(key),
        fingerprint: fingerprint(key),
        length: key.length,
        addedAt: this.now().toISOString(),
        expiresAt: null,
        lastVerifiedAt: null,
      });
    }
    this.emit(service);
    return service;
  }

  onDidChange(listener: (service: ServiceId) => void): Subscription {
    return this.changed.event(listener);
  }

  private emit(service: ServiceId): void {
    this.changed.fire(service);
  }

  private async retire(meta: KeyMetadata): Promise<void> {
    const list = this.retired().filter((r) => r.fingerprint !== meta.fingerprint);
    list.unshift({
      service: meta.service,
      fingerprint: meta.fingerprint,
      masked: meta.masked,
      length: meta.length,
      retiredAt: this.now().toISOString(),
    });
    await this.state.update(RETIRED, list.slice(0, MAX_RETIRED));
  }

  private accountMetaOf(service: ServiceId, value: string): AccountKeyMetadata {
    const at = this.now().toISOString();
    return { service, masked: maskKey(value), fingerprint: fingerprint(value), length: value.length, addedAt: at };
  }

  private async writeAccountMeta(service: ServiceId, meta: AccountKeyMetadata | undefined): Promise<void> {
    const all = { ...(this.state.get<Partial<Record<ServiceId, AccountKeyMetadata>>>(ACCOUNT_META) ?? {}) };
    if (meta) all[service] = meta;
    else delete all[service];
    await this.state.update(ACCOUNT_META, all);
  }

  private async writeMeta(service: ServiceId, meta: KeyMetadata | undefined): Promise<void> {
    const all = { ...(this.state.get<Partial<Record<ServiceId, KeyMetadata>>>(META) ?? {}) };
    if (meta) all[service] = meta;
    else delete all[service];
    await this.state.update(META, all);
  }
}

/** A service whose stored key could not be read, and why (SecretStorage failed). */
export interface UnreadKey {
  service: ServiceId;
  reason: string;
}

/**
 * The scanner's view of keys Keyward holds or held: values of the active ones, descriptors of rotated-out ones.
 * A key that could not be read is named in `unread`, never dropped in silence: a stored key of a free-form shape
 * (a compatible service's) is then invisible to the scanner, and the secret guard must say so.
 */
export async function scannerKeys(store: KeyStore): Promise<{
  known: { value: string; service: ServiceId }[];
  retired: { service: ServiceId; fingerprint: string; prefix: string; suffix: string; length: number }[];
  unread: UnreadKey[];
  /** Every held key's mask, from metadata: the filter for disk masks a key by it when its value could not be read. */
  masks: KeyMask[];
}> {
  const known: { value: string; service: ServiceId; manages?: boolean }[] = [];
  const unread: UnreadKey[] = [];
  // Every service's stored key, whatever its shape: a compatible key may look like nothing the rules know.
  for (const service of SERVICE_IDS) {
    try {
      const value = await store.getKey(service);
      if (value) known.push({ value, service });
    } catch (error) {
      unread.push({ service, reason: (error as Error)?.message ?? String(error) });
    }
  }
  // Management and admin keys: found and named wherever they appear, the most dangerous keys the user holds.
  for (const service of ACCOUNT_KEY_SERVICES) {
    try {
      const value = await store.getAccountKey(service);
      if (value) known.push({ value, service, manages: true });
    } catch (error) {
      unread.push({ service, reason: (error as Error)?.message ?? String(error) });
    }
  }
  const retired = store
    .retired()
    .filter((r) => r.length > 0)
    .map((r) => {
      const [prefix, suffix] = r.masked.split('…') as [string, string];
      return { service: r.service, fingerprint: r.fingerprint, prefix, suffix, length: r.length };
    });
  const masks = [
    ...SERVICE_IDS.map((service) => store.metadata(service)).filter((m) => m !== undefined),
    ...ACCOUNT_KEY_SERVICES.map((service) => store.accountMetadata(service)).filter((m) => m !== undefined),
    ...store.retired(),
  ]
    .map((k) => keyMaskOf(k.masked, k.length))
    .filter((m) => m !== undefined);
  return { known, retired, unread, masks };
}

/** Days until an ISO expiry date (negative once past), or null without one. */
export function daysUntil(expiresAt: string | null, now: Date): number | null {
  if (!expiresAt) return null;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return null;
  return Math.floor((at - now.getTime()) / 86_400_000);
}
