// An honest token estimate without a tokenizer: Keyward ships none (each service's tokenizer differs, and a
// tokenizer's tables would weigh more than the whole extension). About four characters make a token in English
// prose and code for the GPT-family tokenizers (OpenAI's help article "What are tokens and how to count them?"),
// rounded up, so a caller that budgets a context window with it errs on the side of room.
import type { LmMessage } from './messages.ts';

export const CHARS_PER_TOKEN = 4;
/** Role and framing tokens each chat message costs, as OpenAI's cookbook counts them for its chat models. */
const PER_MESSAGE = 4;
/** What an image costs at low detail on the direct service's models (its vision guide), as a floor. */
const PER_IMAGE = 85;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: LmMessage): number {
  let tokens = PER_MESSAGE;
  for (const part of message.parts) {
    if (part.kind === 'text' || part.kind === 'toolResult') tokens += estimateTextTokens(part.text);
    else if (part.kind === 'toolCall') tokens += estimateTextTokens(part.name + JSON.stringify(part.input ?? {}));
    else tokens += PER_IMAGE;
  }
  return tokens;
}
