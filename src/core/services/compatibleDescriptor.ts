// The compatible service as data (see descriptor.ts); what it does is services/compatible.ts.
import { STATUS_PRIORITY, type ServiceDescriptor } from './descriptor.ts';

export const compatibleDescriptor = {
  id: 'compatible',
  displayName: 'OpenAI-compatible service',
  label: 'OpenAI-compatible',
  shortLabel: 'Compatible',
  cliHelp: {
    about: 'any OpenAI-compatible chat-completions server\n(Ollama, LM Studio, vLLM, llama.cpp)',
    status:
      'whether the endpoint answers and lists models (GET /models); a server\nwithout a model list still answers prompts for a model id you give.',
  },
  commandWord: 'Compatible',
  wire: 'chat-completions',
  errorDialect: 'openai',
  module: 'openai-compatible',
  defaultBaseUrl: null,
  settings: { baseUrl: 'keyward.compatible.baseUrl', name: 'keyward.compatible.name' },
  env: { key: 'KEYWARD_COMPATIBLE_API_KEY', baseUrl: 'KEYWARD_COMPATIBLE_BASE_URL' },
  secretSlot: 'keyward.key.compatible',
  keyLabel: 'Compatible key',
  keyPlaceholder: '',
  keyPrompt:
    "Paste the key your OpenAI-compatible server expects, if it wants one (local servers often need none). It is kept in VS Code's secret storage only.",
  // A compatible service's key has no fixed shape, so no secretlint rule is known to find it.
  secretlintRules: [],
  unverifiableKey: null,
  keyShape: null,
  // Servers that offer GET /models (Ollama, LM Studio, vLLM, llama.cpp) answer it without spending.
  endpoints: { chat: '/chat/completions', keyCheck: '/models', models: '/models', credits: null },
  pages: { keys: null, credits: null },
  configured: (config) => ({
    baseUrl: config.compatible.baseUrl,
    pages: { keys: null, credits: null },
    givenName: config.compatible.name,
  }),
  statusBar: {
    id: 'compatible',
    name: 'Keyward: OpenAI-compatible service',
    priority: STATUS_PRIORITY + 0.01,
    shown: 'when-configured',
  },
  commands: {
    setKey: 'keyward.setCompatibleKey',
    verifyKey: 'keyward.verifyCompatibleKey',
    rotateKey: 'keyward.rotateCompatibleKey',
    deleteKey: 'keyward.deleteCompatibleKey',
    actions: 'keyward.compatibleActions',
  },
  capabilities: {
    hasFreeModels: false,
    hasCredits: false,
    keyOptional: true,
    hasUsageTier: false,
    hasScopes: false,
    hasDataCollectionOptOut: false,
    chainsResponses: false,
    hasModelPrices: false,
    streamUsageOnRequest: true,
  },
} as const satisfies ServiceDescriptor;
