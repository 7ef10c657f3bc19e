// Any OpenAI-compatible server the user points at (Ollama, LM Studio, vLLM, llama.cpp, a gateway): chat completions,
// a key that may be absent, and a model list that may be absent too. The module is the one every OpenAI-compatible
// service shares (services/openAiCompatible.ts).
import { compatibleDescriptor } from './compatibleDescriptor.ts';
import { openAiCompatibleService } from './openAiCompatible.ts';

export type { CompatibleVerification } from './openAiCompatible.ts';

export const compatibleService = openAiCompatibleService(compatibleDescriptor);
