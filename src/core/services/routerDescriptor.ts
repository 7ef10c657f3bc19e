// The router service as data (see descriptor.ts); what it does is services/router.ts.
import { DEFAULT_CONFIG } from '../config.ts';
import { STATUS_PRIORITY, type ServiceDescriptor } from './descriptor.ts';

export const routerDescriptor = {
  id: 'router',
  displayName: 'routing service',
  label: 'Routing service',
  shortLabel: 'Routing',
  cliHelp: {
    about: "the routing service: many providers' models behind one key",
    status:
      "the key check: credit limit, what is left, usage, expiry, today's free-model\nrequests, and whether the key lacks a credit limit or an expiry.",
  },
  commandWord: 'Router',
  wire: 'chat-completions',
  errorDialect: 'router',
  module: 'own',
  defaultBaseUrl: DEFAULT_CONFIG.router.baseUrl,
  settings: { baseUrl: 'keyward.router.baseUrl', name: null },
  env: { key: 'OPENROUTER_API_KEY', baseUrl: 'OPENROUTER_BASE_URL' },
  secretSlot: 'keyward.key.router',
  accountKey: {
    secretSlot: 'keyward.managementKey.router',
    name: 'management key',
    env: 'OPENROUTER_MANAGEMENT_KEY',
    canCreate: true,
    canDisable: true,
  },
  keyLabel: 'Router key',
  keyPlaceholder: 'sk-or-v1-…',
  keyPrompt: "Paste the routing service key (sk-or-v1-...). It is kept in VS Code's secret storage only.",
  secretlintRules: ['@secretlint/secretlint-rule-openrouter'],
  unverifiableKey: null,
  keyShape: 'router',
  endpoints: { chat: '/chat/completions', keyCheck: '/key', models: '/models', credits: '/credits' },
  pages: { keys: DEFAULT_CONFIG.router.keysUrl, credits: DEFAULT_CONFIG.router.creditsUrl },
  configured: (config) => ({
    baseUrl: config.router.baseUrl,
    pages: { keys: config.router.keysUrl, credits: config.router.creditsUrl },
    givenName: '',
  }),
  statusBar: { id: 'router', name: 'Keyward: routing service', priority: STATUS_PRIORITY + 0.03, shown: 'always' },
  commands: {
    setKey: 'keyward.setRouterKey',
    verifyKey: 'keyward.verifyRouterKey',
    rotateKey: 'keyward.rotateRouterKey',
    deleteKey: 'keyward.deleteRouterKey',
    actions: 'keyward.routerActions',
    signIn: 'keyward.signInRouter',
  },
  capabilities: {
    hasFreeModels: true,
    hasCredits: true,
    keyOptional: false,
    hasUsageTier: false,
    hasScopes: false,
    hasDataCollectionOptOut: true,
    chainsResponses: false,
    hasModelPrices: true,
    streamUsageOnRequest: false,
  },
} as const satisfies ServiceDescriptor;
