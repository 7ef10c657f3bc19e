// The key shapes the scanner knows, checked on whole tokens. A token is a run
// of the key alphabet [A-Za-z0-9_-] that starts with "sk-" or another provider's
// prefix; checking whole tokens is what makes boundaries exact (65 hex characters
// is not a key).
import {
  DIRECT_INFIX,
  DIRECT_KEY,
  DIRECT_LEGACY_KEY,
  DIRECT_PREFIX_RE,
  ROUTER_KEY_LENGTH,
  type KeyOwner,
  PROVIDER_KEY_SHAPES,
  type ProviderRuleId,
  ROUTER_PREFIX,
  looseDirectKey,
} from '../../shared/keyShapes.ts';
import { PROVIDER_RULES, classifyProviderToken, providerBody } from './providerRules.ts';

export type RuleId =
  | 'router-key'
  | 'direct-key'
  /** An admin key: it manages the organization (keys, projects, costs), the most dangerous key a file can hold. */
  | 'direct-admin-key'
  /**
   * The routing service's management key stored in Keyward: it mints keys that spend the balance. Its shape is an
   * ordinary key's, so only the one Keyward holds can be told apart.
   */
  | 'router-management-key'
  | 'direct-key-legacy'
  | 'direct-key-loose'
  | 'stored-key'
  | 'retired-key'
  | ProviderRuleId
  /** A key assembled from string pieces (splitKeys.ts); the finding names the key's owner. */
  | 'split-key'
  /** A key inside base64 text (encodedKeys.ts); the finding names the key's owner. */
  | 'encoded-key';

/** A team rule's id, as its config spells it (teamRules.ts); never one of RULES' ids (a config reusing one is refused). */
export type TeamRuleId = string & { readonly teamRule: true };

/** Whose rule a finding is: one of Keyward's own, or a team's. */
export type FindingRuleId = RuleId | TeamRuleId;

/** Whether the id is one of Keyward's own rules (else a team's). */
export function isOwnRule(id: FindingRuleId): id is RuleId {
  return Object.hasOwn(RULES, id);
}

export interface Rule {
  id: RuleId;
  /** Whose key the rule finds; the split and encoded rules take it from the key they find. */
  service?: KeyOwner;
  confidence: 'high' | 'medium';
  description: string;
}

const PROVIDER_RULE_ROWS = Object.fromEntries(
  (Object.keys(PROVIDER_RULES) as ProviderRuleId[]).map((id) => {
    const { provider: service, confidence, description } = PROVIDER_RULES[id];
    return [id, { id, service, confidence, description }];
  }),
) as Record<ProviderRuleId, Rule>;

export const RULES: Record<RuleId, Rule> = {
  'router-key': { id: 'router-key', service: 'router', confidence: 'high', description: 'routing service key' },
  'direct-key': { id: 'direct-key', service: 'direct', confidence: 'high', description: 'direct service key' },
  'direct-admin-key': {
    id: 'direct-admin-key',
    service: 'direct',
    confidence: 'high',
    description: 'direct service admin key',
  },
  'router-management-key': {
    id: 'router-management-key',
    service: 'router',
    confidence: 'high',
    description: 'routing service management key',
  },
  'direct-key-legacy': {
    id: 'direct-key-legacy',
    service: 'direct',
    confidence: 'high',
    description: 'direct service key (legacy user key)',
  },
  'direct-key-loose': {
    id: 'direct-key-loose',
    service: 'direct',
    confidence: 'medium',
    description: 'probable direct service key (older or unusual shape)',
  },
  'stored-key': { id: 'stored-key', service: 'router', confidence: 'high', description: 'the key stored in Keyward' },
  'retired-key': { id: 'retired-key', service: 'router', confidence: 'high', description: 'a key Keyward rotated out' },
  ...PROVIDER_RULE_ROWS,
  // Medium: the pieces are joined as the code reads, which a scanner can only approximate.
  'split-key': { id: 'split-key', confidence: 'medium', description: 'key assembled from string pieces' },
  'encoded-key': { id: 'encoded-key', confidence: 'high', description: 'base64-encoded key' },
};

// The medium tier: odd lengths of prefixed keys and bare user keys; an admin key of an
// odd shape is not reported (as before the shapes were shared).
const LOOSE_DIRECT = looseDirectKey(['proj', 'svcacct', 'service'], true);

const ADMIN_PREFIX = 'sk-admin-';

/** The rules whose keys manage an account rather than use it: loud wherever they are found. */
export const ADMIN_RULES: ReadonlySet<FindingRuleId> = new Set<FindingRuleId>([
  'direct-admin-key',
  'router-management-key',
  'anthropic-admin-key',
]);

/** Longest token that can still be a key (a service-account key is 167 characters). */
export const MAX_TOKEN = 256;

function isLowerHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102);
}

/** Which rule a whole token matches, if any. */
export function classifyToken(token: string): RuleId | undefined {
  if (!token.startsWith('sk-')) return token.length > MAX_TOKEN ? undefined : classifyProviderToken(token);
  // The router shape (ROUTER_KEY) checked by hand: this runs on every token of every file.
  if (token.length === ROUTER_KEY_LENGTH && token.startsWith(ROUTER_PREFIX)) {
    for (let i = ROUTER_PREFIX.length; i < ROUTER_KEY_LENGTH; i++)
      if (!isLowerHex(token.charCodeAt(i))) return undefined;
    return 'router-key';
  }
  if (token.startsWith('sk-ant-')) return classifyProviderToken(token);
  if (!token.includes(DIRECT_INFIX)) return undefined;
  if (DIRECT_KEY.test(token)) return token.startsWith(ADMIN_PREFIX) ? 'direct-admin-key' : 'direct-key';
  if (DIRECT_LEGACY_KEY.test(token)) return 'direct-key-legacy';
  if (LOOSE_DIRECT.test(token)) return 'direct-key-loose';
  return undefined;
}

/** The random part of a key, where placeholders and test values show. */
export function keyBody(token: string, rule: RuleId): string {
  if (rule === 'router-key') return token.slice(ROUTER_PREFIX.length);
  if (rule in PROVIDER_KEY_SHAPES) return providerBody(token, rule as ProviderRuleId);
  return token.replace(DIRECT_PREFIX_RE, '').replace(DIRECT_INFIX, '');
}

/** Counts of the ASCII characters of the text entropy() is reading; all zero between calls. */
const COUNTS = new Uint32Array(128);

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  if (text.length === 0) return 0;
  // One table for every call, emptied as it is read: this runs once per candidate, a flood of near-misses has
  // many, and a fresh table and a pass over all its 128 entries per candidate were most of its cost.
  let other: Map<number, number> | undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) COUNTS[code]!++;
    else (other ??= new Map()).set(code, (other.get(code) ?? 0) + 1);
  }
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const count = code < 128 ? COUNTS[code]! : 0;
    if (count === 0) continue;
    COUNTS[code] = 0;
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  if (other)
    for (const count of other.values()) {
      const p = count / text.length;
      bits -= p * Math.log2(p);
    }
  return bits;
}

/** A value too regular to be a real key: low entropy, or a short pattern repeated. */
export function looksFake(body: string): boolean {
  if (entropy(body) < 3) return true;
  for (let period = 1; period <= 16 && period * 2 <= body.length; period++) {
    let repeats = true;
    for (let i = period; i < body.length && repeats; i++)
      if (body.charCodeAt(i) !== body.charCodeAt(i - period)) repeats = false;
    if (repeats) return true;
  }
  return false;
}
