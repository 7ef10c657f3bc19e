// The direct service as data (see descriptor.ts); what it does is services/direct.ts.
import { DEFAULT_CONFIG } from '../config.ts';
import { STATUS_PRIORITY, type ServiceDescriptor } from './descriptor.ts';

export const directDescriptor = {
  id: 'direct',
  displayName: 'direct service',
  label: 'Direct service',
  shortLabel: 'Direct',
  cliHelp: {
    about: 'the direct service: its own models, through the Responses API',
    status:
      'whether the key is recognised, whether it may list models, and the\nrate-limit headers the service sent. Whether it may create responses\ncannot be checked without spending tokens: it says so.',
  },
  commandWord: 'Direct',
  wire: 'responses',
  errorDialect: 'openai',
  module: 'own',
  defaultBaseUrl: DEFAULT_CONFIG.direct.baseUrl,
  settings: { baseUrl: 'keyward.direct.baseUrl', name: null },
  env: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  secretSlot: 'keyward.key.direct',
  accountKey: {
    secretSlot: 'keyward.adminKey.direct',
    name: 'admin key',
    env: 'OPENAI_ADMIN_KEY',
    canCreate: false,
    canDisable: false,
    // The platform's project settings: Settings, the project, API keys.
    projectKeysPage: 'https://platform.openai.com/settings/{project}/api-keys',
  },
  keyLabel: 'Direct key',
  keyPlaceholder: 'sk-proj-…',
  keyPrompt: "Paste the direct service key (sk-proj-...). It is kept in VS Code's secret storage only.",
  secretlintRules: [
    '@secretlint/secretlint-rule-openai',
    '@secretlint/secretlint-rule-preset-recommend',
    '@secretlint/secretlint-rule-preset-canary',
  ],
  // An admin key manages an organisation and may not list models.
  unverifiableKey: {
    prefix: 'sk-admin-',
    reason: 'an admin key: no free request can tell whether it is live',
  },
  keyShape: 'direct',
  // Listing models is the only check that spends nothing; it proves api.model.read, not more.
  endpoints: { chat: '/responses', keyCheck: '/models', models: '/models', credits: null },
  pages: { keys: DEFAULT_CONFIG.direct.keysUrl, credits: DEFAULT_CONFIG.direct.billingUrl },
  configured: (config) => ({
    baseUrl: config.direct.baseUrl,
    pages: { keys: config.direct.keysUrl, credits: config.direct.billingUrl },
    givenName: '',
  }),
  statusBar: { id: 'direct', name: 'Keyward: direct service', priority: STATUS_PRIORITY + 0.02, shown: 'always' },
  commands: {
    setKey: 'keyward.setDirectKey',
    verifyKey: 'keyward.verifyDirectKey',
    rotateKey: 'keyward.rotateDirectKey',
    deleteKey: 'keyward.deleteDirectKey',
    actions: 'keyward.directActions',
  },
  capabilities: {
    hasFreeModels: false,
    hasCredits: false,
    keyOptional: false,
    hasUsageTier: true,
    hasScopes: true,
    hasDataCollectionOptOut: false,
    chainsResponses: true,
    hasModelPrices: false,
    streamUsageOnRequest: false,
  },
} as const satisfies ServiceDescriptor;
