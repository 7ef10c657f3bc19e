// What a scan is asked and what it answers: the shapes every reader of findings shares.
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { KeyOwner } from '../../shared/keyShapes.ts';
import type { FindingRuleId } from './rules.ts';
import type { TeamRule } from './teamRules.ts';

/** A key Keyward holds: matched wherever it appears exactly, whatever its shape. */
export interface KnownKey {
  value: string;
  service: ServiceId;
  /** A management or admin key: it manages the account (mints, limits, deletes keys) rather than using it. */
  manages?: boolean;
}

/** A rotated-out key, known only by its fingerprint, prefix, last four and length. */
export interface RetiredKey {
  service: ServiceId;
  fingerprint: string;
  prefix: string;
  suffix: string;
  length: number;
}

export interface ScanOptions {
  known?: readonly KnownKey[];
  retired?: readonly RetiredKey[];
  /** Honour the allow comments of allowComments.ts (keyward, secretlint, detect-secrets, gitleaks). Default true. */
  allowComments?: boolean;
  /** The text is YAML, where a detect-secrets pragma counts only after '#' (see optionsFor). */
  yaml?: boolean;
  /**
   * Hands each reported key to the caller, in this process only: `--verify`
   * needs the key itself to ask its service, and findings never carry it.
   */
  onKey?: (fingerprint: string, key: string) => void;
  /** How many base64 layers the text is inside (encodedKeys.ts); 0 for a file's own text. */
  decodeDepth?: number;
  /** The file is of a kind that keeps base64 secrets (a Secret, .npmrc, docker config): decoded when it names one. */
  decodeBase64?: boolean;
  /**
   * At most this many medium-confidence findings per text (default LOOSE_CAP);
   * the rest are counted, not listed, so generated near-misses cannot flood a report.
   */
  looseCap?: number;
  /** A team's own rules (.keyward.toml), searched in every text besides Keyward's. */
  teamRules?: readonly TeamRule[];
}

/** Medium-confidence findings listed per file; more are summarised as a count. */
export const LOOSE_CAP = 20;

export interface ScanResult {
  findings: Finding[];
  /** Medium-confidence findings past the cap: counted, not listed. */
  omitted: number;
}

export interface Finding {
  ruleId: FindingRuleId;
  /** Whose key: a service Keyward prompts, or another AI provider (providerRules.ts). */
  service: KeyOwner;
  confidence: 'high' | 'medium';
  description: string;
  /** 0-based line; columns are 0-based UTF-16 code units as VS Code counts them, end exclusive. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** UTF-8 byte offsets into the scanned text, end exclusive. */
  startByte: number;
  endByte: number;
  masked: string;
  fingerprint: string;
  /** This is the key stored in Keyward, or one it rotated out. */
  stored: 'active' | 'retired' | null;
  /** An allow comment covers it, and was not honoured: it is the key stored in Keyward (never hidden by a file). */
  allowRefused?: true;
}
