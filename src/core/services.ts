// What a service is, as data: one row per service. Everything that differs
// between services is read from here (or from a capability), so a new service
// is one row, and `satisfies Record<ServiceId, ...>` makes the compiler name
// every field it must fill. No vscode import: the CLI reads the same table.
import { SERVICE_IDS, type ServiceId } from '../shared/serviceIds.ts';
import type { KeywardConfig } from './config.ts';

export { SERVICE_IDS, type ServiceId };

/** The request format: OpenAI's chat completions, or its Responses API. */
export type WireFamily = 'chat-completions' | 'responses';

/**
 * Which error bodies the service sends: the routing service's `{code, message, metadata}`,
 * or OpenAI's `{message, type, param, code}` (which OpenAI-compatible servers copy).
 */
export type ErrorDialect = 'router' | 'openai';

export interface ServiceCapabilities {
  /** A call that checks the key without spending anything. */
  hasKeyCheck: boolean;
  /** `:free` models with per-minute and per-day limits. */
  hasFreeModels: boolean;
  /** Prepaid credits and per-key credit limits that can be read. */
  hasCredits: boolean;
  /** The service may be used without any key (a local server). */
  keyOptional: boolean;
  /** Usage tiers that set the rate limits. */
  hasUsageTier: boolean;
  /** Restricted keys whose missing scopes errors name. */
  hasScopes: boolean;
  /** The `provider.data_collection: "deny"` training opt-out. */
  hasDataCollectionOptOut: boolean;
  /** A conversation continues from a stored response (`previous_response_id`). */
  chainsResponses: boolean;
  /** Rate-limit headers worth keeping from each answer. */
  hasRateLimitHeaders: boolean;
  /** The model list carries prices per token. */
  hasModelPrices: boolean;
  /** Streams report usage only when asked (`stream_options.include_usage`), as OpenAI's spec has it. */
  streamUsageOnRequest: boolean;
}

export interface ServiceCommands {
  setKey: string;
  verifyKey: string;
  /** Rotation opens the service's keys page where it has one, then takes the new key. */
  rotateKey: string;
  deleteKey: string;
  /** What clicking the status-bar item runs. */
  actions: string;
}

export interface ServiceDescriptor {
  id: ServiceId;
  /** Lower case, as it sits in a sentence: "the routing service". Localised by the host. */
  displayName: string;
  /** Capitalised, for buttons and pickers. Localised by the host. */
  label: string;
  /** The word in command titles: "Set Router Key". */
  commandWord: string;
  wire: WireFamily;
  errorDialect: ErrorDialect;
  /** Null: there is no default, the user gives one (keyward.<id>.baseUrl, or --base-url). */
  defaultBaseUrl: string | null;
  settings: { baseUrl: string; name: string | null };
  env: { key: string; baseUrl: string };
  /** The SecretStorage name of the key. */
  secretSlot: string;
  /** The label a stored key gets when the user gives none. */
  keyLabel: string;
  /** What the Set Key input shows as its placeholder. */
  keyPlaceholder: string;
  /** Key shape checked when a key is set (core/keyFormats.ts); null takes any shape. */
  keyShape: 'router' | 'direct' | null;
  endpoints: {
    chat: '/chat/completions' | '/responses';
    keyCheck: string | null;
    models: string | null;
    credits: string | null;
  };
  /** Default pages; the settings may move them (KeywardConfig). */
  pages: { keys: string | null; credits: string | null };
  statusBar: { id: string; name: string; priority: number; shown: 'always' | 'when-configured' };
  commands: ServiceCommands;
  capabilities: ServiceCapabilities;
}

export const SERVICES = {
  router: {
    id: 'router',
    displayName: 'routing service',
    label: 'Routing service',
    commandWord: 'Router',
    wire: 'chat-completions',
    errorDialect: 'router',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    settings: { baseUrl: 'keyward.router.baseUrl', name: null },
    env: { key: 'OPENROUTER_API_KEY', baseUrl: 'OPENROUTER_BASE_URL' },
    secretSlot: 'keyward.key.router',
    keyLabel: 'Router key',
    keyPlaceholder: 'sk-or-v1-…',
    keyShape: 'router',
    endpoints: { chat: '/chat/completions', keyCheck: '/key', models: '/models', credits: '/credits' },
    pages: { keys: 'https://openrouter.ai/settings/keys', credits: 'https://openrouter.ai/settings/credits' },
    statusBar: { id: 'router', name: 'Keyward: routing service', priority: 101, shown: 'always' },
    commands: {
      setKey: 'keyward.setRouterKey',
      verifyKey: 'keyward.verifyRouterKey',
      rotateKey: 'keyward.rotateRouterKey',
      deleteKey: 'keyward.deleteRouterKey',
      actions: 'keyward.routerActions',
    },
    capabilities: {
      hasKeyCheck: true,
      hasFreeModels: true,
      hasCredits: true,
      keyOptional: false,
      hasUsageTier: false,
      hasScopes: false,
      hasDataCollectionOptOut: true,
      chainsResponses: false,
      hasRateLimitHeaders: false,
      hasModelPrices: true,
      streamUsageOnRequest: false,
    },
  },
  direct: {
    id: 'direct',
    displayName: 'direct service',
    label: 'Direct service',
    commandWord: 'Direct',
    wire: 'responses',
    errorDialect: 'openai',
    defaultBaseUrl: 'https://api.openai.com/v1',
    settings: { baseUrl: 'keyward.direct.baseUrl', name: null },
    env: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
    secretSlot: 'keyward.key.direct',
    keyLabel: 'Direct key',
    keyPlaceholder: 'sk-proj-…',
    keyShape: 'direct',
    // Listing models is the only check that spends nothing; it proves api.model.read, not more.
    endpoints: { chat: '/responses', keyCheck: '/models', models: '/models', credits: null },
    pages: {
      keys: 'https://platform.openai.com/api-keys',
      credits: 'https://platform.openai.com/settings/organization/billing/overview',
    },
    statusBar: { id: 'direct', name: 'Keyward: direct service', priority: 100, shown: 'always' },
    commands: {
      setKey: 'keyward.setDirectKey',
      verifyKey: 'keyward.verifyDirectKey',
      rotateKey: 'keyward.rotateDirectKey',
      deleteKey: 'keyward.deleteDirectKey',
      actions: 'keyward.directActions',
    },
    capabilities: {
      hasKeyCheck: true,
      hasFreeModels: false,
      hasCredits: false,
      keyOptional: false,
      hasUsageTier: true,
      hasScopes: true,
      hasDataCollectionOptOut: false,
      chainsResponses: true,
      hasRateLimitHeaders: true,
      hasModelPrices: false,
      streamUsageOnRequest: false,
    },
  },
  compatible: {
    id: 'compatible',
    displayName: 'OpenAI-compatible service',
    label: 'OpenAI-compatible',
    commandWord: 'Compatible',
    wire: 'chat-completions',
    errorDialect: 'openai',
    defaultBaseUrl: null,
    settings: { baseUrl: 'keyward.compatible.baseUrl', name: 'keyward.compatible.name' },
    env: { key: 'KEYWARD_COMPATIBLE_API_KEY', baseUrl: 'KEYWARD_COMPATIBLE_BASE_URL' },
    secretSlot: 'keyward.key.compatible',
    keyLabel: 'Compatible key',
    keyPlaceholder: '',
    keyShape: null,
    // Servers that offer GET /models (Ollama, LM Studio, vLLM, llama.cpp) answer it without spending.
    endpoints: { chat: '/chat/completions', keyCheck: '/models', models: '/models', credits: null },
    pages: { keys: null, credits: null },
    statusBar: { id: 'compatible', name: 'Keyward: OpenAI-compatible service', priority: 99, shown: 'when-configured' },
    commands: {
      setKey: 'keyward.setCompatibleKey',
      verifyKey: 'keyward.verifyCompatibleKey',
      rotateKey: 'keyward.rotateCompatibleKey',
      deleteKey: 'keyward.deleteCompatibleKey',
      actions: 'keyward.compatibleActions',
    },
    capabilities: {
      hasKeyCheck: true,
      hasFreeModels: false,
      hasCredits: false,
      keyOptional: true,
      hasUsageTier: false,
      hasScopes: false,
      hasDataCollectionOptOut: false,
      chainsResponses: false,
      hasRateLimitHeaders: false,
      hasModelPrices: false,
      streamUsageOnRequest: true,
    },
  },
} as const satisfies Record<ServiceId, ServiceDescriptor>;

export function service(id: ServiceId): ServiceDescriptor {
  return SERVICES[id];
}

export function capable(id: ServiceId, capability: keyof ServiceCapabilities): boolean {
  return SERVICES[id].capabilities[capability];
}

/** The service whose SecretStorage slot this is. */
export function serviceOfSecret(name: string): ServiceId | undefined {
  return SERVICE_IDS.find((id) => SERVICES[id].secretSlot === name);
}

/** The configured base URL, or null when the service has none yet (compatible before it is set). */
export function baseUrlOf(config: KeywardConfig, id: ServiceId): string | null {
  return config[id].baseUrl;
}

/** The name a person gave the service (compatible), else its display name. */
export function serviceName(config: KeywardConfig, id: ServiceId): string {
  const named = id === 'compatible' ? config.compatible.name : '';
  return named || SERVICES[id].displayName;
}

/** The service's pages as configured: keys and credits/billing, null where the service has none. */
export function pagesOf(config: KeywardConfig, id: ServiceId): { keys: string | null; credits: string | null } {
  switch (id) {
    case 'router':
      return { keys: config.router.keysUrl, credits: config.router.creditsUrl };
    case 'direct':
      return { keys: config.direct.keysUrl, credits: config.direct.billingUrl };
    case 'compatible':
      return SERVICES.compatible.pages;
  }
}

/** A service is configured when it can be called: the two hosted ones always, compatible once it has a base URL. */
export function isConfigured(config: KeywardConfig, id: ServiceId): boolean {
  return baseUrlOf(config, id) !== null;
}
