// The Set Key check: the service's shapes (shared/keyShapes.ts) and other providers'
// prefixes. Unknown direct shapes get a warning, not a refusal.
import type { ServiceId } from '../../shared/serviceIds.ts';
import {
  DIRECT_INFIX,
  DIRECT_KEY,
  DIRECT_LEGACY_KEY,
  DIRECT_PREFIXES,
  ROUTER_KEY,
  looseDirectKey,
} from '../../shared/keyShapes.ts';
import { SERVICE_NAMES } from '../errors.ts';
import { SERVICES, type ServiceDescriptor } from '../services/descriptors.ts';

// Admin keys are accepted as a shape so that the check can refuse them by name.
const DIRECT_LOOSE = looseDirectKey(DIRECT_PREFIXES, false);

/** Other providers' prefixes: a key like these "probably belongs to another provider". */
const OTHER_PROVIDERS: [RegExp, string][] = [
  [/^sk-ant-/, 'Anthropic'],
  [/^AIza[0-9A-Za-z_-]{30,}$/, 'Google (Gemini)'],
  [/^gsk_/, 'Groq'],
  [/^xai-/, 'xAI'],
  [/^hf_/, 'Hugging Face'],
  [/^r8_/, 'Replicate'],
  [/^pplx-/, 'Perplexity'],
  [/^nvapi-/, 'NVIDIA'],
  [/^fw_/, 'Fireworks'],
  [/^csk-/, 'Cerebras'],
  [/^sk-proj-/, 'the direct service'],
];

export type KeyShapeCheck =
  | { verdict: 'ok'; kind: string }
  | { verdict: 'warn'; kind: string; message: string }
  | { verdict: 'other_service'; service: ServiceId; message: string }
  | { verdict: 'refuse'; message: string };

export function directKeyKind(key: string): 'project' | 'service account' | 'admin' | 'legacy user' | undefined {
  if (!DIRECT_KEY.test(key) && !DIRECT_LEGACY_KEY.test(key) && !DIRECT_LOOSE.test(key)) return undefined;
  if (key.startsWith('sk-proj-')) return 'project';
  if (key.startsWith('sk-svcacct-') || key.startsWith('sk-service-')) return 'service account';
  if (key.startsWith('sk-admin-')) return 'admin';
  return 'legacy user';
}

/** What a key looks like, for the slot the user is putting it in. Never echoes the key. */
export function checkKeyForSlot(slot: ServiceId, raw: string): KeyShapeCheck {
  const key = raw.trim();
  if (key.length === 0) return { verdict: 'refuse', message: 'The key is empty.' };
  if (/\s/.test(key))
    return { verdict: 'refuse', message: 'The key contains spaces or line breaks; paste the key alone.' };
  // A compatible server's key has whatever shape its owner chose (another provider's, too).
  const shape = SERVICES[slot].keyShape;
  return shape === null ? { verdict: 'ok', kind: 'any' } : SHAPE_CHECKS[shape](key);
}

/** A key for a slot that takes the routing service's shape. */
function routerShapeCheck(key: string): KeyShapeCheck {
  const isRouter = ROUTER_KEY.test(key);
  const direct = directKeyKind(key);
  if (isRouter) return { verdict: 'ok', kind: 'router' };
  if (direct)
    return {
      verdict: 'other_service',
      service: 'direct',
      message: `This looks like a ${SERVICE_NAMES.direct} key (${direct}), not a ${SERVICE_NAMES.router} key.`,
    };
  const other = OTHER_PROVIDERS.find(([pattern]) => pattern.test(key));
  if (other)
    return {
      verdict: 'refuse',
      message: `This key probably belongs to another provider (${other[1]}). A ${SERVICE_NAMES.router} key starts with sk-or-v1- followed by 64 lowercase hex characters.`,
    };
  if (/^sk-or-/i.test(key))
    return {
      verdict: 'refuse',
      message: `This is not a whole ${SERVICE_NAMES.router} key: it must be sk-or-v1- followed by exactly 64 lowercase hex characters (this has ${key.length - 9} characters after the prefix${/[A-F]/.test(key) ? ', with uppercase letters' : ''}).`,
    };
  return {
    verdict: 'refuse',
    message: `A ${SERVICE_NAMES.router} key starts with sk-or-v1- followed by 64 lowercase hex characters; this key has another prefix and probably belongs to another provider.`,
  };
}

/** A key for a slot that takes the direct service's shapes. */
function directShapeCheck(key: string): KeyShapeCheck {
  const isRouter = ROUTER_KEY.test(key);
  const direct = directKeyKind(key);
  if (direct === 'admin')
    return {
      verdict: 'refuse',
      message:
        'This is an admin key: it manages the organisation and cannot be used for prompting. Create a project key (sk-proj-) with the permissions you need.',
    };
  if (direct) return { verdict: 'ok', kind: direct };
  if (isRouter || /^sk-or-/.test(key))
    return {
      verdict: 'other_service',
      service: 'router',
      message: `This looks like a ${SERVICE_NAMES.router} key (sk-or-v1-), not a ${SERVICE_NAMES.direct} key.`,
    };
  const other = OTHER_PROVIDERS.find(([pattern, name]) => pattern.test(key) && name !== 'the direct service');
  if (other)
    return {
      verdict: 'refuse',
      message: `This key probably belongs to another provider (${other[1]}), not to the ${SERVICE_NAMES.direct}.`,
    };
  if (key.startsWith('sk-'))
    return {
      verdict: 'warn',
      kind: 'unknown',
      message: `This key does not have a known ${SERVICE_NAMES.direct} shape (sk-proj-…${DIRECT_INFIX}…). It may still work; verify it after storing.`,
    };
  return {
    verdict: 'refuse',
    message: `A ${SERVICE_NAMES.direct} key starts with sk-; this key has another prefix and probably belongs to another provider.`,
  };
}

/** The check for each key shape a descriptor may name: the slot's shape picks it, no service id is asked. */
const SHAPE_CHECKS = {
  router: routerShapeCheck,
  direct: directShapeCheck,
} satisfies Record<NonNullable<ServiceDescriptor['keyShape']>, (key: string) => KeyShapeCheck>;

export { fingerprint } from './fingerprint.ts';
