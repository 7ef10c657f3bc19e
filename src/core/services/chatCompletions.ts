// What the services that speak OpenAI's chat completions share (the routing service and any compatible server):
// the prompt as a list of messages, and the client for it.
import type { ChatCompletionsClient } from '../chat/chatCompletionsClient.ts';
import type { TextStream } from '../chat/textStream.ts';
import type { PromptInput, PromptOptions } from './module.ts';

export function promptChat(client: ChatCompletionsClient, input: PromptInput, options: PromptOptions): TextStream {
  const turns = input.text === undefined ? input.turns : [{ role: 'user' as const, content: input.text }];
  return client.chat(
    {
      model: input.model,
      messages: input.instructions ? [{ role: 'system', content: input.instructions }, ...turns] : turns,
      denyDataCollection: input.denyDataCollection === true,
    },
    {
      signal: options.signal,
      onRetry: options.onRetry,
      onFreeWait: options.onFreeWait,
      ...(options.stream === undefined ? {} : { stream: options.stream }),
    },
  );
}
