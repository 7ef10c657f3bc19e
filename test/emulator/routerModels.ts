// The routing service's model catalogue. Prices are USD per token, as strings,
// the way the real list sends them.
export interface RouterModel {
  id: string;
  name: string;
  prompt: string;
  completion: string;
  contextLength: number;
  /** A provider that may log or train on prompts; `data_collection: "deny"` rules it out. */
  collectsData: boolean;
  /** Default ceiling for output tokens when the request gives no max_tokens. */
  maxOutput: number;
  /** supported_parameters beyond the sampling ones every model takes; absent: tools and tool_choice. */
  extraParameters?: string[];
  /** The model reads images (architecture.input_modalities). */
  images?: boolean;
}

/** What every model of the list takes. */
const BASE_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop'];
const TOOL_PARAMETERS = ['tools', 'tool_choice'];

export function supportedParameters(model: RouterModel): string[] {
  return [...BASE_PARAMETERS, ...(model.extraParameters ?? TOOL_PARAMETERS)];
}

export const FREE_ROUTER_ID = 'openrouter/free';
export const AUTO_ROUTER_ID = 'openrouter/auto';

export const ROUTER_MODELS: RouterModel[] = [
  {
    id: FREE_ROUTER_ID,
    name: 'Free Models Router',
    prompt: '0',
    completion: '0',
    contextLength: 200_000,
    collectsData: true,
    maxOutput: 4096,
  },
  {
    id: AUTO_ROUTER_ID,
    name: 'Auto Router',
    prompt: '-1',
    completion: '-1',
    contextLength: 2_000_000,
    collectsData: false,
    maxOutput: 4096,
  },
  {
    id: 'meta-llama/llama-3.3-70b-instruct:free',
    name: 'Meta: Llama 3.3 70B Instruct (free)',
    prompt: '0',
    completion: '0',
    contextLength: 131_072,
    collectsData: true,
    maxOutput: 4096,
  },
  {
    id: 'google/gemma-3-27b-it:free',
    extraParameters: [],
    name: 'Google: Gemma 3 27B (free)',
    prompt: '0',
    completion: '0',
    contextLength: 96_000,
    collectsData: true,
    maxOutput: 4096,
  },
  {
    id: 'deepseek/deepseek-chat-v3.1:free',
    name: 'DeepSeek: V3.1 (free)',
    prompt: '0',
    completion: '0',
    contextLength: 163_840,
    collectsData: true,
    maxOutput: 4096,
  },
  {
    id: 'meta-llama/llama-3.3-70b-instruct',
    name: 'Meta: Llama 3.3 70B Instruct',
    prompt: '0.0000001',
    completion: '0.00000032',
    contextLength: 131_072,
    collectsData: false,
    maxOutput: 4096,
  },
  {
    id: 'openai/gpt-4o-mini',
    name: 'OpenAI: GPT-4o-mini',
    prompt: '0.00000015',
    completion: '0.0000006',
    contextLength: 128_000,
    collectsData: false,
    maxOutput: 16_384,
  },
  {
    id: 'openai/gpt-4o',
    images: true,
    name: 'OpenAI: GPT-4o',
    prompt: '0.0000025',
    completion: '0.00001',
    contextLength: 128_000,
    collectsData: false,
    maxOutput: 16_384,
  },
  {
    id: 'anthropic/claude-sonnet-4.5',
    extraParameters: [...TOOL_PARAMETERS, 'reasoning', 'include_reasoning'],
    images: true,
    name: 'Anthropic: Claude Sonnet 4.5',
    prompt: '0.000003',
    completion: '0.000015',
    contextLength: 1_000_000,
    collectsData: false,
    maxOutput: 64_000,
  },
];

export function findRouterModel(id: string): RouterModel | undefined {
  return ROUTER_MODELS.find((model) => model.id === id);
}

export function isFreeModel(model: RouterModel): boolean {
  return model.id.endsWith(':free') || (model.prompt === '0' && model.completion === '0');
}

export function freeModels(): RouterModel[] {
  return ROUTER_MODELS.filter((model) => isFreeModel(model) && model.id !== FREE_ROUTER_ID);
}

export function modelListEntry(model: RouterModel, created: number): Record<string, unknown> {
  return {
    id: model.id,
    canonical_slug: model.id,
    name: model.name,
    created,
    description: `${model.name}, served by the Keyward emulator.`,
    context_length: model.contextLength,
    architecture: {
      input_modalities: model.images ? ['text', 'image'] : ['text'],
      output_modalities: ['text'],
      modality: 'text->text',
      tokenizer: 'Other',
      instruct_type: null,
    },
    pricing: {
      prompt: model.prompt,
      completion: model.completion,
      request: model.prompt === '-1' ? '-1' : '0',
      image: '0',
    },
    top_provider: { context_length: model.contextLength, max_completion_tokens: model.maxOutput, is_moderated: false },
    per_request_limits: null,
    supported_parameters: supportedParameters(model),
    default_parameters: null,
    supported_voices: null,
    expiration_date: null,
    knowledge_cutoff: null,
    links: { details: `/api/v1/models/${model.id}/endpoints` },
  };
}
