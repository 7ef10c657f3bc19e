// The tokens a message costs a model, for VS Code's `provideTokenCount` (and so its context meter). No tokenizer
// ships (its tables would weigh more than the whole extension): shared/tokenCount.ts cuts the text as the GPT
// tokenizers do and costs each piece with figures calibrated against them, within 10 % of o200k_base on a fixed
// corpus (test/core/lm/tokenCount.test.ts); for a family whose tokenizer is another or unknown the count is an
// estimate, and the model's tooltip says so (host/lm/chatProvider.ts).
import { modelTextTokens } from '../../shared/tokenCount.ts';
import type { LmMessage } from './messages.ts';

/** Role and framing tokens each chat message costs, as OpenAI's cookbook counts them for its chat models. */
export const PER_MESSAGE = 4;
/** What an image costs at low detail on the direct service's models (its vision guide), as a floor. */
const PER_IMAGE = 85;

export function estimateTextTokens(text: string, modelId: string): number {
  return modelTextTokens(text, modelId);
}

export function estimateMessageTokens(message: LmMessage, modelId: string): number {
  let tokens = PER_MESSAGE;
  for (const part of message.parts) {
    if (part.kind === 'text' || part.kind === 'toolResult') tokens += estimateTextTokens(part.text, modelId);
    else if (part.kind === 'toolCall')
      tokens += estimateTextTokens(part.name + JSON.stringify(part.input ?? {}), modelId);
    else tokens += PER_IMAGE;
  }
  return tokens;
}
