// VS Code's language-model messages in Keyward's words (core/lm/messages.ts): text, tool calls, tool results and
// images. A part of a kind Keyward does not know is named in the error, not dropped without a word.
import * as vscode from 'vscode';
import type { LmMessage, LmPart, LmTool, ToolChoice } from '../../core/lm/messages.ts';

function resultText(content: readonly unknown[]): string {
  return content
    .map((c) => {
      if (c instanceof vscode.LanguageModelTextPart) return c.value;
      if (c instanceof vscode.LanguageModelDataPart) return new TextDecoder().decode(c.data);
      // A prompt-tsx part or anything else: its JSON, so nothing it holds goes unscanned.
      return JSON.stringify(c) ?? '';
    })
    .join('');
}

function partOf(part: unknown): LmPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart)
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart)
    return { kind: 'toolResult', callId: part.callId, text: resultText(part.content) };
  if (part instanceof vscode.LanguageModelDataPart) {
    if (part.mimeType.startsWith('image/'))
      return { kind: 'image', mimeType: part.mimeType, base64: Buffer.from(part.data).toString('base64') };
    // Text and JSON data parts are text to the model, and to the guard.
    return { kind: 'text', text: new TextDecoder().decode(part.data) };
  }
  return undefined;
}

/** The messages, or the place of the first part no wire form can carry. */
export function toLmMessages(
  messages: readonly vscode.LanguageModelChatRequestMessage[],
): { messages: LmMessage[] } | { unknownPart: { message: number; part: number } } {
  const out: LmMessage[] = [];
  for (const [m, message] of messages.entries()) {
    const parts: LmPart[] = [];
    for (const [p, raw] of message.content.entries()) {
      const part = partOf(raw);
      if (!part) return { unknownPart: { message: m, part: p } };
      parts.push(part);
    }
    out.push({ role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', parts });
  }
  return { messages: out };
}

export function toLmTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): LmTool[] {
  return (tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

export function toToolChoice(mode: vscode.LanguageModelChatToolMode): ToolChoice {
  return mode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto';
}
