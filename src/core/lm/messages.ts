// The messages of a language-model request in Keyward's own words (no vscode: the host maps VS Code's parts to
// these), and their two wire forms: chat completions (the routing and compatible services) and the Responses API
// (the direct service). Tool calls and tool results go both ways: a call the model made comes back as an assistant
// part, and its result goes out in the next request.
//
// The shapes follow the official SDKs' request types: openai `resources/chat/completions/completions.d.ts`
// (ChatCompletionMessageToolCall, ChatCompletionToolMessageParam) and `resources/responses/responses.d.ts`
// (ResponseFunctionToolCall, ResponseInputItem.FunctionCallOutput).
import type { Json } from '../json.ts';

export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; text: string }
  | { kind: 'image'; mimeType: string; base64: string };

export interface LmMessage {
  role: 'system' | 'user' | 'assistant';
  parts: LmPart[];
}

export interface LmTool {
  name: string;
  description: string;
  /** A JSON schema of the tool's input; an empty object schema when the tool names none. */
  inputSchema?: object | undefined;
}

export type ToolChoice = 'auto' | 'required';

/** A tool call the model made, with its input parsed from the arguments it sent. */
export interface ToolCall {
  callId: string;
  name: string;
  input: unknown;
}

const EMPTY_SCHEMA = { type: 'object', properties: {} };

function textOf(parts: readonly LmPart[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
}

function dataUrl(part: { mimeType: string; base64: string }): string {
  return `data:${part.mimeType};base64,${part.base64}`;
}

/** The chat-completions messages: tool results become `tool` messages, right after the call they answer. */
export function toChatMessages(messages: readonly LmMessage[]): Json[] {
  const out: Json[] = [];
  for (const message of messages) {
    const results = message.parts.filter((p) => p.kind === 'toolResult');
    for (const r of results) out.push({ role: 'tool', tool_call_id: r.callId, content: r.text });
    const text = textOf(message.parts);
    const images = message.parts.filter((p) => p.kind === 'image');
    const calls = message.parts.filter((p) => p.kind === 'toolCall');
    if (message.role === 'assistant') {
      if (!text && calls.length === 0) continue;
      const wire: Json = { role: 'assistant', content: text || null };
      if (calls.length > 0)
        wire.tool_calls = calls.map((c) => ({
          id: c.callId,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) },
        }));
      out.push(wire);
      continue;
    }
    if (images.length > 0 && message.role === 'user')
      out.push({
        role: 'user',
        content: [
          ...(text ? [{ type: 'text', text }] : []),
          ...images.map((i) => ({ type: 'image_url', image_url: { url: dataUrl(i) } })),
        ],
      });
    else if (text) out.push({ role: message.role, content: text });
  }
  return out;
}

/** The Responses API's input items: calls are `function_call` items, results `function_call_output` items. */
export function toResponsesInput(messages: readonly LmMessage[]): Json[] {
  const out: Json[] = [];
  for (const message of messages) {
    for (const r of message.parts)
      if (r.kind === 'toolResult') out.push({ type: 'function_call_output', call_id: r.callId, output: r.text });
    const text = textOf(message.parts);
    const images = message.parts.filter((p) => p.kind === 'image');
    if (images.length > 0 && message.role === 'user')
      out.push({
        role: 'user',
        content: [
          ...(text ? [{ type: 'input_text', text }] : []),
          // `detail` is required by the spec's InputImageContent and the SDK's ResponseInputImage; auto lets the model choose.
          ...images.map((i) => ({ type: 'input_image', image_url: dataUrl(i), detail: 'auto' })),
        ],
      });
    else if (text) out.push({ role: message.role, content: text });
    if (message.role === 'assistant')
      for (const c of message.parts)
        if (c.kind === 'toolCall')
          out.push({
            type: 'function_call',
            call_id: c.callId,
            name: c.name,
            arguments: JSON.stringify(c.input ?? {}),
          });
  }
  return out;
}

export function toChatTools(tools: readonly LmTool[]): Json[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema ?? EMPTY_SCHEMA },
  }));
}

export function toResponsesTools(tools: readonly LmTool[]): Json[] {
  return tools.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.inputSchema ?? EMPTY_SCHEMA,
    strict: false,
  }));
}

/**
 * A call's arguments as the model sent them (a JSON text): parsed, or the text itself under `arguments` when it is
 * not JSON, so the caller sees what came rather than nothing.
 */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { arguments: text };
  }
}
