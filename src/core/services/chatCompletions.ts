// What the services that speak OpenAI's chat completions share (the routing service and any compatible server):
// the prompt as a list of messages, and the client for it.
import { toChatMessages, toChatTools } from '../lm/messages.ts';
import type { ChatCompletionsClient, ChatMessage } from '../wire/chatCompletionsClient.ts';
import type { TextStream } from '../wire/textStream.ts';
import type { PromptInput, PromptOptions } from './module.ts';

export function promptChat(client: ChatCompletionsClient, input: PromptInput, options: PromptOptions): TextStream {
  const turns: ChatMessage[] = input.text === undefined ? input.turns : [{ role: 'user', content: input.text }];
  const conversation = input.messages ? toChatMessages(input.messages) : turns;
  const settings = input.settings ?? {};
  return client.chat(
    {
      model: input.model,
      messages: input.instructions ? [{ role: 'system', content: input.instructions }, ...conversation] : conversation,
      denyDataCollection: input.denyDataCollection === true,
      ...(settings.maxOutputTokens === undefined ? {} : { maxTokens: settings.maxOutputTokens }),
      ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
      ...(settings.reasoningEffort === undefined ? {} : { reasoningEffort: settings.reasoningEffort }),
      ...(input.tools && input.tools.length > 0 ? { tools: toChatTools(input.tools) } : {}),
      ...(input.toolChoice ? { toolChoice: input.toolChoice } : {}),
    },
    {
      signal: options.signal,
      onRetry: options.onRetry,
      onFreeWait: options.onFreeWait,
      ...(options.stream === undefined ? {} : { stream: options.stream }),
    },
  );
}
