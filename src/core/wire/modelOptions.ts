// Model lists as the panel's picker shows them: prices per million tokens, and
// the router's free models first, its free router at the top.
import type { ModelOption } from '../../shared/protocol.ts';
import type { SettingSupport } from '../../shared/modelSettings.ts';
import type { RouterModelInfo } from './chatCompletionsClient.ts';
import { FREE_ROUTER_MODEL } from './freeModels.ts';

/** What the model list says a model takes; a list without `supported_parameters` says nothing. */
function chatSupport(parameters: readonly string[] | null | undefined): SettingSupport | undefined {
  if (!parameters) return undefined;
  return {
    temperature: parameters.includes('temperature'),
    maxOutputTokens: parameters.includes('max_tokens') || parameters.includes('max_completion_tokens'),
    reasoningEffort: parameters.includes('reasoning') || parameters.includes('reasoning_effort'),
  };
}

export function routerOptions(
  models: (Pick<RouterModelInfo, 'id' | 'name' | 'free' | 'promptPrice' | 'completionPrice'> &
    Partial<Pick<RouterModelInfo, 'contextLength' | 'maxOutputTokens' | 'supportedParameters' | 'inputModalities'>>)[],
): ModelOption[] {
  const options = models.map((m) => {
    const settings = chatSupport(m.supportedParameters);
    const option: ModelOption = {
      id: m.id,
      name: m.name,
      free: m.free,
      inputPerMillion: m.promptPrice === null ? null : m.promptPrice * 1e6,
      outputPerMillion: m.completionPrice === null ? null : m.completionPrice * 1e6,
      contextLength: m.contextLength ?? null,
    };
    if (m.maxOutputTokens !== undefined) option.maxOutputTokens = m.maxOutputTokens;
    if (m.supportedParameters) option.toolCalling = m.supportedParameters.includes('tools');
    if (m.inputModalities) option.imageInput = m.inputModalities.includes('image');
    if (settings) option.settings = settings;
    return option;
  });
  const rank = (m: ModelOption) => (m.id === FREE_ROUTER_MODEL ? 0 : m.free ? 1 : 2);
  return options.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/**
 * The direct service's reasoning models (its o-series and GPT-5 family) take a reasoning effort and refuse a
 * temperature ("Unsupported parameter: 'temperature'", wire-facts); the others take a temperature.
 */
export function isDirectReasoningModel(id: string): boolean {
  return /^(o\d|gpt-5)/.test(id);
}

/**
 * The direct service's models that read images. Its list says nothing of input modalities, so this follows its
 * model pages: the GPT-4o, GPT-4.1 and GPT-5 families and o1, o3 and o4-mini take image input; the -mini reasoning
 * models before o4 (o1-mini, o3-mini) and GPT-3.5 do not.
 */
const DIRECT_IMAGE_MODELS = /^(gpt-4o|gpt-4\.1|gpt-5|o1(?!-mini)|o3(?!-mini)|o4-mini)/;

/** The direct service lists ids only, without names or prices; every model it lists calls tools. */
export function directOptions(ids: string[]): ModelOption[] {
  return [...ids].sort().map((id) => {
    const reasoning = isDirectReasoningModel(id);
    return {
      id,
      name: id,
      free: false,
      inputPerMillion: null,
      outputPerMillion: null,
      toolCalling: true,
      ...(DIRECT_IMAGE_MODELS.test(id) ? { imageInput: true } : {}),
      settings: { temperature: !reasoning, maxOutputTokens: true, reasoningEffort: reasoning },
    };
  });
}
