// Keys moved out of a file git tracks. The file no longer holds them, but every
// clone of its history does, so each stays a finding on that file until it is
// rotated: the stored key of its service changed since the move (Keyward's
// Rotate replaces it), or a live check said the service no longer accepts it.
// GitGuardian keeps an incident open until the secret is revoked, for the same
// reason. Only what may be known without the key is kept: masked form and
// fingerprint.
import type { ServiceId } from '../../shared/serviceIds.ts';
import { isServiceId } from '../../shared/serviceIds.ts';
import type { Verification } from '../../core/scan/verify.ts';

/** The diagnostic code of such a finding: quick fixes filter on it. */
export const COMMITTED_KEY_CODE = 'committed-key';

export interface CommittedKey {
  /** The file's URI, as a string. */
  uri: string;
  /** 0-based line and column where the key was. */
  line: number;
  column: number;
  service: ServiceId;
  masked: string;
  fingerprint: string;
  /** The fingerprint of the service's stored key right after the move: a different one later is a rotation. */
  storedAtMove: string | null;
}

/** What says a key was rotated: the stored key now, the rotated-out keys, and the live checks. */
export interface RotationSigns {
  stored(service: ServiceId): string | null;
  retired(): ReadonlySet<string>;
  verification(fingerprint: string): Verification | undefined;
}

export function rotated(key: CommittedKey, signs: RotationSigns): boolean {
  if (signs.verification(key.fingerprint)?.status === 'inactive') return true;
  if (signs.retired().has(key.fingerprint)) return true;
  const now = signs.stored(key.service);
  // Storing the very key that was committed is not a rotation.
  return now !== key.storedAtMove && now !== key.fingerprint;
}

/** What was saved, read back whatever wrote it: only well-formed entries count. */
export function committedFrom(saved: unknown): CommittedKey[] {
  if (!Array.isArray(saved)) return [];
  return saved.filter(
    (k): k is CommittedKey =>
      !!k &&
      typeof k === 'object' &&
      typeof (k as CommittedKey).uri === 'string' &&
      Number.isInteger((k as CommittedKey).line) &&
      Number.isInteger((k as CommittedKey).column) &&
      isServiceId((k as CommittedKey).service) &&
      typeof (k as CommittedKey).masked === 'string' &&
      typeof (k as CommittedKey).fingerprint === 'string' &&
      ((k as CommittedKey).storedAtMove === null || typeof (k as CommittedKey).storedAtMove === 'string'),
  );
}

export class CommittedKeys {
  private list: CommittedKey[];
  private readonly save: (list: readonly CommittedKey[]) => void;

  /** `saved` is what an earlier session kept; `save` keeps the list (workspace state: a reload keeps the finding). */
  constructor(saved: readonly CommittedKey[] = [], save: (list: readonly CommittedKey[]) => void = () => undefined) {
    this.list = [...saved];
    this.save = save;
  }

  add(key: CommittedKey): void {
    this.list = this.list.filter((k) => !(k.uri === key.uri && k.fingerprint === key.fingerprint));
    this.list.push(key);
    this.save(this.list);
  }

  /** Forgets the rotated keys; true when one went. */
  prune(signs: RotationSigns): boolean {
    const before = this.list.length;
    this.list = this.list.filter((k) => !rotated(k, signs));
    if (this.list.length === before) return false;
    this.save(this.list);
    return true;
  }

  of(uri: string): readonly CommittedKey[] {
    return this.list.filter((k) => k.uri === uri);
  }

  uris(): string[] {
    return [...new Set(this.list.map((k) => k.uri))];
  }
}
